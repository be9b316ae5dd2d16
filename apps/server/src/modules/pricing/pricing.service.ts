import { asc, eq, sql } from 'drizzle-orm';
import {
  certificateOf,
  minAgeOf,
  RATING_SYSTEMS,
  sameRating,
  type CreatePriceCardBody,
  type CreateTicketTypeBody,
  type PriceCard,
  type RatingSystem,
  type SeatType,
  type ShowtimePrices,
  type TicketType,
  type UpdateTicketTypeBody,
} from '@cinema/contract';
import {
  isStillReferenced,
  PG_FOREIGN_KEY_VIOLATION,
  PG_UNIQUE_VIOLATION,
  pgErrorCode,
  runTogether,
  type Db,
  type Queryable,
} from '../../db/database.ts';
import { intArray, textArray } from '../../db/arrays.ts';
import { movies, priceCardPrices, priceCards, showtimes, ticketTypes } from '../../db/schema/index.ts';
import { badRequest, conflict, conflictSaying, notFound } from '../../errors.ts';
import { namingSeats, type SeatPlace } from '../../i18n.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { cardValidAt, lowestPrice, priceOnCard, type CardRules } from './price-table.ts';

// ---------------------------------------------------------------------------------------------------------------
// Ticket types

const typeColumns = {
  id: ticketTypes.id,
  name: ticketTypes.name,
  active: ticketTypes.active,
  position: ticketTypes.position,
  excludedRatings: ticketTypes.excludedRatings,
};

const presentType = <T extends { excludedRatings: string[] | string }>(row: T) => ({
  ...row,
  excludedRatings: textArray(row.excludedRatings),
});

/** Every ticket type, in the order customers see them (the first active one is the default). */
export async function listTicketTypes(
  db: Queryable,
): Promise<(TicketType & { excludedRatings: string[] })[]> {
  const rows = await db
    .select(typeColumns)
    .from(ticketTypes)
    .orderBy(asc(ticketTypes.position), asc(ticketTypes.name));
  return rows.map(presentType);
}

/** Excluded ratings as certificates of the cinema's system, each once; 400 naming the system's when one is not. */
export function certificatesOf(ratingSystem: RatingSystem, ratings: readonly string[]): string[] {
  const codes = ratings.map((r) => certificateOf(ratingSystem, r)?.code);
  if (codes.some((c) => c === undefined)) {
    const certificates = RATING_SYSTEMS[ratingSystem].map((c) => c.code).join(', ');
    throw badRequest(`Excluded ratings must be ${ratingSystem} certificates: ${certificates}`);
  }
  return [...new Set(codes as string[])];
}

/** Adds a ticket type after the others; a name in use (any letter case) is a 409. */
export async function createTicketType(
  db: Db,
  actor: Actor,
  input: CreateTicketTypeBody,
  ratingSystem: RatingSystem = 'MPAA',
): Promise<TicketType> {
  const excludedRatings = certificatesOf(ratingSystem, input.excludedRatings ?? []);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(ticketTypes)
        .values({
          name: input.name,
          excludedRatings,
          position: sql`(select coalesce(max(${ticketTypes.position}) + 1, 0) from ${ticketTypes})`,
        })
        .returning(typeColumns)
        .then((rows) => rows.map(presentType));
      await recordAudit(tx, actor, {
        action: 'ticket_type.create',
        subjectType: 'ticket_type',
        subjectId: row!.id,
        after: row,
      });
      return row!;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION)
      throw conflict(`A ticket type "${input.name}" already exists`);
    throw err;
  }
}

/** Renames, moves or (de)activates a ticket type; an inactive type is no longer sold. */
export async function updateTicketType(
  db: Db,
  actor: Actor,
  id: string,
  body: UpdateTicketTypeBody,
  ratingSystem: RatingSystem = 'MPAA',
): Promise<TicketType> {
  if (Object.values(body).every((v) => v === undefined))
    throw badRequest('Nothing to change: give a name, active or position');
  const input = body.excludedRatings
    ? { ...body, excludedRatings: certificatesOf(ratingSystem, body.excludedRatings) }
    : body;
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select(typeColumns)
        .from(ticketTypes)
        .where(eq(ticketTypes.id, id))
        .for('update')
        .then((rows) => rows.map(presentType));
      if (!before) throw notFound('Ticket type not found');
      const [row] = await tx
        .update(ticketTypes)
        .set(input)
        .where(eq(ticketTypes.id, id))
        .returning(typeColumns)
        .then((rows) => rows.map(presentType));
      await recordAudit(tx, actor, {
        action: 'ticket_type.update',
        subjectType: 'ticket_type',
        subjectId: id,
        before,
        after: row,
      });
      return row!;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION)
      throw conflict(`A ticket type "${input.name}" already exists`);
    throw err;
  }
}

/** Deletes a ticket type no price card uses (409 in_use otherwise: deactivate it instead). */
export async function deleteTicketType(db: Db, actor: Actor, id: string): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(ticketTypes)
        .where(eq(ticketTypes.id, id))
        .returning(typeColumns)
        .then((rows) => rows.map(presentType));
      if (!gone) throw notFound('Ticket type not found');
      await recordAudit(tx, actor, {
        action: 'ticket_type.delete',
        subjectType: 'ticket_type',
        subjectId: id,
        before: gone,
      });
    });
  } catch (err) {
    if (isStillReferenced(err)) {
      throw conflict('Price cards use this ticket type: deactivate it instead', 'in_use');
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Price cards

/** Every price card with its prices, by name. */
export async function loadPriceCards(db: Queryable): Promise<CardRules[]> {
  const [cards, prices] = await runTogether(db, [
    () => db.select().from(priceCards).orderBy(asc(priceCards.name)),
    () => db.select().from(priceCardPrices),
  ] as const);
  return cards.map((c) => ({
    id: c.id,
    name: c.name,
    weekdays: intArray(c.weekdays),
    from: c.startsAt,
    to: c.endsAt,
    attribute: c.attribute,
    prices: prices
      .filter((p) => p.priceCardId === c.id)
      .map((p) => ({ ticketTypeId: p.ticketTypeId, seatType: p.seatType, priceCents: p.priceCents })),
  }));
}

export const presentCard = (c: CardRules): PriceCard => ({ ...c });

/** Adds a price card with its prices; a name in use is a 409, an unknown ticket type a 404. */
export async function createPriceCard(db: Db, actor: Actor, input: CreatePriceCardBody): Promise<PriceCard> {
  try {
    const id = await db.transaction(async (tx) => {
      const [card] = await tx
        .insert(priceCards)
        .values({
          name: input.name,
          weekdays: input.weekdays,
          startsAt: input.from,
          endsAt: input.to,
          attribute: input.attribute ?? null,
        })
        .returning({ id: priceCards.id });
      await tx.insert(priceCardPrices).values(input.prices.map((p) => ({ ...p, priceCardId: card!.id })));
      await recordAudit(tx, actor, {
        action: 'price_card.create',
        subjectType: 'price_card',
        subjectId: card!.id,
        after: input,
      });
      return card!.id;
    });
    return presentCard((await loadPriceCards(db)).find((c) => c.id === id)!);
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === PG_UNIQUE_VIOLATION) throw conflict(`A price card "${input.name}" already exists`);
    if (code === PG_FOREIGN_KEY_VIOLATION) throw notFound('A ticket type of these prices does not exist');
    throw err;
  }
}

/**
 * Replaces a price card's name, days, window and prices (the body is the whole card, as when creating it). Open
 * checkouts keep the prices they were started with; seats held or sold later use the new ones.
 */
export async function updatePriceCard(
  db: Db,
  actor: Actor,
  id: string,
  input: CreatePriceCardBody,
): Promise<PriceCard> {
  try {
    await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: priceCards.id })
        .from(priceCards)
        .where(eq(priceCards.id, id))
        .for('update');
      if (!locked) throw notFound('Price card not found');
      const before = (await loadPriceCards(tx)).find((c) => c.id === id);
      await tx
        .update(priceCards)
        .set({
          name: input.name,
          weekdays: input.weekdays,
          startsAt: input.from,
          endsAt: input.to,
          attribute: input.attribute ?? null,
        })
        .where(eq(priceCards.id, id));
      await tx.delete(priceCardPrices).where(eq(priceCardPrices.priceCardId, id));
      await tx.insert(priceCardPrices).values(input.prices.map((p) => ({ ...p, priceCardId: id })));
      await recordAudit(tx, actor, {
        action: 'price_card.update',
        subjectType: 'price_card',
        subjectId: id,
        before,
        after: input,
      });
    });
    return presentCard((await loadPriceCards(db)).find((c) => c.id === id)!);
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === PG_UNIQUE_VIOLATION) throw conflict(`A price card "${input.name}" already exists`);
    if (code === PG_FOREIGN_KEY_VIOLATION) throw notFound('A ticket type of these prices does not exist');
    throw err;
  }
}

/** Deletes a price card no showtime has chosen (409 in_use otherwise). */
export async function deletePriceCard(db: Db, actor: Actor, id: string): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const before = (await loadPriceCards(tx)).find((c) => c.id === id);
      const gone = await tx.delete(priceCards).where(eq(priceCards.id, id)).returning({ id: priceCards.id });
      if (gone.length === 0) throw notFound('Price card not found');
      await recordAudit(tx, actor, {
        action: 'price_card.delete',
        subjectType: 'price_card',
        subjectId: id,
        before,
      });
    });
  } catch (err) {
    if (isStillReferenced(err)) {
      throw conflict('Showtimes use this price card: choose another card for them first', 'in_use');
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Prices of a showtime

/** A showtime as pricing needs it. */
export interface PricedShowtime {
  priceCardId: string | null;
  startsAt: Date;
  priceCents: number;
  /** Its attributes: a card for one of them (3D, IMAX) comes before the cards for any showtime. */
  attributes: readonly string[] | string;
}

/** A ticket type as pricing reads it: with the certificates it is not sold for. */
export interface SoldType {
  id: string;
  name: string;
  excludedRatings: string[];
}

/** How one showtime is priced: its card (or none), the ticket types sold and the price of each on each seat type. */
export interface ShowtimePricing {
  card: CardRules | null;
  ticketTypes: SoldType[];
  defaultTicketTypeId: string | null;
  /** The price of a ticket type on a seat type; null when the type is not sold there for this showtime. */
  priceOf(ticketTypeId: string, seatType: SeatType): number | null;
  /**
   * The type a seat of this seat type sells as when none is chosen: the default one where it is sold on it, else the
   * first type that is (the default again when none is: refused as not sold there).
   */
  defaultTypeFor(seatType: SeatType): string | null;
  /** What old clients see as the showtime's price: the lowest price of the default ticket type. */
  displayPriceCents: number;
}

const RECENT_MS = 5000;
const recentBooks = new WeakMap<Queryable, Map<string, { at: number; book: Promise<PriceBook> }>>();

/**
 * The cinema's prices, read once for a request: price cards and the active ticket types. A showtime is priced by its
 * chosen card, else by the card valid at its start (CINEMA_TIME_ZONE), else every seat at its own price.
 */
export class PriceBook {
  constructor(
    private readonly cards: CardRules[],
    private readonly types: SoldType[],
    private readonly timeZone: string,
  ) {}

  /**
   * The prices as they were at most a few seconds ago, for what only shows a price (seat maps, which reload on every
   * change of a seat): reading the cards for each would cost three queries a reload. Checkout reads them afresh.
   */
  static recent(db: Queryable, timeZone: string): Promise<PriceBook> {
    const key = `${timeZone}`;
    let perDb = recentBooks.get(db);
    if (!perDb) recentBooks.set(db, (perDb = new Map()));
    const kept = perDb.get(key);
    if (kept && kept.at > Date.now() - RECENT_MS) return kept.book;
    const book = PriceBook.load(db, timeZone);
    perDb.set(key, { at: Date.now(), book });
    book.catch(() => perDb.delete(key));
    return book;
  }

  static async load(db: Queryable, timeZone: string): Promise<PriceBook> {
    const [cards, types] = await runTogether(db, [
      () => loadPriceCards(db),
      () => listTicketTypes(db),
    ] as const);
    return new PriceBook(
      cards,
      types.filter((t) => t.active).map(({ id, name, excludedRatings }) => ({ id, name, excludedRatings })),
      timeZone,
    );
  }

  /**
   * The card valid at a showtime's start that was not chosen for it: one for an attribute it has (3D, IMAX) before
   * one for any showtime; a card for an attribute never prices a showtime without it.
   */
  private cardFor(showtime: PricedShowtime): CardRules | null {
    const attributes = textArray(showtime.attributes);
    const forItsAttributes = this.cards.filter(
      (c) => c.attribute !== null && attributes.includes(c.attribute),
    );
    return (
      cardValidAt(forItsAttributes, showtime.startsAt, this.timeZone) ??
      cardValidAt(
        this.cards.filter((c) => c.attribute === null),
        showtime.startsAt,
        this.timeZone,
      )
    );
  }

  forShowtime(showtime: PricedShowtime): ShowtimePricing {
    const card = showtime.priceCardId
      ? (this.cards.find((c) => c.id === showtime.priceCardId) ?? null)
      : this.cardFor(showtime);
    if (!card) {
      return {
        card: null,
        ticketTypes: this.types,
        defaultTicketTypeId: this.types[0]?.id ?? null,
        priceOf: () => showtime.priceCents,
        defaultTypeFor: () => this.types[0]?.id ?? null,
        displayPriceCents: showtime.priceCents,
      };
    }
    const sold = this.types.filter((t) => card.prices.some((p) => p.ticketTypeId === t.id));
    const defaultTicketTypeId = sold[0]?.id ?? null;
    const priceOf = (ticketTypeId: string, seatType: SeatType) =>
      sold.some((t) => t.id === ticketTypeId) ? priceOnCard(card, ticketTypeId, seatType) : null;
    return {
      card,
      ticketTypes: sold,
      defaultTicketTypeId,
      priceOf,
      defaultTypeFor: (seatType) =>
        sold.find((t) => priceOf(t.id, seatType) !== null)?.id ?? defaultTicketTypeId,
      displayPriceCents: lowestPrice(card, defaultTicketTypeId) ?? showtime.priceCents,
    };
  }
}

/** Whether a ticket type is not sold for a film of this rating (a Child ticket for an R film). */
const excludes = (type: Pick<SoldType, 'excludedRatings'>, rating: string | null) =>
  rating !== null && type.excludedRatings.some((r) => sameRating(r, rating));

/**
 * 409 ticket_type_not_for_rating when a line's ticket type excludes its film's certificate (DESIGN §7.5): called
 * wherever a line's type is resolved (online checkout and its quote, counter sales, exchanges).
 */
export function refuseTypeNotForRating(
  pricing: Pick<ShowtimePricing, 'ticketTypes'>,
  ticketTypeId: string | null,
  film: { title: string; rating: string | null },
  seat: SeatPlace,
  extra: Record<string, unknown>,
): void {
  const type = pricing.ticketTypes.find((t) => t.id === ticketTypeId);
  if (!type || !excludes(type, film.rating)) return;
  const values = { type: type.name, title: film.title, rating: film.rating };
  throw conflictSaying(
    namingSeats('ticket_type_not_for_rating', [seat], values),
    'ticket_type_not_for_rating',
    extra,
  );
}

const SEAT_TYPES_PRICED: SeatType[] = ['STANDARD', 'PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION'];

/**
 * `GET /api/showtimes/{id}/prices`: every ticket type's price on every seat type for one showtime (the types that
 * exclude its film's certificate left out) and the film's age rule; 404 unknown.
 */
export async function showtimePrices(
  db: Queryable,
  { timeZone, currency, ratingSystem }: { timeZone: string; currency: string; ratingSystem: RatingSystem },
  showtimeId: string,
): Promise<ShowtimePrices> {
  const [show] = await db
    .select({
      priceCardId: showtimes.priceCardId,
      startsAt: showtimes.startsAt,
      priceCents: showtimes.priceCents,
      attributes: showtimes.attributes,
      rating: movies.rating,
    })
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .where(eq(showtimes.id, showtimeId))
    .limit(1);
  if (!show) throw notFound('Showtime not found');
  const pricing = (await PriceBook.load(db, timeZone)).forShowtime(show);
  const offered = pricing.ticketTypes.filter((t) => !excludes(t, show.rating));
  const minAge = minAgeOf(ratingSystem, show.rating);
  return {
    showtimeId,
    currency,
    priceCard: pricing.card && { id: pricing.card.id, name: pricing.card.name },
    ticketTypes: offered.map(({ id, name }) => ({ id, name })),
    defaultTicketTypeId: offered.some((t) => t.id === pricing.defaultTicketTypeId)
      ? pricing.defaultTicketTypeId
      : (offered[0]?.id ?? null),
    ageRule: minAge && show.rating ? { rating: show.rating, minAge } : null,
    prices: offered.flatMap((t) =>
      SEAT_TYPES_PRICED.flatMap((seatType) => {
        const priceCents = pricing.priceOf(t.id, seatType);
        return priceCents === null ? [] : [{ ticketTypeId: t.id, seatType, priceCents }];
      }),
    ),
  };
}
