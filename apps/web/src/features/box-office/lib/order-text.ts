import type { StaffOrder } from '@cinema/contract';

/** An order's status as staff read it. */
export const orderStatusText: Record<StaffOrder['status'], string> = {
  pending: 'Awaiting payment',
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** How an order was paid, in words. */
export const paidByText = (o: StaffOrder) =>
  o.provider === 'box_office'
    ? `Counter, ${o.paymentMethod === 'cash' ? 'cash' : 'card'}`
    : o.provider === 'stripe'
      ? 'Online, card'
      : o.provider === 'local'
        ? 'Online, test payment'
        : 'Nothing to pay';
