import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { PAYMENT_WINDOW_MINUTES, seatLabel, type CheckoutResponse } from '@cinema/contract';
import type { Tx } from '../../db/database.ts';
import { liveHold } from '../../db/live-booking.ts';
import {
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  movies,
  seats,
  showtimes,
} from '../../db/schema/index.ts';
import { AppError, conflict } from '../../errors.ts';
import type { PaymentDeps } from './payment-deps.ts';

export const CURRENCY = 'usd';
// Stripe wants expires_at at least 30 minutes after ITS creation of the session, which happens a moment after
// our clock started: the window gets one extra minute so the provider never rejects it.
const PAYMENT_WINDOW_SECONDS = PAYMENT_WINDOW_MINUTES * 60 + 60;

/** "Row C Seat 7" (rows are lettered in the hall: 1 → A, 27 → AA): the contract's seat label for line items. */
export const seatName = (seat: { row: number; number: number; rowLabel?: string | null }): string =>
  seatLabel(seat, { style: 'line-item' });

/** A checkout session closed before it was paid, as its provider knows it. */
export interface ClosedCheckout {
  id: string;
  provider: 'local' | 'stripe';
  providerSessionId: string | null;
}

/**
 * Closes the open checkout sessions that pay for any of these bookings, inside the caller's transaction, so none of
 * them can be paid any more (DESIGN §6.1: one open session per booking; cancelling holds closes their sessions).
 * Call it before locking the bookings: fulfilment locks a session before its bookings, and so must everyone.
 * Publish `checkoutsClosed` with the result after commit, so the provider closes its copies too.
 */
export async function closeOpenCheckouts(
  tx: Tx,
  bookingIds: string[],
  status: 'superseded' | 'cancelled',
): Promise<ClosedCheckout[]> {
  if (bookingIds.length === 0) return [];
  return tx
    .update(checkoutSessions)
    .set({ status })
    .where(
      and(
        eq(checkoutSessions.status, 'open'),
        inArray(
          checkoutSessions.id,
          tx
            .select({ id: checkoutSessionBookings.sessionId })
            .from(checkoutSessionBookings)
            .where(inArray(checkoutSessionBookings.bookingId, bookingIds)),
        ),
      ),
    )
    .returning({
      id: checkoutSessions.id,
      provider: checkoutSessions.provider,
      providerSessionId: checkoutSessions.providerSessionId,
    });
}

/** Tells the providers to close sessions that were closed here (after commit). */
export function publishClosedCheckouts(
  { events }: PaymentDeps | Pick<PaymentDeps, 'events'>,
  closed: ClosedCheckout[],
) {
  const sessions = closed.flatMap((c) =>
    c.providerSessionId ? [{ provider: c.provider, providerSessionId: c.providerSessionId }] : [],
  );
  if (sessions.length > 0) events.publish('checkoutsClosed', { sessions });
}

interface PreparedCheckout {
  sessionId: string;
  expiresAt: Date;
  lines: { name: string; amountCents: number }[];
  /** The holds as they were, to put back if the provider cannot start the payment. */
  previous: {
    id: string;
    showtimeId: string;
    expiresAt: Date | null;
    checkoutSessionId: string | null;
    extendedAt: Date | null;
  }[];
  /** Earlier open sessions of these holds, closed by this one (reopened if the provider fails). */
  superseded: ClosedCheckout[];
}

/** Extending or restoring holds changes what their holders' seat maps say, without any seat changing status. */
function seatMapsStale({ events }: PaymentDeps, prepared: PreparedCheckout) {
  for (const showtimeId of new Set(prepared.previous.map((b) => b.showtimeId))) {
    events.publish('seatMapStale', { showtimeId });
  }
}

/**
 * Starts paying for the caller's own live holds: in one short transaction closes their earlier open sessions,
 * prices them from their showtimes, extends them to the payment window (once in a hold's life, never past
 * HOLD_MINUTES + 30 minutes from the hold) and records the session; then (no transaction open) asks the provider.
 */
export async function startCheckout(
  deps: PaymentDeps,
  input: { userId: string; email: string; bookingIds: string[] },
): Promise<CheckoutResponse> {
  const { db, providers, log, config } = deps;
  const provider = providers.get();
  if (!provider) throw new AppError(502, 'payment_provider_error', 'Payments are not configured');
  const bookingIds = [...new Set(input.bookingIds.map((id) => id.toLowerCase()))].sort();

  const prepared = await db.transaction(async (tx): Promise<PreparedCheckout> => {
    // Before the bookings are locked: a session is locked before its bookings, by fulfilment too.
    const superseded = await closeOpenCheckouts(tx, bookingIds, 'superseded');
    const rows = await tx
      .select({
        id: bookings.id,
        showtimeId: bookings.showtimeId,
        userId: bookings.userId,
        status: bookings.status,
        expiresAt: bookings.expiresAt,
        checkoutSessionId: bookings.checkoutSessionId,
        extendedAt: bookings.extendedAt,
        live: sql<boolean>`${liveHold}`,
        started: sql<boolean>`${showtimes.startsAt} <= now()`,
        priceCents: showtimes.priceCents,
        startsAt: showtimes.startsAt,
        movie: movies.title,
        row: seats.row,
        number: seats.number,
        rowLabel: seats.rowLabel,
      })
      .from(bookings)
      .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
      .innerJoin(movies, eq(movies.id, showtimes.movieId))
      .innerJoin(seats, eq(seats.id, bookings.seatId))
      .where(inArray(bookings.id, bookingIds))
      // Seat order, as the hold and fulfilment lock, so concurrent writers cannot deadlock.
      .orderBy(asc(bookings.seatId), asc(bookings.id))
      .for('update', { of: bookings });

    if (rows.length !== bookingIds.length) {
      const found = new Set(rows.map((r) => r.id));
      throw new AppError(404, 'not_found', 'Some of these bookings do not exist', {
        bookingIds: bookingIds.filter((id) => !found.has(id)),
      });
    }
    // Someone else's booking is answered like one that does not exist: nobody learns which ids are real.
    const foreign = rows.filter((r) => r.userId !== input.userId);
    if (foreign.length > 0) {
      throw new AppError(404, 'not_found', 'Some of these bookings do not exist', {
        bookingIds: foreign.map((r) => r.id),
      });
    }
    const paid = rows.filter((r) => r.status === 'CONFIRMED');
    if (paid.length > 0) {
      throw conflict(`Already paid for: ${paid.map(seatName).join(', ')}`, 'already_paid', {
        bookingIds: paid.map((r) => r.id),
      });
    }
    const gone = rows.filter((r) => !r.live);
    if (gone.length > 0) {
      throw conflict(
        `Your hold has expired or was cancelled (${gone.map(seatName).join(', ')}). Please hold the seats again.`,
        'hold_expired',
        { bookingIds: gone.map((r) => r.id) },
      );
    }
    if (rows.some((r) => r.started)) throw conflict('This showtime has already started', 'showtime_started');

    const [session] = await tx
      .insert(checkoutSessions)
      .values({
        userId: input.userId,
        provider: provider.name,
        amountCents: rows.reduce((sum, r) => sum + r.priceCents, 0),
        currency: CURRENCY,
        expiresAt: sql`now() + make_interval(secs => ${PAYMENT_WINDOW_SECONDS})`,
      })
      .returning({ id: checkoutSessions.id, expiresAt: checkoutSessions.expiresAt });
    await tx.insert(checkoutSessionBookings).values(
      rows.map((r) => ({
        sessionId: session!.id,
        bookingId: r.id,
        seatRow: r.row,
        seatNumber: r.number,
        priceCents: r.priceCents,
      })),
    );
    // Extended to the payment window once, and never past the hold's life: HOLD_MINUTES + 30 minutes from the
    // hold, however often checkout starts.
    const lifeSeconds = (config.holdMinutes + PAYMENT_WINDOW_MINUTES) * 60;
    await tx
      .update(bookings)
      .set({
        expiresAt: sql`case when ${bookings.extendedAt} is null
          then least(${session!.expiresAt.toISOString()}::timestamptz, ${bookings.createdAt} + make_interval(secs => ${lifeSeconds}))
          else ${bookings.expiresAt} end`,
        extendedAt: sql`coalesce(${bookings.extendedAt}, now())`,
        checkoutSessionId: session!.id,
        updatedAt: sql`now()`,
      })
      .where(and(inArray(bookings.id, bookingIds), eq(bookings.status, 'HELD')));

    return {
      sessionId: session!.id,
      expiresAt: session!.expiresAt,
      lines: [...rows]
        .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.row - b.row || a.number - b.number)
        .map((r) => ({ name: `${r.movie} — ${seatName(r)}`, amountCents: r.priceCents })),
      previous: rows.map((r) => ({
        id: r.id,
        showtimeId: r.showtimeId,
        expiresAt: r.expiresAt,
        checkoutSessionId: r.checkoutSessionId,
        extendedAt: r.extendedAt,
      })),
      superseded,
    };
  });
  seatMapsStale(deps, prepared);

  try {
    const created = await provider.createSession({
      sessionId: prepared.sessionId,
      currency: CURRENCY,
      lines: prepared.lines,
      expiresAt: prepared.expiresAt,
      customerEmail: input.email,
    });
    await db
      .update(checkoutSessions)
      .set({ providerSessionId: created.providerSessionId, url: created.url })
      .where(eq(checkoutSessions.id, prepared.sessionId));
    publishClosedCheckouts(deps, prepared.superseded);
    // A client that opens Stripe's page itself (Stripe.js) needs Stripe's own session id; the lookup takes both.
    const sessionId = provider.name === 'stripe' ? created.providerSessionId : prepared.sessionId;
    return { sessionId, url: created.url };
  } catch (err) {
    log.error({ err, sessionId: prepared.sessionId }, 'payment provider could not create a session');
    await undoCheckout(deps, prepared);
    throw new AppError(
      502,
      'payment_provider_error',
      'The payment provider could not start the checkout. Please try again.',
    );
  }
}

/**
 * The provider failed: the session is closed, the sessions it replaced are open again (nothing closed them at
 * the provider yet) and the holds get back their own expiry.
 */
async function undoCheckout(deps: PaymentDeps, prepared: PreparedCheckout) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(checkoutSessions)
      .set({ status: 'cancelled' })
      .where(and(eq(checkoutSessions.id, prepared.sessionId), eq(checkoutSessions.status, 'open')));
    if (prepared.superseded.length > 0) {
      await tx
        .update(checkoutSessions)
        .set({ status: 'open' })
        .where(
          and(
            inArray(
              checkoutSessions.id,
              prepared.superseded.map((c) => c.id),
            ),
            eq(checkoutSessions.status, 'superseded'),
          ),
        );
    }
    for (const b of prepared.previous) {
      await tx
        .update(bookings)
        .set({
          expiresAt: b.expiresAt,
          checkoutSessionId: b.checkoutSessionId,
          extendedAt: b.extendedAt,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(bookings.id, b.id),
            eq(bookings.status, 'HELD'),
            eq(bookings.checkoutSessionId, prepared.sessionId),
          ),
        );
    }
  });
  seatMapsStale(deps, prepared);
}
