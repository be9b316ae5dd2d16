import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SeatStatus } from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable, type Tx } from '../../db/database.ts';
import { liveBookingOfSeats } from '../../db/live-booking.ts';
import { statusIs } from '../../db/status-is.ts';
import {
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  paymentRefunds,
} from '../../db/schema/index.ts';
import {
  publishSeatChanges,
  transactionWithEvents,
  type AfterCommit,
  type OrderRef,
  type SeatChange,
} from '../../events.ts';
import { releasePromoUses, usePromo } from '../pricing/promo.service.ts';
import type { PaymentDeps } from './payment-deps.ts';

export interface FulfilmentOutcome {
  /** False when the session had already been fulfilled: this call changed nothing. */
  fulfilled: boolean;
  confirmed: number;
  refunded: number;
}

/** The status seat maps show now for these seats (another customer's live booking, or free). */
async function currentSeatStatuses(
  db: Queryable,
  items: { showtimeId: string; seatId: string }[],
): Promise<SeatChange[]> {
  const live: { showtimeId: string; seatId: string; status: string }[] = [];
  // One showtime at a time, by its seats' key: a seat id alone has no index but those over every live booking.
  for (const showtimeId of new Set(items.map((i) => i.showtimeId))) {
    live.push(
      ...(await db
        .select({ showtimeId: bookings.showtimeId, seatId: bookings.seatId, status: bookings.status })
        .from(bookings)
        .where(
          liveBookingOfSeats(
            showtimeId,
            items.filter((i) => i.showtimeId === showtimeId).map((i) => i.seatId),
          ),
        )),
    );
  }
  return items.map((i) => {
    const b = live.find((l) => l.showtimeId === i.showtimeId && l.seatId === i.seatId);
    const status: SeatStatus = b?.status === 'CONFIRMED' ? 'CONFIRMED' : b ? 'HELD' : 'AVAILABLE';
    return { ...i, status };
  });
}

/**
 * Locks these bookings FOR UPDATE in seat order, as the hold retires expired rows, so no two writers (holds,
 * fulfilment, refunds, exchanges) can deadlock each other. Nothing to lock for no ids.
 */
export async function lockBookingsInSeatOrder(tx: Tx, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return tx
    .select({
      id: bookings.id,
      status: bookings.status,
      showtimeId: bookings.showtimeId,
      seatId: bookings.seatId,
      checkedInAt: bookings.checkedInAt,
    })
    .from(bookings)
    .where(inArray(bookings.id, bookingIds))
    .orderBy(asc(bookings.seatId), asc(bookings.id))
    .for('update');
}

interface SessionItem {
  id: string;
  bookingId: string | null;
  priceCents: number;
}

interface LockedBooking {
  id: string;
  status: string;
  showtimeId: string;
  seatId: string;
}

/**
 * For each seat a paid session pays for: confirms the booking when its seat is still the customer's (a hold, live
 * or run out but not yet swept) or free again (an expired or cancelled hold nobody took since); anything else is
 * lost to this payment and marked for a refund. Runs inside fulfilment's transaction, the bookings locked.
 */
async function confirmOrRefund(
  tx: Tx,
  sessionId: string,
  items: SessionItem[],
  locked: Map<string, LockedBooking>,
): Promise<{ confirmed: LockedBooking[]; lost: { item: SessionItem; booking?: LockedBooking }[] }> {
  const confirmed: LockedBooking[] = [];
  const lost: { item: SessionItem; booking?: LockedBooking }[] = [];
  const confirm = (q: Queryable, booking: LockedBooking) =>
    q
      .update(bookings)
      .set({
        status: 'CONFIRMED',
        confirmedAt: sql`now()`,
        checkoutSessionId: sessionId,
        updatedAt: sql`now()`,
      })
      .where(eq(bookings.id, booking.id));
  for (const item of items) {
    const booking = item.bookingId ? locked.get(item.bookingId) : undefined;
    if (booking?.status === 'HELD') {
      // Live or past its expiry but not yet swept: the row still occupies the seat, so it is ours.
      await confirm(tx, booking);
      confirmed.push(booking);
    } else if (booking?.status === 'EXPIRED' || booking?.status === 'CANCELLED') {
      // The seat is free only if nobody took it meanwhile: the partial unique index decides, inside a
      // savepoint so a conflict does not abort the whole transaction.
      try {
        await tx.transaction(async (sp) => {
          await confirm(sp, booking);
        });
        confirmed.push(booking);
      } catch (err) {
        if (pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
        await tx
          .update(bookings)
          .set({ status: 'REFUNDED', updatedAt: sql`now()` })
          .where(eq(bookings.id, booking.id));
        lost.push({ item, booking });
      }
    } else {
      // Confirmed by another payment of the same holds, already refunded, or deleted with its showtime:
      // not deliverable for this payment.
      lost.push({ item, booking });
    }
  }
  return { confirmed, lost };
}

/** A seat sold by a payment. */
interface SoldSeat {
  showtimeId: string;
  seatId: string;
}

/**
 * What paying an order tells, recorded inside the payment's transaction and published after it commits, for every
 * way an order is paid (online, free, at the counter; decision 034): its seats now sold and those lost before the
 * payment arrived (with their map status now), `orderPaid`, and for lost seats an `automatic` `orderRefunded`.
 */
export function recordPayment(
  after: AfterCommit,
  paid: OrderRef & {
    channel: 'online' | 'box_office';
    confirmed: readonly SoldSeat[];
    lost?: { lines: number; amountCents: number; seats: readonly SeatChange[] };
    guestToken?: string;
  },
): void {
  const { sessionId, ref, channel, confirmed, guestToken } = paid;
  const lost = paid.lost ?? { lines: 0, amountCents: 0, seats: [] };
  after.seats([
    ...confirmed.map((c) => ({ showtimeId: c.showtimeId, seatId: c.seatId, status: 'CONFIRMED' as const })),
    ...lost.seats,
  ]);
  after.record('orderPaid', {
    sessionId,
    ref,
    channel,
    confirmed: confirmed.length,
    refunded: lost.lines,
    ...(guestToken && { guestToken }),
  });
  if (lost.lines > 0) {
    after.record('orderRefunded', {
      sessionId,
      ref,
      kind: 'automatic',
      seats: lost.lines,
      amountCents: lost.amountCents,
    });
  }
}

/**
 * THE fulfilment path (webhook, local Pay button, success-page lookup): marks a paid session paid exactly once
 * and confirms its bookings; a seat lost after its hold expired is refunded after the transaction commits. What it
 * did is told after commit (recordPayment): seat maps, the confirmation email, metrics.
 */
export async function fulfilCheckout(
  deps: PaymentDeps,
  sessionId: string,
  payment: { paymentId: string | null },
): Promise<FulfilmentOutcome> {
  const outcome = await transactionWithEvents(deps, async (tx, after) => {
    // The guard: only one caller moves the session to paid; every other call (a replay, the lookup racing the
    // webhook) finds nothing to update. An expired, cancelled or superseded session was still paid for if the
    // provider says so, so its seats are confirmed when free and refunded otherwise.
    const [session] = await tx
      .update(checkoutSessions)
      .set({
        status: 'paid',
        paidAt: sql`now()`,
        providerPaymentId: sql`coalesce(${payment.paymentId}, ${checkoutSessions.providerPaymentId})`,
      })
      .where(
        and(
          eq(checkoutSessions.id, sessionId),
          inArray(checkoutSessions.status, ['open', 'expired', 'cancelled', 'superseded']),
        ),
      )
      .returning({ id: checkoutSessions.id, ref: checkoutSessions.ref });
    if (!session) return null;
    await usePromo(tx, sessionId);

    const items = await tx
      .select({
        id: checkoutSessionBookings.id,
        bookingId: checkoutSessionBookings.bookingId,
        priceCents: checkoutSessionBookings.priceCents,
      })
      .from(checkoutSessionBookings)
      .where(eq(checkoutSessionBookings.sessionId, sessionId));
    const bookingIds = items.flatMap((i) => (i.bookingId ? [i.bookingId] : []));
    const locked = await lockBookingsInSeatOrder(tx, bookingIds);
    const { confirmed, lost } = await confirmOrRefund(
      tx,
      sessionId,
      items,
      new Map(locked.map((b) => [b.id, b])),
    );

    const resultOf = (ids: string[], result: 'confirmed' | 'refunded') =>
      tx
        .update(checkoutSessionBookings)
        .set({ result })
        .where(
          and(eq(checkoutSessionBookings.sessionId, sessionId), inArray(checkoutSessionBookings.id, ids)),
        );
    if (confirmed.length > 0) {
      await resultOf(
        items.filter((i) => confirmed.some((c) => c.id === i.bookingId)).map((i) => i.id),
        'confirmed',
      );
    }
    if (lost.length > 0) {
      await resultOf(
        lost.map((l) => l.item.id),
        'refunded',
      );
      await tx
        .insert(paymentRefunds)
        .values(lost.map((l) => ({ sessionId, sessionBookingId: l.item.id, amountCents: l.item.priceCents })))
        .onConflictDoNothing();
      await tx
        .update(checkoutSessions)
        .set({ status: lost.length === items.length ? 'refunded' : 'partially_refunded' })
        .where(eq(checkoutSessions.id, sessionId));
    }
    const lostSeats = lost.flatMap((l) => (l.booking ? [l.booking] : []));
    recordPayment(after, {
      sessionId,
      ref: session.ref!,
      channel: 'online',
      confirmed,
      lost: {
        lines: lost.length,
        amountCents: lost.reduce((sum, l) => sum + l.item.priceCents, 0),
        seats: await currentSeatStatuses(tx, lostSeats),
      },
    });
    return { confirmed: confirmed.length, refunded: lost.length };
  });

  await sendPendingRefunds(deps, sessionId);
  return {
    fulfilled: outcome !== null,
    confirmed: outcome?.confirmed ?? 0,
    refunded: outcome?.refunded ?? 0,
  };
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
      id: paymentRefunds.id,
      amountCents: paymentRefunds.amountCents,
      provider: checkoutSessions.provider,
      paymentId: checkoutSessions.providerPaymentId,
      currency: checkoutSessions.currency,
    })
    .from(paymentRefunds)
    .innerJoin(checkoutSessions, eq(checkoutSessions.id, paymentRefunds.sessionId))
    .where(and(eq(paymentRefunds.sessionId, sessionId), eq(paymentRefunds.status, 'pending')))
    .orderBy(asc(paymentRefunds.createdAt));
  for (const refund of pending) {
    // Nothing moves through a provider for a counter sale (staff hand the money back), an order that cost nothing,
    // or a refund of nothing: the refund is recorded as done.
    if (refund.provider === 'box_office' || refund.provider === 'none' || refund.amountCents === 0) {
      await db
        .update(paymentRefunds)
        .set({ status: 'succeeded', refundedAt: sql`now()` })
        .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, 'pending')));
      continue;
    }
    const provider = providers.get(refund.provider);
    if (!provider) continue;
    try {
      const { refundId } = await provider.refund({
        paymentId: refund.paymentId,
        amountCents: refund.amountCents,
        currency: refund.currency,
        idempotencyKey: refund.id,
      });
      await db
        .update(paymentRefunds)
        .set({ status: 'succeeded', providerRefundId: refundId, refundedAt: sql`now()` })
        .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, 'pending')));
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
    .selectDistinct({ sessionId: paymentRefunds.sessionId })
    .from(paymentRefunds)
    .where(
      and(
        eq(paymentRefunds.status, 'pending'),
        sql`${paymentRefunds.createdAt} < now() - interval '1 minute'`,
      ),
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
  status: 'expired' | 'cancelled',
): Promise<boolean> {
  const freed = await db.transaction(async (tx) => {
    const [session] = await tx
      .update(checkoutSessions)
      .set({ status })
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.status, 'open')))
      .returning({ id: checkoutSessions.id });
    if (!session) return null;
    await releasePromoUses(tx, [sessionId]);
    // Only holds still attached to this session: one that moved on to a newer checkout stays held.
    return tx
      .update(bookings)
      .set({ status: status === 'cancelled' ? 'CANCELLED' : 'EXPIRED', updatedAt: sql`now()` })
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
