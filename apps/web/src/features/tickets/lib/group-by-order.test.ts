import { describe, expect, it } from 'vitest';
import type { Order, Ticket } from '@cinema/contract';
import { groupByOrder } from './group-by-order';

const ticket = (bookingId: string, orderRef: string | null): Ticket => ({
  bookingId,
  movie: { title: 'M', rating: null, durationMinutes: null },
  auditorium: 'Hall 1',
  seat: { row: 1, number: 1 },
  startsAt: '2030-01-01T20:00:00.000Z',
  checkedInAt: null,
  orderRef,
});
const order = (ref: string, refunds: Order['refunds'] = []): Order => ({
  ref,
  status: refunds.length ? 'partially_refunded' : 'paid',
  createdAt: '2029-12-01T10:00:00.000Z',
  paidAt: '2029-12-01T10:01:00.000Z',
  lines: [],
  subtotalCents: 2000,
  discountCents: 0,
  totalCents: 2000,
  refundedCents: 0,
  refunds,
  promoCode: null,
  currency: 'USD',
  testMode: true,
  payments: [{ method: 'CARD', amountCents: 2000, refundedCents: 0 }],
  taxCents: 0,
  taxMode: 'inclusive',
});

describe('tickets grouped by order', () => {
  it('keeps the tickets’ order, puts those without an order last and keeps refunded orders with no ticket left', () => {
    const refund = { amountCents: 1000, status: 'succeeded', createdAt: '2029-12-02T10:00:00.000Z' };
    const groups = groupByOrder(
      [ticket('a', 'AAA-1111'), ticket('x', null), ticket('b', 'BBB-2222'), ticket('c', 'AAA-1111')],
      [order('BBB-2222'), order('AAA-1111'), order('CCC-3333', [refund]), order('DDD-4444')],
    );
    expect(groups.map((g) => [g.ref, g.tickets.map((t) => t.bookingId), g.order?.ref])).toEqual([
      ['AAA-1111', ['a', 'c'], 'AAA-1111'],
      ['BBB-2222', ['b'], 'BBB-2222'],
      [null, ['x'], undefined],
      ['CCC-3333', [], 'CCC-3333'],
    ]);
  });

  it('groups tickets of an order beyond the first page of orders without its details', () => {
    expect(groupByOrder([ticket('a', 'OLD-0000')], [])).toEqual([
      { ref: 'OLD-0000', order: null, tickets: [ticket('a', 'OLD-0000')] },
    ]);
  });
});
