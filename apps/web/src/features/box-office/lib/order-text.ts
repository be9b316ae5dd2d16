import type { TFunction } from 'i18next';
import type { StaffOrder } from '@cinema/contract';

/** An order's status as staff read it. */
export const orderStatusText = (status: StaffOrder['status'], t: TFunction<'admin'>): string =>
  t(`orders.status.${status}`);

/** How an order was paid, in words. */
export const paidByText = (o: StaffOrder, t: TFunction<'admin'>) =>
  o.provider === 'box_office'
    ? o.paymentMethod === 'cash'
      ? t('orders.paidBy.counterCash')
      : t('orders.paidBy.counterCard')
    : o.provider === 'stripe'
      ? t('orders.paidBy.online')
      : o.provider === 'local'
        ? t('orders.paidBy.test')
        : t('orders.paidBy.nothing');
