import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { PAYMENT_WINDOW_MINUTES, type CheckoutResponse } from '@cinema/contract';
import { liveHold } from '../../db/live-booking.ts';
import {
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  movies,
  seats,
  showtimes,
} from '../../db/schema/index.ts';
import { AppError, conflict, forbidden } from '../../errors.ts';
import type { PaymentDeps } from './payment-deps.ts';

export const CURRENCY = 'usd';
// Stripe wants expires_at at least 30 minutes after ITS creation of the session, which happens a moment after
// our clock started: the window gets one extra minute so the provider never rejects it.
const PAYMENT_WINDOW_SECONDS = PAYMENT_WINDOW_MINUTES * 60 + 60;

/** "Row C Seat 7" (rows are lettered in the hall: 1 → A, 27 → AA). */
export function seatName(seat: { row: number; number: number }): string {
  let letters = '';
  for (let n = seat.row; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return `Row ${letters} Seat ${seat.number}`;
}

interface PreparedCheckout {
  sessionId: string;
  expiresAt: Date;
  lines: { name: string; amountCents: number }[];
  /** The holds as they were, to put back if the provider cannot start the payment. */
  previous: { id: string; showtimeId: string; expiresAt: Date | null; checkoutSessionId: string | null }[];
}

/** Extending or restoring holds changes what their holders' seat maps say, without any seat changing status. */
function seatMapsStale({ events }: PaymentDeps, prepared: PreparedCheckout) {
  for (const showtimeId of new Set(prepared.previous.map((b) => b.showtimeId))) {
    events.publish('seatMapStale', { showtimeId });
  }
}

/**
 * Starts paying for the caller's own live holds: in one short transaction prices them from their showtimes,
 * extends them to the payment window and records the session; then (no transaction open) asks the provider.
 */
export async function startCheckout(
  deps: PaymentDeps,
  input: { userId: string; email: string; bookingIds: string[] },
): Promise<CheckoutResponse> {
  const { db, providers, log } = deps;
  const provider = providers.get();
  if (!provider) throw new AppError(502, 'payment_provider_error', 'Payments are not configured');
  const bookingIds = [...new Set(input.bookingIds.map((id) => id.toLowerCase()))].sort();

  const prepared = await db.transaction(async (tx): Promise<PreparedCheckout> => {
    const rows = await tx
      .select({
        id: bookings.id,
        showtimeId: bookings.showtimeId,
        userId: bookings.userId,
        status: bookings.status,
        expiresAt: bookings.expiresAt,
        checkoutSessionId: bookings.checkoutSessionId,
        live: sql<boolean>`${liveHold}`,
        started: sql<boolean>`${showtimes.startsAt} <= now()`,
        priceCents: showtimes.priceCents,
        startsAt: showtimes.startsAt,
        movie: movies.title,
        row: seats.row,
        number: seats.number,
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
    if (rows.some((r) => r.userId !== input.userId)) {
      throw forbidden('You can only pay for your own seat holds');
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
    await tx
      .update(bookings)
      .set({ expiresAt: session!.expiresAt, checkoutSessionId: session!.id, updatedAt: sql`now()` })
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
      })),
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
    return { sessionId: prepared.sessionId, url: created.url };
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

/** The provider failed: the session is closed and the holds get back their own expiry. */
async function undoCheckout(deps: PaymentDeps, prepared: PreparedCheckout) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(checkoutSessions)
      .set({ status: 'cancelled' })
      .where(and(eq(checkoutSessions.id, prepared.sessionId), eq(checkoutSessions.status, 'open')));
    for (const b of prepared.previous) {
      await tx
        .update(bookings)
        .set({ expiresAt: b.expiresAt, checkoutSessionId: b.checkoutSessionId, updatedAt: sql`now()` })
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
