import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/database.ts';
import {
  orderLines,
  orderPayments,
  orders,
  type OrderStatus,
  type PaymentMethod,
} from '../../db/schema/index.ts';
import type { AfterCommit } from '../../events.ts';
import { usePromo } from '../pricing/promo.service.ts';
import { shareDiscount } from '../pricing/price-table.ts';
import { retakeReleasedCards } from '../gift-cards/gift-cards.service.ts';
import { byKind, type OrderLineRef } from './line-kinds.ts';
import { refundLines } from './refund-lines.ts';

/** How the rest of an order (after what is already reserved on it, such as gift cards) was paid. */
export interface PaymentTaken {
  method: Exclude<PaymentMethod, 'GIFT_CARD'>;
  /** CARD: the provider and its payment (a Stripe payment_intent) refunds are made against. */
  provider?: string | null;
  providerReference?: string | null;
  /** The staff member who took it at the counter. */
  takenBy?: string | null;
}

/** The statuses an order may be paid from: open, or closed before the provider's word that it was paid arrived. */
const PAYABLE: OrderStatus[] = ['OPEN', 'EXPIRED', 'CANCELLED', 'SUPERSEDED'];

export interface Paid {
  ref: string;
  delivered: number;
  lost: number;
}

/**
 * THE payment of an order (DESIGN §7.1, decision 039), for a provider's checkout, a free order and a counter sale,
 * inside the caller's transaction: moves the order to PAID exactly once (every other call, a webhook replayed or the
 * success page racing it, finds nothing to do and gets null), captures what was reserved on it and records the rest
 * as `payment`, counts its promo code's use, delivers its lines by kind (tickets confirm their seats) and refunds at
 * once what could not be delivered. After commit (orderPaid, and orderRefunded for lost lines): seat maps, the
 * confirmation email, metrics, the report.
 */
export async function markPaid(
  tx: Tx,
  after: AfterCommit,
  input: {
    orderId: string;
    payment: PaymentTaken;
    channel: 'online' | 'box_office';
    guestToken?: string;
    /** GIFT_CARD_MONTHS, for the gift cards the order sells. */
    giftCardMonths: number;
  },
): Promise<Paid | null> {
  const { orderId, payment } = input;
  const [order] = await tx
    .update(orders)
    .set({
      status: 'PAID',
      paidAt: sql`now()`,
      providerPaymentId: sql`coalesce(${payment.providerReference ?? null}, ${orders.providerPaymentId})`,
    })
    .where(and(eq(orders.id, orderId), inArray(orders.status, PAYABLE)))
    .returning({
      id: orders.id,
      ref: orders.ref,
      amountCents: orders.amountCents,
      provider: orders.provider,
      promoCode: orders.promoCode,
    });
  if (!order) return null;
  const ref = order.ref!;

  // A payment that arrives after the order closed: what its gift cards had reserved was given back, so it is taken
  // again; when a card no longer holds it, the order cannot be delivered and what the provider took goes back.
  if (!(await retakeReleasedCards(tx, orderId))) return shortOfGiftCards(tx, after, { ...input, order, ref });

  // What was reserved on the order (PENDING: gift cards) is captured, and the rest recorded as paid by `payment`
  // (FREE when nothing is left), in one statement.
  const method = payment.method;
  const provider = payment.provider ?? (method === 'CARD' ? order.provider : null);
  await tx.execute(sql`
    with captured as (
      update ${orderPayments} set status = 'PAID', paid_at = now()
      where ${orderPayments.orderId} = ${orderId}::uuid and ${orderPayments.status} = 'PENDING'
      returning amount_cents),
    taken as (select coalesce(sum(amount_cents), 0)::int as amount, count(*)::int as n from captured)
    insert into ${orderPayments} (order_id, method, amount_cents, provider, provider_reference, taken_by, paid_at)
    select ${orderId}::uuid, case when ${order.amountCents}::int - taken.amount > 0 then ${method}::text else 'FREE' end,
      greatest(0, ${order.amountCents}::int - taken.amount), ${provider}::text, ${payment.providerReference ?? null}::text,
      ${payment.takenBy ?? null}::uuid, now()
    from taken where ${order.amountCents}::int - taken.amount > 0 or taken.n = 0`);
  if (order.promoCode) await usePromo(tx, orderId);

  const lines = await tx
    .select({
      id: orderLines.id,
      kind: orderLines.kind,
      bookingId: orderLines.bookingId,
      priceCents: orderLines.priceCents,
      result: orderLines.result,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  const deliveries = await byKind(lines, (rules, own) =>
    rules.deliver(tx, orderId, own, { giftCardMonths: input.giftCardMonths }),
  );
  const delivered = deliveries.flatMap((d) => d.delivered);
  const lost = deliveries.flatMap((d) => d.lost);
  // A line written delivered already (a counter sale's) is left alone: no second note to the sales report.
  const confirming = delivered.filter((l) => lines.find((own) => own.id === l.id)?.result !== 'confirmed');
  if (confirming.length > 0) {
    await tx
      .update(orderLines)
      .set({ result: 'confirmed' })
      .where(
        and(
          eq(orderLines.orderId, orderId),
          inArray(
            orderLines.id,
            confirming.map((l) => l.id),
          ),
        ),
      );
  }
  after.seats(deliveries.flatMap((d) => d.seats));
  const items = delivered.filter((l) => l.kind === 'PRODUCT').length;
  after.record('orderPaid', {
    sessionId: orderId,
    ref,
    channel: input.channel,
    confirmed: delivered.length,
    refunded: lost.length,
    ...(items > 0 && { items }),
    ...(input.guestToken && { guestToken: input.guestToken }),
  });
  if (lost.length > 0) {
    // Paid for but gone (a seat taken after its hold ran out): the money goes back at once.
    await refundLines(tx, after, {
      order: { id: orderId, ref },
      refunds: lost.map((line) => ({ line, amountCents: line.priceCents, whole: true })),
      kind: 'lost_seat',
    });
  }
  return { ref, delivered: delivered.length, lost: lost.length };
}

/**
 * A late payment of an order whose gift cards no longer hold what they had reserved: the provider's payment (the
 * order less its cards) is recorded and given back whole, shared over the lines, none of which is delivered.
 */
async function shortOfGiftCards(
  tx: Tx,
  after: AfterCommit,
  input: Parameters<typeof markPaid>[2] & { order: { amountCents: number; provider: string }; ref: string },
): Promise<Paid> {
  const { orderId, payment, order, ref } = input;
  const [{ cards } = { cards: 0 }] = await tx
    .select({ cards: sql<number>`coalesce(sum(${orderPayments.amountCents}), 0)::int` })
    .from(orderPayments)
    .where(and(eq(orderPayments.orderId, orderId), eq(orderPayments.method, 'GIFT_CARD')));
  const taken = order.amountCents - Number(cards);
  await tx.insert(orderPayments).values({
    orderId,
    method: payment.method,
    amountCents: taken,
    provider: payment.provider ?? (payment.method === 'CARD' ? order.provider : null),
    providerReference: payment.providerReference ?? null,
    takenBy: payment.takenBy ?? null,
    paidAt: sql`now()`,
  });
  const lines: OrderLineRef[] = await tx
    .select({
      id: orderLines.id,
      kind: orderLines.kind,
      bookingId: orderLines.bookingId,
      priceCents: orderLines.priceCents,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  const shares = shareDiscount(
    lines.map((l) => l.priceCents),
    taken,
  );
  after.record('orderPaid', {
    sessionId: orderId,
    ref,
    channel: input.channel,
    confirmed: 0,
    refunded: lines.length,
  });
  await refundLines(tx, after, {
    order: { id: orderId, ref },
    refunds: lines.map((line, i) => ({ line, amountCents: shares[i]!, whole: true })),
    kind: 'lost_seat',
    reason: 'the gift cards of this order no longer hold what it needed',
  });
  return { ref, delivered: 0, lost: lines.length };
}
