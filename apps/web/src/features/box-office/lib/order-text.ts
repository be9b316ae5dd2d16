import type { StaffOrder } from '@cinema/contract';
import { i18n } from '../../../lib/i18n';

/** An order's status as staff read it. */
export const orderStatusText = (status: StaffOrder['status']): string =>
  i18n.t(`admin:orders.status.${status}`);

/** How an order was paid, in words. */
export const paidByText = (o: StaffOrder) =>
  o.provider === 'box_office'
    ? o.paymentMethod === 'cash'
      ? i18n.t('admin:orders.paidBy.counterCash')
      : i18n.t('admin:orders.paidBy.counterCard')
    : o.provider === 'stripe'
      ? i18n.t('admin:orders.paidBy.online')
      : o.provider === 'local'
        ? i18n.t('admin:orders.paidBy.test')
        : i18n.t('admin:orders.paidBy.nothing');
