import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import {
  bpToPercent,
  PAYMENT_WINDOW_MINUTES,
  seatLabel,
  type CheckoutResponse,
  type Fulfilment,
  type GiftCardPurchase,
  type GiftCardUse,
  type OrderLine,
  type ProductLine,
  type ProductOrder,
  type Quote,
} from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable, type Tx } from '../../db/database.ts';
import { liveHold } from '../../db/live-booking.ts';
import { statusIs } from '../../db/status-is.ts';
import {
  bookings,
  orderLines,
  orders,
  halls,
  movies,
  seats,
  showtimes,
  type PaymentProviderName,
} from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, conflictSaying } from '../../errors.ts';
import {
  feeLineValues,
  giftCardLineValues,
  presentFeeLine,
  presentGiftCardLine,
  priceGiftCards,
  priceLines,
  specFields,
  ticketLineValues,
  type PricedFeeLine,
  type PricedLine,
  type TicketToPrice,
} from '../orders/price-lines.ts';
import { releasePromoUses, reservePromo } from '../pricing/promo.service.ts';
import { writeProductLines, type PricedProductLine } from '../concessions/price-products.ts';
import { releaseOrderStock } from '../concessions/stock.ts';
import { fulfilCheckout } from './fulfilment.service.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { namingSeats, seatText, textsIn, type Language } from '../../i18n.ts';
import { quoteCards, releaseCards, reserveCards } from '../gift-cards/gift-cards.service.ts';

const sum = (uses: readonly GiftCardUse[]) => uses.reduce((total, u) => total + u.amountCents, 0);

// Stripe wants expires_at at least 30 minutes after ITS creation of the session, which happens a moment after
// our clock started: the window gets one extra minute so the provider never rejects it.
const PAYMENT_WINDOW_SECONDS = PAYMENT_WINDOW_MINUTES * 60 + 60;

/** "Row C Seat 7" (rows are lettered in the hall: 1 → A, 27 → AA): the contract's seat label for line items. */
export const seatName = (seat: { row: number; number: number; rowLabel?: string | null }): string =>
  seatLabel(seat, { style: 'line-item' });

/** A checkout session closed before it was paid, as its provider knows it. */
export interface ClosedCheckout {
  id: string;
  provider: PaymentProviderName;
  providerSessionId: string | null;
}

/**
 * The checkout's holds get its payment window once, never past the hold's life: HOLD_MINUTES + 30 minutes from the
 * hold, however often checkout starts; and the checkout they belong to.
 */
export async function extendHoldsForCheckout(
  tx: Tx,
  bookingIds: string[],
  session: { id: string; expiresAt: Date },
  holdMinutes: number,
): Promise<void> {
  const lifeSeconds = (holdMinutes + PAYMENT_WINDOW_MINUTES) * 60;
  await tx
    .update(bookings)
    .set({
      expiresAt: sql`case when ${bookings.extendedAt} is null
          then least(${session.expiresAt.toISOString()}::timestamptz, ${bookings.createdAt} + make_interval(secs => ${lifeSeconds}))
          else ${bookings.expiresAt} end`,
      extendedAt: sql`coalesce(${bookings.extendedAt}, now())`,
      checkoutSessionId: session.id,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(bookings.id, bookingIds), statusIs(bookings.status, 'HELD')));
}

/** The open checkout sessions that pay for any of these bookings: those a new checkout of them closes. */
async function openCheckoutsOf(q: Queryable, bookingIds: string[]): Promise<string[]> {
  if (bookingIds.length === 0) return [];
  // The checkouts of these holds first, by their lines, then those still open by their keys: a join lets the planner
  // walk every checkout session (keyed-plans.test.ts).
  const lines = await q
    .selectDistinct({ id: orderLines.orderId })
    .from(orderLines)
    .where(inArray(orderLines.bookingId, bookingIds));
  if (lines.length === 0) return [];
  const open = await q
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        inArray(
          orders.id,
          lines.map((l) => l.id),
        ),
        statusIs(orders.status, 'OPEN'),
      ),
    );
  return open.map((r) => r.id);
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
  status: 'SUPERSEDED' | 'CANCELLED',
): Promise<ClosedCheckout[]> {
  const open = await openCheckoutsOf(tx, bookingIds);
  if (open.length === 0) return [];
  const closed = await tx
    .update(orders)
    .set({ status })
    .where(and(inArray(orders.id, open), statusIs(orders.status, 'OPEN')))
    .returning({
      id: orders.id,
      provider: orders.provider,
      providerSessionId: orders.providerSessionId,
    });
  // Their promo code uses, the stock of their food and drink and what their gift cards reserved go back: they will
  // never be paid.
  const ids = closed.map((c) => c.id);
  await releasePromoUses(tx, ids);
  await releaseOrderStock(tx, ids);
  await releaseCards(tx, ids);
  return closed;
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
  ref: string;
  expiresAt: Date;
  /** Nothing to pay: no provider involved. */
  free: boolean;
  totalCents: number;
  discountCents: number;
  /** What the gift cards reserved, and what is left for the provider. */
  giftCards: GiftCardUse[];
  dueCents: number;
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

/** What the customer asks to pay for: their holds, each seat's ticket type, a promo code, food and drink. */
export interface CheckoutInput {
  userId: string;
  bookingIds: string[];
  tickets?: { bookingId: string; ticketTypeId: string }[];
  promoCode?: string;
  products?: ProductOrder[];
  fulfilment?: Fulfilment;
  /** Gift cards to pay with first, in this order. */
  redeem?: { code: string }[];
  /** Gift cards to buy. */
  giftCards?: GiftCardPurchase[];
}

/**
 * The gift cards an order buys, priced, and the order's totals with them (they take no promo code); 400 when cards
 * would pay for cards (a card's expiry would be moved on by buying a new one with it).
 */
function withGiftCards<T extends { subtotalCents: number; totalCents: number }>(
  priced: T,
  input: CheckoutInput,
  currency: string,
) {
  const gifts = priceGiftCards(input.giftCards ?? [], currency);
  if (gifts.length > 0 && input.redeem?.length) throw badRequest('Gift cards cannot pay for gift cards');
  const giftsCents = gifts.reduce((total, g) => total + g.amountCents, 0);
  return {
    gifts,
    subtotalCents: priced.subtotalCents + giftsCents,
    totalCents: priced.totalCents + giftsCents,
  };
}

/**
 * The caller's bookings with what pricing and the checks need (locked for update inside checkout's transaction), in
 * seat order; refused as checkout refuses them: 404 unknown or someone else's, 409 paid, hold expired, showtime
 * started.
 */
async function readHolds(q: Queryable, userId: string, bookingIds: string[], lock: boolean) {
  if (bookingIds.length === 0) return [];
  const query = q
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
      showtimePriceCents: showtimes.priceCents,
      priceCardId: showtimes.priceCardId,
      showtimeAttributes: showtimes.attributes,
      startsAt: showtimes.startsAt,
      endsAt: showtimes.endsAt,
      movieId: movies.id,
      movie: movies.title,
      movieRating: movies.rating,
      hall: halls.name,
      row: seats.row,
      number: seats.number,
      rowLabel: seats.rowLabel,
      seatType: seats.type,
    })
    .from(bookings)
    .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .innerJoin(seats, eq(seats.id, bookings.seatId))
    .where(inArray(bookings.id, bookingIds))
    // Seat order, as the hold and fulfilment lock, so concurrent writers cannot deadlock.
    .orderBy(asc(bookings.seatId), asc(bookings.id));
  const rows = lock ? await query.for('update', { of: bookings }) : await query;

  if (rows.length !== bookingIds.length) {
    const found = new Set(rows.map((r) => r.id));
    throw new AppError(404, 'not_found', 'Some of these bookings do not exist', {
      bookingIds: bookingIds.filter((id) => !found.has(id)),
    });
  }
  // Someone else's booking is answered like one that does not exist: nobody learns which ids are real.
  const foreign = rows.filter((r) => r.userId !== userId);
  if (foreign.length > 0) {
    throw new AppError(404, 'not_found', 'Some of these bookings do not exist', {
      bookingIds: foreign.map((r) => r.id),
    });
  }
  const paid = rows.filter((r) => r.status === 'CONFIRMED');
  if (paid.length > 0) {
    throw conflictSaying(namingSeats('already_paid', paid), 'already_paid', {
      bookingIds: paid.map((r) => r.id),
    });
  }
  const gone = rows.filter((r) => !r.live);
  if (gone.length > 0) {
    throw conflictSaying(namingSeats('hold_expired_seats', gone), 'hold_expired', {
      bookingIds: gone.map((r) => r.id),
    });
  }
  if (rows.some((r) => r.started)) throw conflict('This showtime has already started', 'showtime_started');
  return rows;
}

type HoldRow = Awaited<ReturnType<typeof readHolds>>[number];

/** A held seat to price as a ticket. */
type HoldTicket = TicketToPrice & { hold: HoldRow };
type PricedHold = PricedLine<HoldTicket>;

/**
 * Prices holds as the checkout charges them (priceLines: ticket types, price cards, the promo code). Ticket types
 * chosen for bookings not in the checkout are a 400.
 */
async function priceHolds(
  q: Queryable,
  deps: PaymentDeps,
  rows: HoldRow[],
  input: CheckoutInput,
  stock: boolean,
) {
  const chosen = new Map(
    (input.tickets ?? []).map((t) => [t.bookingId.toLowerCase(), t.ticketTypeId.toLowerCase()]),
  );
  const unknownChoices = [...chosen.keys()].filter((id) => !rows.some((r) => r.id === id));
  if (unknownChoices.length > 0) {
    throw badRequest('A ticket type was given for a booking that is not in this checkout', {
      bookingIds: unknownChoices,
    });
  }
  return priceLines<HoldTicket>(q, deps.config, {
    keysAre: 'bookingIds',
    fees: 'ONLINE',
    products: input.products ?? [],
    checkStock: stock,
    tickets: rows.map((hold) => ({
      key: hold.id,
      hold,
      showtime: {
        id: hold.showtimeId,
        movieId: hold.movieId,
        film: { title: hold.movie, rating: hold.movieRating },
        priceCardId: hold.priceCardId,
        startsAt: hold.startsAt,
        priceCents: hold.showtimePriceCents,
        attributes: hold.showtimeAttributes,
      },
      seat: { row: hold.row, number: hold.number, rowLabel: hold.rowLabel, type: hold.seatType },
      ticketTypeId: chosen.get(hold.id) ?? null,
    })),
    ...(input.promoCode && {
      promo: {
        code: input.promoCode,
        userId: input.userId,
        // A quote: the open checkouts of these holds that the checkout would close give their uses back (checkout
        // has closed them already).
        replacing: await openCheckoutsOf(
          q,
          rows.map((r) => r.id),
        ),
      },
    }),
  });
}

/** The order customers read an order's seats in: by showtime, then row and number. */
const byShowAndSeat = (a: PricedHold, b: PricedHold) =>
  a.ticket.hold.startsAt.getTime() - b.ticket.hold.startsAt.getTime() ||
  a.ticket.hold.row - b.ticket.hold.row ||
  a.ticket.hold.number - b.ticket.hold.number;

/** An order's line as the customer reads it. */
export function presentPricedLine(l: PricedHold, status: OrderLine['status'] = 'pending'): OrderLine {
  const { hold } = l.ticket;
  return {
    bookingId: hold.id,
    movie: hold.movie,
    startsAt: hold.startsAt.toISOString(),
    auditorium: hold.hall,
    seat: { row: hold.row, number: hold.number, rowLabel: hold.rowLabel, type: hold.seatType },
    ticketType: l.ticketTypeName,
    listPriceCents: l.listPriceCents,
    discountCents: l.discountCents,
    priceCents: l.priceCents,
    status,
    kind: l.kind,
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    taxRateBp: l.taxRateBp,
    taxCents: l.taxCents,
    ...specFields(`${hold.movie} — ${seatName(hold)}`, l),
  };
}

/** A booking fee as a provider's line item names it: "Booking fee (2 × $1.50)" is told by its quantity. */
export const feeName = (f: Pick<PricedFeeLine, 'per' | 'quantity'>, language: Language) =>
  textsIn(language)(f.per === 'TICKET' ? 'fees.perTicket' : 'fees.perOrder', { count: f.quantity });

/** A product line as the customer reads it. */
export function presentProductLine(
  l: PricedProductLine,
  status: ProductLine['status'] = 'pending',
): ProductLine {
  return {
    productId: l.product.id,
    name: l.product.name,
    options: l.choices.map((c) => c.name),
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    discountCents: l.discountCents,
    priceCents: l.priceCents,
    ageRestricted: l.product.ageRestricted,
    status,
    taxRateBp: l.taxRateBp,
    taxRate: bpToPercent(l.taxRateBp),
    taxCents: l.taxCents,
  };
}

/**
 * Where the food and drink goes: collected at the counter unless a seat of this order is asked for, at a time from
 * 30 minutes before its showtime starts to its end (DESIGN §7.2). A fulfilment without products is a 400.
 */
function fulfilmentOf(input: CheckoutInput, rows: HoldRow[]) {
  const f = input.fulfilment;
  if (!input.products?.length) {
    if (f) throw badRequest('Choose something from the menu to have it brought or collected');
    return null;
  }
  if (!f || f.kind === 'PICKUP')
    return { fulfilment: 'PICKUP' as const, deliverBookingId: null, deliverAt: null };
  const hold = rows.find((r) => r.id === f.bookingId.toLowerCase());
  if (!hold) throw badRequest('Food can only be brought to a seat of this order');
  const at = new Date(f.at);
  if (at.getTime() < hold.startsAt.getTime() - 30 * 60_000 || at.getTime() > hold.endsAt.getTime()) {
    throw badRequest('Choose a delivery time from 30 minutes before the showtime to its end');
  }
  return { fulfilment: 'SEAT' as const, deliverBookingId: hold.id, deliverAt: at };
}

/** `POST /api/pay/quote`: what the checkout would charge for these holds, and whether the promo code applies. */
export async function quoteCheckout(deps: PaymentDeps, input: CheckoutInput): Promise<Quote> {
  const bookingIds = [...new Set(input.bookingIds.map((id) => id.toLowerCase()))].sort();
  const rows = await readHolds(deps.db, input.userId, bookingIds, false);
  fulfilmentOf(input, rows);
  const priced = await priceHolds(deps.db, deps, rows, input, true);
  const all = withGiftCards(priced, input, deps.config.currency);
  const giftCards = input.redeem?.length
    ? await quoteCards(
        deps.db,
        input.redeem.map((r) => r.code),
        deps.config.currency,
        all.totalCents,
      )
    : null;
  const now = new Date();
  return {
    lines: [
      ...[...priced.lines].sort(byShowAndSeat).map((l) => presentPricedLine(l)),
      ...priced.fees.map((f) => presentFeeLine(f, 'pending', now)),
      ...all.gifts.map((g) => presentGiftCardLine(g, 'pending', now)),
    ],
    ...(priced.products.length > 0 && { products: priced.products.map((l) => presentProductLine(l)) }),
    subtotalCents: all.subtotalCents,
    discountCents: priced.discountCents,
    totalCents: all.totalCents,
    taxCents: priced.taxCents,
    taxMode: priced.taxMode,
    currency: deps.config.currency,
    ...(priced.promo && {
      promo: priced.promo.applied
        ? { code: priced.promo.promo.code, applied: true }
        : { code: input.promoCode!.trim().toUpperCase(), applied: false, reason: priced.promo.reason },
    }),
    ...(giftCards && { giftCards, dueCents: all.totalCents - sum(giftCards) }),
  };
}

// Unambiguous characters for people to read out: no 0/O, 1/I/L, 5/S, 8/B.
const REF_ALPHABET = '2346789ACDEFGHJKMNPQRTUVWXYZ';

/** A short order reference for people ("K7Q-4MX2"). */
export function newOrderRef(): string {
  const bytes = randomBytes(7);
  const chars = [...bytes].map((b) => REF_ALPHABET[b % REF_ALPHABET.length]).join('');
  return `${chars.slice(0, 3)}-${chars.slice(3)}`;
}

/**
 * Starts paying for the caller's own live holds: in one short transaction closes their earlier open sessions,
 * prices them (ticket types, price cards, the promo code, whose use is counted under its cap), extends them to the
 * payment window (once in a hold's life, never past HOLD_MINUTES + 30 minutes from the hold) and records the session
 * as an order; then (no transaction open) asks the provider. An order that costs nothing needs no provider.
 */
export async function startCheckout(
  deps: PaymentDeps,
  input: CheckoutInput & { email: string; language?: Language },
): Promise<CheckoutResponse> {
  const { db, providers, log, config } = deps;
  const configured = providers.get();
  if (!configured) throw new AppError(502, 'payment_provider_error', 'Payments are not configured');
  const bookingIds = [...new Set(input.bookingIds.map((id) => id.toLowerCase()))].sort();

  const prepared = await db.transaction(async (tx): Promise<PreparedCheckout> => {
    // Before the bookings are locked: a session is locked before its bookings, by fulfilment too.
    const superseded = await closeOpenCheckouts(tx, bookingIds, 'SUPERSEDED');
    const rows = await readHolds(tx, input.userId, bookingIds, true);
    const delivery = fulfilmentOf(input, rows);
    const ticketsPriced = await priceHolds(tx, deps, rows, input, false);
    if (ticketsPriced.promo && !ticketsPriced.promo.applied)
      throw new AppError(409, 'promo_unavailable', ticketsPriced.promo.reason);
    const { gifts, ...totals } = withGiftCards(ticketsPriced, input, config.currency);
    const priced = { ...ticketsPriced, ...totals };
    const session = await insertSession(tx, {
      userId: input.userId,
      provider: priced.totalCents === 0 ? 'none' : configured.name,
      amountCents: priced.totalCents,
      subtotalCents: priced.subtotalCents,
      discountCents: priced.discountCents,
      taxMode: priced.taxMode,
      promoCode: priced.promo?.applied ? priced.promo.promo.code : null,
      currency: config.currency,
      ...delivery,
    });
    if (priced.promo?.applied) await reservePromo(tx, priced.promo.promo, input.userId, session.id);
    if (priced.lines.length > 0) {
      await tx
        .insert(orderLines)
        .values(priced.lines.map((l) => ticketLineValues(l, session.id, l.ticket.hold.id)));
    }
    if (priced.fees.length > 0)
      await tx.insert(orderLines).values(priced.fees.map((f) => feeLineValues(f, session.id)));
    // Stock is taken now, while the order is open (given back if it closes unpaid).
    await writeProductLines(tx, session.id, priced.products);
    if (bookingIds.length > 0) await extendHoldsForCheckout(tx, bookingIds, session, config.holdMinutes);
    if (gifts.length > 0)
      await tx.insert(orderLines).values(gifts.map((g) => giftCardLineValues(g, session.id)));
    // Gift cards reserve their part now (released if the order closes unpaid); paid wholly by them, no provider.
    const giftCards = input.redeem?.length
      ? await reserveCards(tx, {
          orderId: session.id,
          codes: input.redeem.map((r) => r.code),
          currency: config.currency,
          totalCents: priced.totalCents,
          userId: input.userId,
        })
      : [];
    const dueCents = priced.totalCents - sum(giftCards);
    if (dueCents === 0 && priced.totalCents > 0)
      await tx.update(orders).set({ provider: 'none' }).where(eq(orders.id, session.id));

    return {
      sessionId: session.id,
      ref: session.ref,
      expiresAt: session.expiresAt,
      free: dueCents === 0,
      totalCents: priced.totalCents,
      discountCents: priced.discountCents,
      giftCards,
      dueCents,
      // With gift cards, the provider charges what is left as one line (it takes no negative line).
      lines:
        giftCards.length > 0
          ? [
              {
                name: textsIn(input.language ?? 'en')('giftCards.providerLine', { ref: session.ref }),
                amountCents: dueCents,
              },
            ]
          : [
              ...[...priced.lines].sort(byShowAndSeat).map((l) => ({
                name: `${l.ticket.hold.movie} — ${seatText(l.ticket.hold, input.language ?? 'en', 'lineItem')}${l.ticketTypeId ? ` · ${l.ticketTypeName}` : ''}`,
                amountCents: l.priceCents,
              })),
              ...priced.products.map((l) => ({
                name: l.quantity > 1 ? `${l.quantity} × ${l.description}` : l.description,
                amountCents: l.priceCents,
              })),
              ...priced.fees.map((f) => ({
                name: feeName(f, input.language ?? 'en'),
                amountCents: f.priceCents,
              })),
              ...gifts.map((g) => ({
                name: `${textsIn(input.language ?? 'en')('giftCards.line')}${g.recipientEmail ? ` — ${g.recipientEmail}` : ''}`,
                amountCents: g.amountCents,
              })),
            ],
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
  const order = {
    orderRef: prepared.ref,
    totalCents: prepared.totalCents,
    discountCents: prepared.discountCents,
    ...(prepared.giftCards.length > 0 && { giftCards: prepared.giftCards, dueCents: prepared.dueCents }),
  };

  if (prepared.free) {
    // Nothing to pay (a 100% code, or gift cards for all of it): the order is complete at once, through the one
    // fulfilment path.
    publishClosedCheckouts(deps, prepared.superseded);
    await fulfilCheckout(deps, prepared.sessionId, { paymentId: null });
    const url = `${config.clientUrl}/checkout/success?session_id=${prepared.sessionId}`;
    return { sessionId: prepared.sessionId, url, ...order };
  }
  const provider = configured;
  let created: Awaited<ReturnType<typeof provider.createSession>>;
  try {
    created = await provider.createSession({
      sessionId: prepared.sessionId,
      currency: config.currency.toLowerCase(),
      lines: prepared.lines,
      expiresAt: prepared.expiresAt,
      customerEmail: input.email,
      ...(input.language && { language: input.language }),
    });
  } catch (err) {
    log.error({ err, sessionId: prepared.sessionId }, 'payment provider could not create a session');
    await undoCheckout(deps, prepared);
    throw new AppError(
      502,
      'payment_provider_error',
      'The payment provider could not start the checkout. Please try again.',
    );
  }
  try {
    await db
      .update(orders)
      .set({ providerSessionId: created.providerSessionId, url: created.url })
      .where(eq(orders.id, prepared.sessionId));
  } catch (err) {
    // Our database, not the provider, failed (gone, or its disk full): the error handler's 503. The checkout is
    // undone if it can be; if not, the sweeper closes it once its window is over.
    await undoCheckout(deps, prepared).catch(() => undefined);
    throw err;
  }
  publishClosedCheckouts(deps, prepared.superseded);
  // A client that opens Stripe's page itself (Stripe.js) needs Stripe's own session id; the lookup takes both.
  const sessionId = provider.name === 'stripe' ? created.providerSessionId : prepared.sessionId;
  return { sessionId, url: created.url, ...order };
}

/** Records a checkout session (an order) with a fresh reference; a reference already taken is drawn again. */
export async function insertSession(
  tx: Tx,
  values: {
    userId: string;
    provider: PaymentProviderName;
    amountCents: number;
    subtotalCents: number;
    discountCents: number;
    promoCode: string | null;
    /** The cinema's currency (CURRENCY), stored lower-case as Stripe writes it. */
    currency: string;
  } & Partial<
    Pick<
      typeof orders.$inferInsert,
      | 'id'
      | 'status'
      | 'taxMode'
      | 'paidAt'
      | 'paymentMethod'
      | 'soldBy'
      | 'customerEmail'
      | 'customerName'
      | 'guestTokenHash'
      | 'fulfilment'
      | 'deliverBookingId'
      | 'deliverAt'
    >
  >,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await tx.transaction(async (sp) => {
        const [session] = await sp
          .insert(orders)
          .values({
            ...values,
            currency: values.currency.toLowerCase(),
            ref: newOrderRef(),
            expiresAt: sql`now() + make_interval(secs => ${PAYMENT_WINDOW_SECONDS})`,
          })
          .returning({
            id: orders.id,
            expiresAt: orders.expiresAt,
            ref: orders.ref,
          });
        return { ...session!, ref: session!.ref! };
      });
    } catch (err) {
      if (attempt >= 5 || pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
    }
  }
}

/**
 * The provider failed: the session is closed, the sessions it replaced are open again (nothing closed them at
 * the provider yet) and the holds get back their own expiry.
 */
async function undoCheckout(deps: PaymentDeps, prepared: PreparedCheckout) {
  await deps.db.transaction(async (tx) => {
    await tx
      .update(orders)
      .set({ status: 'CANCELLED' })
      .where(and(eq(orders.id, prepared.sessionId), eq(orders.status, 'OPEN')));
    await releasePromoUses(tx, [prepared.sessionId]);
    await releaseOrderStock(tx, [prepared.sessionId]);
    await releaseCards(tx, [prepared.sessionId]);
    if (prepared.superseded.length > 0) {
      await tx
        .update(orders)
        .set({ status: 'OPEN' })
        .where(
          and(
            inArray(
              orders.id,
              prepared.superseded.map((c) => c.id),
            ),
            eq(orders.status, 'SUPERSEDED'),
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
            statusIs(bookings.status, 'HELD'),
            eq(bookings.checkoutSessionId, prepared.sessionId),
          ),
        );
    }
  });
  seatMapsStale(deps, prepared);
}
