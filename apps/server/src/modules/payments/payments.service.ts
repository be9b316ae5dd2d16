import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import {
  PAYMENT_WINDOW_MINUTES,
  seatLabel,
  type CheckoutResponse,
  type LookupResponse,
  type SeatStatus,
} from '@cinema/contract';
import type { Config } from '../../config.ts';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from '../../db/database.ts';
import {
  auditoriums,
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  movies,
  paymentEvents,
  paymentRefunds,
  seats,
  showtimes,
  type CheckoutStatus,
  type PaymentProviderName,
} from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { selectTickets } from '../tickets/tickets.service.ts';
import { createLocalProvider } from './providers/local.ts';
import { WebhookSignatureError, type PaymentProvider } from './providers/provider.ts';
import { createStripeProvider } from './providers/stripe.ts';

const CURRENCY = 'usd';
// Stripe wants expires_at at least 30 minutes after ITS creation of the session, which happens a moment after
// our clock started: the window gets one extra minute so the provider never rejects it.
const PAYMENT_WINDOW_SECONDS = PAYMENT_WINDOW_MINUTES * 60 + 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "Row C Seat 7" (rows are lettered in the hall: 1 → A, 27 → AA): the contract's seat label for line items. */
export const seatName = (seat: { row: number; number: number }): string =>
  seatLabel(seat, { style: 'line-item' });

// ---------------------------------------------------------------------------------------------------------------
// Providers

const providerCache = new WeakMap<Config, Map<PaymentProviderName, PaymentProvider | null>>();

function buildProvider(config: Config, name: PaymentProviderName): PaymentProvider | null {
  if (name === 'local') return createLocalProvider(config.publicUrl);
  const { secretKey, webhookSecret, apiUrl } = config.stripe;
  if (!secretKey || !webhookSecret) return null;
  return createStripeProvider({ secretKey, webhookSecret, apiUrl, publicUrl: config.publicUrl });
}

/** The provider of that name (default: the configured one); null when it is not configured here. */
export function paymentProvider(
  app: FastifyInstance,
  name: PaymentProviderName = app.config.paymentProvider,
): PaymentProvider | null {
  let cache = providerCache.get(app.config);
  if (!cache) providerCache.set(app.config, (cache = new Map()));
  if (!cache.has(name)) cache.set(name, buildProvider(app.config, name));
  return cache.get(name) ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Broadcasting

interface SeatChange {
  showtimeId: string;
  seatId: string;
  status: SeatStatus;
}

/** Sends one `seats_update` per showtime; called only after the change has committed. */
function broadcastSeatChanges(app: FastifyInstance, changes: SeatChange[]) {
  const byShowtime = new Map<string, { id: string; status: SeatStatus }[]>();
  for (const c of changes) {
    const list = byShowtime.get(c.showtimeId) ?? [];
    list.push({ id: c.seatId, status: c.status });
    byShowtime.set(c.showtimeId, list);
  }
  for (const [showtimeId, list] of byShowtime) app.realtime.broadcastSeats({ showtimeId, seats: list });
}

/** The status seat maps show now for these seats (another customer's live booking, or free). */
async function currentSeatStatuses(
  db: Queryable,
  items: { showtimeId: string; seatId: string }[],
): Promise<SeatChange[]> {
  if (items.length === 0) return [];
  const live = await db
    .select({ showtimeId: bookings.showtimeId, seatId: bookings.seatId, status: bookings.status })
    .from(bookings)
    .where(
      and(
        inArray(
          bookings.seatId,
          items.map((i) => i.seatId),
        ),
        or(
          eq(bookings.status, 'CONFIRMED'),
          and(eq(bookings.status, 'HELD'), sql`${bookings.expiresAt} > now()`),
        ),
      ),
    );
  return items.map((i) => {
    const b = live.find((l) => l.showtimeId === i.showtimeId && l.seatId === i.seatId);
    const status: SeatStatus = b?.status === 'CONFIRMED' ? 'CONFIRMED' : b ? 'HELD' : 'AVAILABLE';
    return { ...i, status };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Checkout

interface PreparedCheckout {
  sessionId: string;
  expiresAt: Date;
  lines: { name: string; amountCents: number }[];
  /** The holds as they were, to put back if the provider cannot start the payment. */
  previous: { id: string; showtimeId: string; expiresAt: Date | null; checkoutSessionId: string | null }[];
}

/** Extending or restoring holds changes what their holders' seat maps say, without any seats_update. */
function dropSeatMaps(app: FastifyInstance, prepared: PreparedCheckout) {
  for (const id of new Set(prepared.previous.map((b) => b.showtimeId))) void app.seatMaps.invalidate(id);
}

/**
 * Starts paying for the caller's own live holds: in one short transaction prices them from their showtimes,
 * extends them to the payment window and records the session; then (no transaction open) asks the provider.
 */
export async function startCheckout(
  app: FastifyInstance,
  input: { userId: string; email: string; bookingIds: string[] },
): Promise<CheckoutResponse> {
  const provider = paymentProvider(app);
  if (!provider) throw new AppError(502, 'payment_provider_error', 'Payments are not configured');
  const bookingIds = [...new Set(input.bookingIds.map((id) => id.toLowerCase()))].sort();

  const prepared = await app.database.db.transaction(async (tx): Promise<PreparedCheckout> => {
    const rows = await tx
      .select({
        id: bookings.id,
        showtimeId: bookings.showtimeId,
        userId: bookings.userId,
        status: bookings.status,
        expiresAt: bookings.expiresAt,
        checkoutSessionId: bookings.checkoutSessionId,
        live: sql<boolean>`${bookings.status} = 'HELD' and ${bookings.expiresAt} > now()`,
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
  dropSeatMaps(app, prepared);

  try {
    const created = await provider.createSession({
      sessionId: prepared.sessionId,
      currency: CURRENCY,
      lines: prepared.lines,
      expiresAt: prepared.expiresAt,
      customerEmail: input.email,
    });
    await app.database.db
      .update(checkoutSessions)
      .set({ providerSessionId: created.providerSessionId, url: created.url })
      .where(eq(checkoutSessions.id, prepared.sessionId));
    return { sessionId: prepared.sessionId, url: created.url };
  } catch (err) {
    app.log.error({ err, sessionId: prepared.sessionId }, 'payment provider could not create a session');
    await undoCheckout(app, prepared);
    throw new AppError(
      502,
      'payment_provider_error',
      'The payment provider could not start the checkout. Please try again.',
    );
  }
}

/** The provider failed: the session is closed and the holds get back their own expiry. */
async function undoCheckout(app: FastifyInstance, prepared: PreparedCheckout) {
  await app.database.db.transaction(async (tx) => {
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
  dropSeatMaps(app, prepared);
}

// ---------------------------------------------------------------------------------------------------------------
// Fulfilment

export interface FulfilmentOutcome {
  /** False when the session had already been fulfilled: this call changed nothing. */
  fulfilled: boolean;
  confirmed: number;
  refunded: number;
}

/**
 * THE fulfilment path (webhook, local Pay button, success-page lookup): marks a paid session paid exactly once
 * and confirms its bookings; a seat lost after its hold expired is refunded after the transaction commits.
 */
export async function fulfilCheckout(
  app: FastifyInstance,
  sessionId: string,
  payment: { paymentId: string | null },
): Promise<FulfilmentOutcome> {
  const outcome = await app.database.db.transaction(async (tx) => {
    // The guard: only one caller moves the session to paid; every other call (a replay, the lookup racing the
    // webhook) finds nothing to update. An expired or cancelled session was still paid for if the provider
    // says so, so its seats are confirmed when free and refunded otherwise.
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
          inArray(checkoutSessions.status, ['open', 'expired', 'cancelled']),
        ),
      )
      .returning({ id: checkoutSessions.id });
    if (!session) return null;

    const items = await tx
      .select({
        id: checkoutSessionBookings.id,
        bookingId: checkoutSessionBookings.bookingId,
        priceCents: checkoutSessionBookings.priceCents,
      })
      .from(checkoutSessionBookings)
      .where(eq(checkoutSessionBookings.sessionId, sessionId));
    const bookingIds = items.flatMap((i) => (i.bookingId ? [i.bookingId] : []));
    // Locked in seat order, as the hold retires expired rows, so the two cannot deadlock each other.
    const locked =
      bookingIds.length === 0
        ? []
        : await tx
            .select({
              id: bookings.id,
              status: bookings.status,
              showtimeId: bookings.showtimeId,
              seatId: bookings.seatId,
            })
            .from(bookings)
            .where(inArray(bookings.id, bookingIds))
            .orderBy(asc(bookings.seatId), asc(bookings.id))
            .for('update');
    const byId = new Map(locked.map((b) => [b.id, b]));

    const confirmed: (typeof locked)[number][] = [];
    const lost: { item: (typeof items)[number]; booking?: (typeof locked)[number] }[] = [];
    for (const item of items) {
      const booking = item.bookingId ? byId.get(item.bookingId) : undefined;
      const confirm = (q: Queryable) =>
        q
          .update(bookings)
          .set({
            status: 'CONFIRMED',
            confirmedAt: sql`now()`,
            checkoutSessionId: sessionId,
            updatedAt: sql`now()`,
          })
          .where(eq(bookings.id, booking!.id));
      if (booking?.status === 'HELD') {
        // Live or past its expiry but not yet swept: the row still occupies the seat, so it is ours.
        await confirm(tx);
        confirmed.push(booking);
      } else if (booking?.status === 'EXPIRED' || booking?.status === 'CANCELLED') {
        // The seat is free only if nobody took it meanwhile: the partial unique index decides, inside a
        // savepoint so a conflict does not abort the whole transaction.
        try {
          await tx.transaction(async (sp) => {
            await confirm(sp);
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
    return { confirmed, lost, changes: await currentSeatStatuses(tx, lostSeats) };
  });

  if (outcome) {
    broadcastSeatChanges(app, [
      ...outcome.confirmed.map((c) => ({
        showtimeId: c.showtimeId,
        seatId: c.seatId,
        status: 'CONFIRMED' as const,
      })),
      ...outcome.changes,
    ]);
  }
  await sendPendingRefunds(app, sessionId);
  return {
    fulfilled: outcome !== null,
    confirmed: outcome?.confirmed.length ?? 0,
    refunded: outcome?.lost.length ?? 0,
  };
}

/**
 * Sends the session's recorded refunds to its provider, each with its own idempotency key, outside any
 * transaction; a failure stays pending and is retried by the next webhook or lookup of the session.
 */
export async function sendPendingRefunds(app: FastifyInstance, sessionId: string): Promise<void> {
  const db = app.database.db;
  const pending = await db
    .select({
      id: paymentRefunds.id,
      amountCents: paymentRefunds.amountCents,
      provider: checkoutSessions.provider,
      paymentId: checkoutSessions.providerPaymentId,
    })
    .from(paymentRefunds)
    .innerJoin(checkoutSessions, eq(checkoutSessions.id, paymentRefunds.sessionId))
    .where(and(eq(paymentRefunds.sessionId, sessionId), eq(paymentRefunds.status, 'pending')))
    .orderBy(asc(paymentRefunds.createdAt));
  for (const refund of pending) {
    const provider = paymentProvider(app, refund.provider);
    if (!provider) continue;
    try {
      const { refundId } = await provider.refund({
        paymentId: refund.paymentId,
        amountCents: refund.amountCents,
        idempotencyKey: refund.id,
      });
      await db
        .update(paymentRefunds)
        .set({ status: 'succeeded', providerRefundId: refundId, refundedAt: sql`now()` })
        .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, 'pending')));
    } catch (err) {
      app.log.error({ err, refundId: refund.id, sessionId }, 'refund failed; it will be retried');
    }
  }
}

/**
 * Closes an open session that will not be paid (expired at the provider, or cancelled by the customer) and
 * releases its holds; returns false when the session was not open.
 */
export async function releaseCheckout(
  app: FastifyInstance,
  sessionId: string,
  status: 'expired' | 'cancelled',
): Promise<boolean> {
  const freed = await app.database.db.transaction(async (tx) => {
    const [session] = await tx
      .update(checkoutSessions)
      .set({ status })
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.status, 'open')))
      .returning({ id: checkoutSessions.id });
    if (!session) return null;
    // Only holds still attached to this session: one that moved on to a newer checkout stays held.
    return tx
      .update(bookings)
      .set({ status: status === 'cancelled' ? 'CANCELLED' : 'EXPIRED', updatedAt: sql`now()` })
      .where(and(eq(bookings.checkoutSessionId, sessionId), eq(bookings.status, 'HELD')))
      .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId });
  });
  if (!freed) return false;
  broadcastSeatChanges(
    app,
    freed.map((f) => ({ ...f, status: 'AVAILABLE' as const })),
  );
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Webhooks

/**
 * Verifies and applies a provider webhook. A bad signature is a 400 with nothing changed; an event id seen
 * before is a no-op. The id is recorded after the work, so an event that failed half-way is redone on retry
 * (fulfilment and release are idempotent themselves).
 */
export async function handlePaymentWebhook(
  app: FastifyInstance,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ duplicate: boolean }> {
  const provider = paymentProvider(app);
  if (!provider) throw badRequest('Payments are not configured');
  let event;
  try {
    event = provider.parseWebhook(rawBody, headers);
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      throw new AppError(400, 'bad_signature', `Webhook signature verification failed: ${err.message}`);
    }
    throw err;
  }
  const db = app.database.db;
  const [seen] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id))
    .limit(1);
  if (seen) return { duplicate: true };

  if (event.action !== 'ignored') {
    const [session] = await db
      .select({ id: checkoutSessions.id })
      .from(checkoutSessions)
      .where(
        and(
          eq(checkoutSessions.providerSessionId, event.providerSessionId),
          eq(checkoutSessions.provider, provider.name),
        ),
      )
      .limit(1);
    // A session that is not ours (another app on the same account) is acknowledged and left alone.
    if (session && event.action === 'paid') {
      await fulfilCheckout(app, session.id, { paymentId: event.paymentId });
    } else if (session && event.action === 'expired') {
      await releaseCheckout(app, session.id, 'expired');
    }
  }
  await db.insert(paymentEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
  return { duplicate: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Lookup (the success page)

const lookupStatus: Record<CheckoutStatus, LookupResponse['status']> = {
  open: 'pending',
  paid: 'paid',
  partially_refunded: 'paid',
  refunded: 'refunded',
  expired: 'expired',
  cancelled: 'cancelled',
};

async function findSession(db: Queryable, idOrProviderId: string) {
  const [session] = await db
    .select()
    .from(checkoutSessions)
    .where(
      UUID.test(idOrProviderId)
        ? or(eq(checkoutSessions.id, idOrProviderId), eq(checkoutSessions.providerSessionId, idOrProviderId))
        : eq(checkoutSessions.providerSessionId, idOrProviderId),
    )
    .limit(1);
  return session ?? null;
}

/**
 * What the success page shows for a session (our id or the provider's): asks the provider first while the
 * session is open, fulfilling it when paid (the customer can arrive before the webhook). Owner only: 404 else.
 */
export async function lookupCheckout(
  app: FastifyInstance,
  userId: string,
  idOrProviderId: string,
): Promise<LookupResponse> {
  const db = app.database.db;
  let session = await findSession(db, idOrProviderId);
  if (!session || session.userId !== userId) throw notFound('Checkout session not found');

  if (session.status === 'open') {
    const provider = paymentProvider(app, session.provider);
    if (provider && session.providerSessionId) {
      try {
        const state = await provider.getSessionState(session.providerSessionId);
        if (state.state === 'paid') await fulfilCheckout(app, session.id, { paymentId: state.paymentId });
        else if (state.state === 'expired') await releaseCheckout(app, session.id, 'expired');
      } catch (err) {
        // The page keeps polling and the webhook still comes: report pending rather than fail.
        app.log.warn({ err, sessionId: session.id }, 'could not ask the payment provider about a session');
      }
    }
    // The local provider has no one to tell us it expired: its window passing is the expiry.
    if (session.provider === 'local' && session.expiresAt.getTime() <= Date.now()) {
      await releaseCheckout(app, session.id, 'expired');
    }
    session = (await findSession(db, session.id))!;
  } else {
    await sendPendingRefunds(app, session.id);
  }

  const tickets = await selectTickets(
    db,
    sql`${bookings.id} in (select ${checkoutSessionBookings.bookingId} from ${checkoutSessionBookings}
      where ${checkoutSessionBookings.sessionId} = ${session.id} and ${checkoutSessionBookings.result} = 'confirmed')`,
    [asc(showtimes.startsAt), asc(seats.row), asc(seats.number)],
  );
  const refundedSeats = await db
    .select({ row: checkoutSessionBookings.seatRow, number: checkoutSessionBookings.seatNumber })
    .from(checkoutSessionBookings)
    .where(
      and(eq(checkoutSessionBookings.sessionId, session.id), eq(checkoutSessionBookings.result, 'refunded')),
    )
    .orderBy(asc(checkoutSessionBookings.seatRow), asc(checkoutSessionBookings.seatNumber));

  return { sessionId: session.id, status: lookupStatus[session.status], tickets, refundedSeats };
}

// ---------------------------------------------------------------------------------------------------------------
// The local provider's hosted page

export interface CheckoutSummary {
  id: string;
  provider: PaymentProviderName;
  status: CheckoutStatus;
  expiresAt: Date;
  amountCents: number;
  currency: string;
  items: {
    movie: string;
    auditorium: string;
    startsAt: Date;
    row: number;
    number: number;
    priceCents: number;
  }[];
}

/** A session with what it pays for (movie, hall, time, seats, prices), for the local payment page. */
export async function getCheckoutSummary(db: Queryable, sessionId: string): Promise<CheckoutSummary | null> {
  if (!UUID.test(sessionId)) return null;
  const [session] = await db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, sessionId))
    .limit(1);
  if (!session) return null;
  const items = await db
    .select({
      movie: movies.title,
      auditorium: auditoriums.name,
      startsAt: showtimes.startsAt,
      row: seats.row,
      number: seats.number,
      priceCents: checkoutSessionBookings.priceCents,
    })
    .from(checkoutSessionBookings)
    .innerJoin(bookings, eq(bookings.id, checkoutSessionBookings.bookingId))
    .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(auditoriums, eq(auditoriums.id, showtimes.auditoriumId))
    .innerJoin(seats, eq(seats.id, bookings.seatId))
    .where(eq(checkoutSessionBookings.sessionId, sessionId))
    .orderBy(asc(showtimes.startsAt), asc(seats.row), asc(seats.number));
  return {
    id: session.id,
    provider: session.provider,
    status: session.status,
    expiresAt: session.expiresAt,
    amountCents: session.amountCents,
    currency: session.currency,
    items,
  };
}

export type LocalPaymentResult = 'paid' | 'expired' | 'cancelled' | 'not_found';

/**
 * The local page's Pay button: "charges" an open local session inside its window and fulfils it through the
 * same function a webhook uses. Paying twice is harmless; a closed or expired session is not charged.
 */
export async function payLocalCheckout(app: FastifyInstance, sessionId: string): Promise<LocalPaymentResult> {
  const session = await getCheckoutSummary(app.database.db, sessionId);
  if (!session || session.provider !== 'local') return 'not_found';
  if (session.status !== 'open') return closedResult(session.status);
  if (session.expiresAt.getTime() <= Date.now()) {
    await releaseCheckout(app, sessionId, 'expired');
    return 'expired';
  }
  await fulfilCheckout(app, sessionId, { paymentId: `local_pay_${randomUUID()}` });
  return 'paid';
}

// What a closed session means for the page: paid (even if partly refunded), or not payable any more.
const closedResult = (status: Exclude<CheckoutStatus, 'open'>): LocalPaymentResult =>
  status === 'cancelled' || status === 'expired' ? status : 'paid';

/** The local page's Cancel link: closes an open local session and releases its holds. */
export async function cancelLocalCheckout(
  app: FastifyInstance,
  sessionId: string,
): Promise<LocalPaymentResult> {
  const session = await getCheckoutSummary(app.database.db, sessionId);
  if (!session || session.provider !== 'local') return 'not_found';
  if (session.status !== 'open') return closedResult(session.status);
  if (await releaseCheckout(app, sessionId, 'cancelled')) return 'cancelled';
  // Something else closed it first (a payment in another tab): report what it became.
  const after = await getCheckoutSummary(app.database.db, sessionId);
  return after && after.status !== 'open' ? closedResult(after.status) : 'cancelled';
}
