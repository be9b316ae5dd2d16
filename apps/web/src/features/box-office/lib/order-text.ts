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
    : o.provider === 'none' && o.payments.some((p) => p.method === 'GIFT_CARD')
      ? i18n.t('admin:orders.paidBy.giftCard')
      : o.provider === 'stripe'
        ? i18n.t('admin:orders.paidBy.online')
        : o.provider === 'local'
          ? i18n.t('admin:orders.paidBy.test')
          : i18n.t('admin:orders.paidBy.nothing');

/** Each payment of an order, in words: how much by which method ("$10.00 by gift card"), and what went back of it. */
export const paymentsText = (o: StaffOrder, money: (cents: number) => string): string =>
  o.payments
    .filter((p) => p.amountCents > 0)
    .map(
      (p) =>
        i18n.t(`admin:boxOffice.paidWith.${p.method}`, { amount: money(p.amountCents) }) +
        (p.refundedCents > 0
          ? ` ${i18n.t('admin:order.refundedOf', { amount: money(p.refundedCents) })}`
          : ''),
    )
    .join(', ') || i18n.t('admin:boxOffice.nothingToPay');
