import { and, asc, eq, sql } from 'drizzle-orm';
import { statusIs } from '../../db/status-is.ts';
import { bookings, orderPayments, orderRefunds, orders } from '../../db/schema/index.ts';
import { publishSeatChanges, transactionWithEvents } from '../../events.ts';
import { markPaid } from '../orders/mark-paid.ts';
import { releaseOrderStock } from '../concessions/stock.ts';
import { releaseCards } from '../gift-cards/gift-cards.service.ts';
import { releasePromoUses } from '../pricing/promo.service.ts';
import type { PaymentDeps } from './payment-deps.ts';

export interface FulfilmentOutcome {
  /** False when the session had already been fulfilled: this call changed nothing. */
  fulfilled: boolean;
  confirmed: number;
  refunded: number;
}

/**
 * THE fulfilment path of an online order (webhook, local Pay button, success-page lookup, a free order): the provider
 * says it was paid, so the order is marked paid exactly once (markPaid: an expired, cancelled or superseded checkout
 * was still paid for if the provider says so, so its seats are confirmed when free and refunded otherwise), then the
 * refunds of lost seats go to the provider after commit.
 */
export async function fulfilCheckout(
  deps: PaymentDeps,
  sessionId: string,
  payment: { paymentId: string | null },
): Promise<FulfilmentOutcome> {
  const paid = await transactionWithEvents(deps, (tx, after) =>
    markPaid(tx, after, {
      orderId: sessionId,
      payment: { method: 'CARD', providerReference: payment.paymentId },
      channel: 'online',
      giftCardMonths: deps.config.giftCardMonths,
    }),
  );
  await sendPendingRefunds(deps, sessionId);
  return { fulfilled: paid !== null, confirmed: paid?.delivered ?? 0, refunded: paid?.lost ?? 0 };
}

/**
 * Sends the session's recorded refunds to its provider, each with its own idempotency key, outside any
 * transaction; a failure stays pending and is retried by the next webhook or lookup of the session.
 */
export async function sendPendingRefunds(
  { db, providers, log }: PaymentDeps,
  sessionId: string,
): Promise<void> {
  const pending = await db
    .select({
      id: orderRefunds.id,
      amountCents: orderRefunds.amountCents,
      method: orderPayments.method,
      provider: orderPayments.provider,
      paymentId: sql<
        string | null
      >`coalesce(${orderPayments.providerReference}, ${orders.providerPaymentId})`,
      currency: orders.currency,
    })
    .from(orderRefunds)
    .innerJoin(orderPayments, eq(orderPayments.id, orderRefunds.paymentId))
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(eq(orderRefunds.orderId, sessionId), eq(orderRefunds.status, 'pending')))
    .orderBy(asc(orderRefunds.createdAt));
  for (const refund of pending) {
    // Only a card payment moves money back through a provider. Cash and the card terminal are handed back by staff,
    // a free order paid nothing, and a gift card is credited in the refund's own transaction: recorded as done.
    const provider =
      refund.method === 'CARD' && refund.provider
        ? providers.get(refund.provider as 'local' | 'stripe')
        : null;
    if (refund.method !== 'CARD' || refund.amountCents === 0) {
      await db
        .update(orderRefunds)
        .set({ status: 'succeeded', refundedAt: sql`now()` })
        .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, 'pending')));
      continue;
    }
    if (!provider) continue;
    try {
      const { refundId } = await provider.refund({
        paymentId: refund.paymentId,
        amountCents: refund.amountCents,
        currency: refund.currency,
        idempotencyKey: refund.id,
      });
      await db
        .update(orderRefunds)
        .set({ status: 'succeeded', providerRefundId: refundId, refundedAt: sql`now()` })
        .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, 'pending')));
    } catch (err) {
      log.error({ err, refundId: refund.id, sessionId }, 'refund failed; it will be retried');
    }
  }
}

/**
 * Sends refunds still pending a minute after they were decided (the provider was away when their request tried):
 * a few sessions at a time, oldest first. Run periodically.
 */
export async function retryPendingRefunds(deps: PaymentDeps, limit = 20): Promise<number> {
  const sessions = await deps.db
    .selectDistinct({ sessionId: orderRefunds.orderId })
    .from(orderRefunds)
    .where(
      and(eq(orderRefunds.status, 'pending'), sql`${orderRefunds.createdAt} < now() - interval '1 minute'`),
    )
    .limit(limit);
  for (const { sessionId } of sessions) await sendPendingRefunds(deps, sessionId);
  return sessions.length;
}

/**
 * Closes an open session that will not be paid (expired at the provider, or cancelled by the customer) and
 * releases its holds; returns false when the session was not open.
 */
export async function releaseCheckout(
  { db, events }: PaymentDeps,
  sessionId: string,
  status: 'EXPIRED' | 'CANCELLED',
): Promise<boolean> {
  const freed = await db.transaction(async (tx) => {
    const [session] = await tx
      .update(orders)
      .set({ status })
      .where(and(eq(orders.id, sessionId), eq(orders.status, 'OPEN')))
      .returning({ id: orders.id });
    if (!session) return null;
    await releasePromoUses(tx, [sessionId]);
    await releaseOrderStock(tx, [sessionId]);
    await releaseCards(tx, [sessionId]);
    // Only holds still attached to this session: one that moved on to a newer checkout stays held.
    return tx
      .update(bookings)
      .set({ status, updatedAt: sql`now()` })
      .where(and(eq(bookings.checkoutSessionId, sessionId), statusIs(bookings.status, 'HELD')))
      .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId });
  });
  if (!freed) return false;
  publishSeatChanges(
    events,
    freed.map((f) => ({ ...f, status: 'AVAILABLE' as const })),
  );
  return true;
}
