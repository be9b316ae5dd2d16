import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/database.ts';
import { orderLines, orderPayments, orderRefunds, orders, REFUND_KINDS } from '../../db/schema/index.ts';
import type { AfterCommit } from '../../events.ts';
import { creditRefund } from '../gift-cards/gift-cards.service.ts';
import { byKind, type OrderLineRef } from './line-kinds.ts';

/**
 * Refunds go back where the money came from (DESIGN §7.3): each gift card gets its share of the line, and the rest goes
 * to the cards first, gift cards last.
 */
const REFUND_ORDER = ['CARD', 'CARD_TERMINAL', 'CASH', 'FREE', 'GIFT_CARD'] as const;

export interface LineRefund {
  line: OrderLineRef;
  amountCents: number;
  /** The whole line is refunded (it is undone); otherwise only money goes back (an exchange's difference). */
  whole: boolean;
  /** Why, when it differs from the refund's reason. */
  reason?: string;
}

/**
 * THE refund of order lines (DESIGN §7.1, decision 039), inside the caller's transaction with the order's row locked:
 * whole lines are marked refunded and their kind takes back what they gave (`takeBack`: a ticket's seat is on sale
 * again; not for `lost_seat`, whose seat was never delivered); the money is shared out over the order's payments
 * (each gift card its share of the line, the rest cards first, then gift cards), each payment's `refunded_cents`
 * grows (the database refuses more than was paid), and a pending refund is written per line and payment, sent to the
 * provider after commit. The order's status follows.
 * After commit: the seats' maps and `orderRefunded`.
 */
export async function refundLines(
  tx: Tx,
  after: AfterCommit,
  input: {
    order: { id: string; ref: string };
    refunds: LineRefund[];
    kind: (typeof REFUND_KINDS)[number];
    createdBy?: string | null;
    reason?: string | null;
  },
): Promise<{ refundedCents: number }> {
  const { order, kind } = input;
  const asked = input.refunds.filter((r) => r.whole || r.amountCents > 0);
  if (asked.length === 0) return { refundedCents: 0 };
  const refunds = [...asked, ...(await feesThatFollow(tx, order.id, asked, kind))];

  const whole = refunds.filter((r) => r.whole).map((r) => r.line);
  if (whole.length > 0) {
    await tx
      .update(orderLines)
      .set({ result: 'refunded', dueCents: 0 })
      .where(
        inArray(
          orderLines.id,
          whole.map((l) => l.id),
        ),
      );
    if (kind !== 'lost_seat') {
      const seats = (await byKind(whole, (rules, lines) => rules.takeBack(tx, lines))).flat();
      after.seats(seats);
    }
  }

  const payments = (
    await tx
      .select({
        id: orderPayments.id,
        method: orderPayments.method,
        amount: orderPayments.amountCents,
        left: sql<number>`${orderPayments.amountCents} - ${orderPayments.refundedCents}`,
      })
      .from(orderPayments)
      .where(and(eq(orderPayments.orderId, order.id), eq(orderPayments.status, 'PAID')))
      .orderBy(asc(orderPayments.createdAt))
      .for('update')
  ).sort((a, b) => REFUND_ORDER.indexOf(a.method) - REFUND_ORDER.indexOf(b.method));
  const rows: (typeof orderRefunds.$inferInsert)[] = [];
  // What the order was paid in all: a gift card's share of each line is what it paid of that.
  const paidCents = payments.reduce((sum, p) => sum + Number(p.amount), 0);
  for (const r of refunds) {
    const shares = new Map<(typeof payments)[number], number>();
    let owed = r.amountCents;
    const give = (p: (typeof payments)[number], cents: number) => {
      if (cents <= 0) return;
      shares.set(p, (shares.get(p) ?? 0) + cents);
      p.left = Number(p.left) - cents;
      owed -= cents;
    };
    // Each gift card takes back its share of the line, in proportion to what it paid of the order (rounded down; the
    // odd cent follows with the rest), so refunding lines one by one credits the card as refunding them all would.
    if (paidCents > 0)
      for (const p of payments.filter((x) => x.method === 'GIFT_CARD'))
        give(p, Math.min(Number(p.left), Math.floor((r.amountCents * Number(p.amount)) / paidCents)));
    // The rest: cards first, then gift cards (a payment with nothing left passes it on to the next).
    for (const p of payments) {
      if (owed === 0) break;
      give(p, Math.min(owed, Number(p.left)));
    }
    // More than the order's payments hold is never given back (the check on order_payments backs this).
    if (owed > 0)
      throw new Error(`refund of ${r.amountCents} exceeds what order ${order.ref} has left to refund`);
    // A whole line's refund has a row even when nothing was paid for it (a free order), so it is on the record.
    if (shares.size === 0 && r.whole && payments[0]) shares.set(payments[0], 0);
    for (const [p, amountCents] of shares)
      rows.push({
        orderId: order.id,
        lineId: r.line.id,
        paymentId: p.id,
        amountCents,
        kind,
        createdBy: input.createdBy ?? null,
        reason: r.reason ?? input.reason ?? null,
      });
  }
  if (rows.length > 0) await tx.insert(orderRefunds).values(rows);
  for (const p of payments) {
    const given = rows.filter((row) => row.paymentId === p.id).reduce((sum, row) => sum + row.amountCents, 0);
    if (given > 0) {
      await tx
        .update(orderPayments)
        .set({ refundedCents: sql`${orderPayments.refundedCents} + ${given}` })
        .where(eq(orderPayments.id, p.id));
      // A gift card's share goes back to the card now, in this transaction (a ledger entry the customer sees).
      if (p.method === 'GIFT_CARD') {
        await creditRefund(tx, {
          paymentId: p.id,
          amountCents: given,
          orderId: order.id,
          createdBy: input.createdBy ?? null,
        });
      }
    }
  }

  if (whole.length > 0) {
    const [{ standing } = { standing: 0 }] = await tx
      .select({ standing: sql<number>`count(*)::int` })
      .from(orderLines)
      .where(
        and(
          eq(orderLines.orderId, order.id),
          eq(orderLines.result, 'confirmed'),
          // A booking fee that is not refundable stays the cinema's: it does not keep the order part-refunded.
          or(ne(orderLines.kind, 'FEE'), eq(orderLines.refundable, true)),
        ),
      );
    await tx
      .update(orders)
      .set({ status: Number(standing) === 0 ? 'REFUNDED' : 'PARTLY_REFUNDED' })
      .where(eq(orders.id, order.id));
  }
  const refundedCents = refunds.reduce((sum, r) => sum + r.amountCents, 0);
  after.record('orderRefunded', {
    sessionId: order.id,
    ref: order.ref,
    kind: kind === 'lost_seat' ? 'automatic' : kind,
    seats: refunds.length,
    amountCents: refundedCents,
  });
  return { refundedCents };
}

/**
 * The booking fees a refund gives back too (DESIGN §7.4): when it leaves none of the order's tickets standing, its
 * refundable fees (every fee when the seats were lost: the customer never had them). A fee that is not refundable
 * stays paid.
 */
async function feesThatFollow(
  tx: Tx,
  orderId: string,
  refunds: readonly LineRefund[],
  kind: (typeof REFUND_KINDS)[number],
): Promise<LineRefund[]> {
  const undone = new Set(refunds.filter((r) => r.whole).map((r) => r.line.id));
  if (!refunds.some((r) => r.whole && r.line.kind === 'TICKET')) return [];
  const lines = await tx
    .select({
      id: orderLines.id,
      kind: orderLines.kind,
      bookingId: orderLines.bookingId,
      priceCents: orderLines.priceCents,
      refundable: orderLines.refundable,
    })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.result, 'confirmed')));
  if (lines.some((l) => l.kind === 'TICKET' && !undone.has(l.id))) return [];
  return lines
    .filter((l) => l.kind === 'FEE' && !undone.has(l.id) && (l.refundable || kind === 'lost_seat'))
    .map(({ refundable: _, ...line }) => ({ line, amountCents: line.priceCents, whole: true }));
}
