import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  MAX_LIVE_HOLDS_PER_SHOWTIME,
  type HoldResponse,
  type SeatMap,
  type SeatMapSeat,
  type SeatStatus,
  type SeatType,
  type RuleCell,
  type RuleRow,
} from '@cinema/contract';
import { accessibleSeatsReleased, singleSeatGapVerdict, type BestAvailableResponse } from '@cinema/contract';
import type { Deps } from '../../deps.ts';
import {
  PG_DEADLOCK,
  PG_FOREIGN_KEY_VIOLATION,
  PG_SERIALIZATION_FAILURE,
  pgErrorCode,
  runTogether,
  type Db,
  type Queryable,
} from '../../db/database.ts';
import { textArray } from '../../db/arrays.ts';
import { liveBooking, liveHoldByKey } from '../../db/live-booking.ts';
import { bookings, halls, movies, seats, showtimes } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, conflictSaying, notFound } from '../../errors.ts';
import { seatText, textsIn, type Language } from '../../i18n.ts';
import { publishSeatChanges } from '../../events.ts';
import { PriceBook } from '../pricing/pricing.service.ts';
import { closeOpenCheckouts, publishClosedCheckouts } from '../payments/checkout.service.ts';
import type { BestSeats } from './best-seats.ts';
import { holdsTogether, poolOf, type HoldCall } from './hold-batches.ts';

/** One seat of a stored seat map, with the live booking that occupies it (if any), whoever holds it. */
export interface SnapshotSeat {
  id: string;
  row: number;
  number: number;
  col: number;
  rowLabel: string;
  type: SeatType;
  pairId: string | null;
  status: SeatStatus;
  holderId: string | null;
  bookingId: string | null;
  expiresAt: Date | null;
}

/** A showtime's seat map for every caller at once (the seat-map cache keeps these). */
export interface SeatMapSnapshot {
  showtime: SeatMap['showtime'];
  /** The hall's grid: its width and its rows' labels, front to back. */
  layout: NonNullable<SeatMap['layout']>;
  seats: SnapshotSeat[];
  /** The database clock at the read: holds expire by that clock, not by this process's. */
  readAt: Date;
}

/**
 * Reads a showtime's seat map with every live booking; 404 when the showtime does not exist. Its price is the lowest
 * price of the default ticket type (in the cinema's time zone, for the price card valid at its start).
 */
export async function loadSeatMap(
  db: Queryable,
  showtimeId: string,
  timeZone: string,
  accessibleReleaseMinutes = 60,
): Promise<SeatMapSnapshot> {
  // Both queries run at once (one after the other in a transaction, which is one connection); the seat query finds
  // the hall through the showtime itself.
  const showQuery = db
    .select({
      id: showtimes.id,
      startsAt: showtimes.startsAt,
      priceCents: showtimes.priceCents,
      priceCardId: showtimes.priceCardId,
      attributes: showtimes.attributes,
      accessibleReleasedAt: showtimes.accessibleReleasedAt,
      hallId: showtimes.hallId,
      hall: halls.name,
      cols: halls.cols,
      rowLabels: halls.rowLabels,
      movieId: movies.id,
      movieTitle: movies.title,
      readAt: sql`now()`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(showtimes)
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .where(eq(showtimes.id, showtimeId))
    .limit(1);
  const seatQuery = db
    .select({
      id: seats.id,
      row: seats.row,
      number: seats.number,
      col: seats.col,
      rowLabel: seats.rowLabel,
      type: seats.type,
      pairId: seats.pairId,
      blocked: seats.blocked,
      bookingId: bookings.id,
      bookingStatus: bookings.status,
      bookingUserId: bookings.userId,
      expiresAt: bookings.expiresAt,
    })
    .from(seats)
    .leftJoin(bookings, and(eq(bookings.seatId, seats.id), eq(bookings.showtimeId, showtimeId), liveBooking))
    .where(
      and(
        eq(
          seats.hallId,
          sql`(select ${showtimes.hallId} from ${showtimes} where ${showtimes.id} = ${showtimeId})`,
        ),
        // A seat taken out of the layout is kept only for the bookings in its past.
        isNull(seats.retiredAt),
      ),
    )
    .orderBy(asc(seats.row), asc(seats.number));
  const [showRows, seatRows] = await runTogether(db, [() => showQuery, () => seatQuery] as const);
  const show = showRows[0];
  if (!show) throw notFound('Showtime not found');
  const book = await PriceBook.recent(db, timeZone);

  return {
    showtime: {
      id: show.id,
      startsAt: show.startsAt.toISOString(),
      priceCents: book.forShowtime(show).displayPriceCents,
      auditoriumId: show.hallId,
      auditorium: show.hall,
      attributes: textArray(show.attributes),
      movie: { id: show.movieId, title: show.movieTitle },
      accessibleReleaseAt: accessibleReleaseAt(
        show.startsAt,
        accessibleReleaseMinutes,
        show.accessibleReleasedAt,
      ),
    },
    layout: { cols: show.cols, rows: textArray(show.rowLabels).map((label) => ({ label })) },
    seats: seatRows.map((s): SnapshotSeat => {
      // A sold or held seat shows as such even if it was blocked since; a free blocked seat is never for sale.
      const status: SeatStatus =
        s.bookingStatus === 'CONFIRMED'
          ? 'CONFIRMED'
          : s.bookingStatus === 'HELD'
            ? 'HELD'
            : s.blocked
              ? 'BLOCKED'
              : 'AVAILABLE';
      const held = status === 'HELD';
      return {
        id: s.id,
        row: s.row,
        number: s.number,
        col: s.col,
        rowLabel: s.rowLabel,
        type: s.type,
        pairId: s.pairId,
        status,
        holderId: held ? s.bookingUserId : null,
        bookingId: held ? s.bookingId : null,
        expiresAt: held ? s.expiresAt : null,
      };
    }),
    readAt: show.readAt,
  };
}

/** One seat as a caller sees it: their own live holds carry heldByMe, the booking id and its expiry. */
export function presentSeat(seat: SnapshotSeat, userId: string | null): SeatMapSeat {
  const shown: SeatMapSeat = {
    id: seat.id,
    row: seat.row,
    number: seat.number,
    status: seat.status,
    type: seat.type,
    col: seat.col,
    rowLabel: seat.rowLabel,
  };
  if (seat.pairId) shown.pairId = seat.pairId;
  if (seat.status === 'HELD' && userId && seat.holderId === userId) {
    shown.heldByMe = true;
    shown.bookingId = seat.bookingId!;
    shown.expiresAt = seat.expiresAt!.toISOString();
  }
  return shown;
}

/**
 * When a showtime's wheelchair spaces and companion seats sell as standard seats by the clock (DESIGN §7.5): `minutes`
 * before its start, or when staff released them, whichever comes first (hold_seats.sql decides the same).
 */
export function accessibleReleaseAt(startsAt: Date, minutes: number, releasedAt: Date | null): string {
  const byClock = startsAt.getTime() - minutes * 60_000;
  return new Date(releasedAt ? Math.min(byClock, releasedAt.getTime()) : byClock).toISOString();
}

/** Whether a seat map's wheelchair spaces and companion seats sell as standard seats now (accessibleSeatsReleased). */
export function accessibleReleasedIn(snapshot: SeatMapSnapshot, now = Date.now()): boolean {
  return accessibleSeatsReleased(
    snapshot.showtime.accessibleReleaseAt,
    snapshot.seats.map((s) => ({ type: s.type, free: s.status === 'AVAILABLE' })),
    now,
  );
}

/** The seat map of a showtime: every seat of its hall with its status; the caller's own holds are marked. */
export async function getSeatMap(
  db: Queryable,
  showtimeId: string,
  userId: string | null,
  timeZone: string,
  rules: NonNullable<SeatMap['rules']> = { singleSeatGap: 'warn' },
  accessibleReleaseMinutes = 60,
): Promise<SeatMap> {
  const snapshot = await loadSeatMap(db, showtimeId, timeZone, accessibleReleaseMinutes);
  return {
    showtime: snapshot.showtime,
    layout: snapshot.layout,
    rules,
    seats: snapshot.seats.map((s) => presentSeat(s, userId)),
  };
}

/** What the seat services use: the services' usual dependencies, the current seat maps and best available's view. */
export interface SeatingDeps extends Deps {
  seatMaps: { snapshot(showtimeId: string): Promise<SeatMapSnapshot> };
  bestSeats: Pick<BestSeats, 'choose'>;
}

/** A seat map as the selection rules read it: each row of the grid, seats where they stand, gaps between. */
export function ruleRows(snapshot: SeatMapSnapshot): RuleRow[] {
  const rows: RuleCell[][] = snapshot.layout.rows.map(() =>
    Array.from({ length: snapshot.layout.cols }, (): RuleCell => ({ kind: 'GAP' })),
  );
  for (const seat of snapshot.seats) {
    rows[seat.row - 1]![seat.col] = {
      kind: 'SEAT',
      id: seat.id,
      type: seat.type,
      ...(seat.pairId && { pairId: seat.pairId }),
      state: seat.status === 'AVAILABLE' ? 'free' : 'taken',
    };
  }
  return rows;
}

/** SEAT_GAP_RULE=enforce: 409 single_seat_gap when the selection would leave one seat alone that it could avoid. */
async function refuseSingleSeatGaps(deps: SeatingDeps, showtimeId: string, seatIds: string[]) {
  const snapshot = await deps.seatMaps.snapshot(showtimeId);
  const verdict = singleSeatGapVerdict(ruleRows(snapshot), seatIds);
  if (verdict.ok) return;
  const stranded = verdict.stranded.map((id) => snapshot.seats.find((s) => s.id === id)!);
  const say = (language: Language) => {
    const t = textsIn(language);
    const seats = stranded.map((seat) => seatText(seat, language)).join(t('seat.and'));
    return t('errors.single_seat_gap', { seats });
  };
  throw conflictSaying(say, 'single_seat_gap', {
    seatIds: verdict.stranded,
    alternative: verdict.alternative,
  });
}

const RETRYABLE = new Set([PG_SERIALIZATION_FAILURE, PG_DEADLOCK]);

/** Runs a transaction again (a few times, with jitter) when the database aborts it as a deadlock victim. */
export async function withRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || err instanceof AppError || !RETRYABLE.has(pgErrorCode(err) ?? '')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** What hold_seats answers in its `outcome` column (src/db/functions/hold_seats.sql). */
export type HoldOutcome =
  | 'held'
  | 'showtime_not_found'
  | 'showtime_started'
  | 'seats_not_in_hall'
  | 'seat_blocked'
  | 'companion_needs_wheelchair'
  | 'sofa_pair'
  | 'hold_limit'
  | 'seat_unavailable';

/** A refusal that names seats. */
type SeatsRefusal =
  'seats_not_in_hall' | 'seat_blocked' | 'companion_needs_wheelchair' | 'sofa_pair' | 'seat_unavailable';

export interface HoldRow {
  outcome: HoldOutcome;
  id: string | null;
  seatId: string | null;
  expiresAt: Date | null;
  detail: string | null;
}

/** A hold_seats answer, read: the bookings it made, or the one reason it refused. */
export type HoldResult =
  | { outcome: 'held'; bookings: { id: string; seatId: string }[]; expiresAt: Date }
  | { outcome: 'showtime_not_found' | 'showtime_started' }
  | { outcome: SeatsRefusal; seatIds: string[] }
  | { outcome: 'hold_limit'; scope: HoldLimitScope; held: number; max: number };

/** Which limit a refused hold ran into: per showtime, per customer across showtimes, or per client address. */
export type HoldLimitScope = 'showtime' | 'customer' | 'address';

/** Reads hold_seats' rows: one row per booking when held, else one row naming the refusal. */
export function readHoldRows(rows: HoldRow[]): HoldResult {
  const first = rows[0];
  if (!first) throw new Error('hold_seats answered no row');
  switch (first.outcome) {
    case 'held':
      return {
        outcome: 'held',
        bookings: rows.map((r) => ({ id: r.id!, seatId: r.seatId! })),
        expiresAt: first.expiresAt!,
      };
    case 'showtime_not_found':
    case 'showtime_started':
      return { outcome: first.outcome };
    case 'seats_not_in_hall':
    case 'seat_blocked':
    case 'companion_needs_wheelchair':
    case 'sofa_pair':
    case 'seat_unavailable':
      return { outcome: first.outcome, seatIds: JSON.parse(first.detail ?? '[]') as string[] };
    case 'hold_limit': {
      const { scope, held, max } = JSON.parse(first.detail!) as {
        scope: HoldLimitScope;
        held: number;
        max: number;
      };
      return { outcome: 'hold_limit', scope, held, max };
    }
    default:
      throw new Error(`hold_seats answered an unknown outcome: ${String(first.outcome satisfies never)}`);
  }
}

/** The error for a hold that hold_seats refused. */
function holdRefusal(refusal: Exclude<HoldResult, { outcome: 'held' }>): AppError {
  switch (refusal.outcome) {
    case 'showtime_not_found':
      return notFound('Showtime not found');
    case 'showtime_started':
      return conflict('This showtime has already started', 'showtime_started');
    case 'seats_not_in_hall':
      return badRequest('Some seats are not in this showtime’s hall', { seatIds: refusal.seatIds });
    case 'seat_blocked':
      return conflict('Some seats are not for sale online', 'seat_blocked', { seatIds: refusal.seatIds });
    case 'companion_needs_wheelchair':
      return conflict(
        'A companion seat can only be held together with the wheelchair space it belongs to',
        'companion_needs_wheelchair',
        { seatIds: refusal.seatIds },
      );
    case 'sofa_pair':
      return conflict('A sofa is sold whole: hold both of its seats together', 'sofa_pair', {
        seatIds: refusal.seatIds,
      });
    case 'hold_limit': {
      const { scope, held, max } = refusal;
      const message = {
        showtime: `You can hold at most ${max} seats for a showtime (you hold ${held})`,
        customer: `You can hold at most ${max} seats at a time (you hold ${held}). Pay for or cancel some first.`,
        address: `Too many seats are held from your network right now (at most ${max}). Please try again once some are paid for or released.`,
      }[scope];
      // The address's count is other people's business: only the customer's own counts are told.
      return conflict(message, 'hold_limit', scope === 'address' ? { scope } : { scope, held, max });
    }
    case 'seat_unavailable':
      return conflict('Some seats are no longer available', 'seat_unavailable', { seatIds: refusal.seatIds });
  }
}

// The hold itself is one statement (the hold_seats function): one round trip, planned once per connection. Built
// once per database handle, since building a query costs more than running it. On PostgreSQL the holds of one turn
// of the event loop go out together (hold-batches.ts, decision 062), each still a transaction of its own.
const holdStatements = new WeakMap<Db, (call: HoldCall) => Promise<HoldRow[]>>();

/** The hold of a database handle: made at its first hold, then kept. */
function holdFor(db: Db): (call: HoldCall) => Promise<HoldRow[]> {
  let hold = holdStatements.get(db);
  if (hold) return hold;
  const statement = prepareHold(db);
  const alone = (call: HoldCall) => statement.execute(call) as Promise<HoldRow[]>;
  const pool = poolOf(db);
  hold = pool ? holdsTogether(pool, alone) : alone;
  holdStatements.set(db, hold);
  return hold;
}

function prepareHold(db: Db) {
  return db
    .select({
      outcome: sql<HoldOutcome>`outcome`,
      id: sql<string | null>`booking_id`,
      seatId: sql<string | null>`held_seat_id`,
      expiresAt: sql`held_until`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v))),
      detail: sql<string | null>`detail`,
    })
    .from(
      sql`hold_seats(${sql.placeholder('showtimeId')}::uuid, ${sql.placeholder('userId')}::uuid,
        ${sql.placeholder('seatIds')}::uuid[], ${sql.placeholder('minutes')}::float8,
        ${sql.placeholder('maxLive')}::int, ${sql.placeholder('maxUser')}::int,
        ${sql.placeholder('address')}::text, ${sql.placeholder('maxAddress')}::int,
        ${sql.placeholder('accessibleReleaseMinutes')}::int)`,
    )
    .prepare('hold_seats');
}

/**
 * Holds the given seats of a showtime for the user, all or nothing, then publishes seatsChanged. The partial
 * unique index over live bookings decides who wins a seat, never a read in this code.
 */
export async function holdSeats(
  deps: SeatingDeps,
  input: { showtimeId: string; userId: string; seatIds: string[]; clientAddress: string },
): Promise<HoldResponse> {
  // Room names and comparisons use the database's lower-case spelling of ids.
  const showtimeId = input.showtimeId.toLowerCase();
  const seatIds = [...new Set(input.seatIds.map((id) => id.toLowerCase()))];
  if (seatIds.length !== input.seatIds.length) throw badRequest('Each seat may be listed only once');
  if (deps.config.seatGapRule === 'enforce') await refuseSingleSeatGaps(deps, showtimeId, seatIds);
  const result = await holdInDatabase(deps, { ...input, showtimeId, seatIds });
  if (result.outcome !== 'held') throw holdRefusal(result);
  return holdResponse(result);
}

const holdResponse = (held: Extract<HoldResult, { outcome: 'held' }>): HoldResponse => ({
  bookingIds: held.bookings.map((b) => b.id),
  expiresAt: held.expiresAt.toISOString(),
});

/**
 * The hold itself (hold_seats), for seats already checked against the selection rules: what the database answered,
 * and seatsChanged published when it held them. Ids in the database's lower-case spelling, each once.
 */
async function holdInDatabase(
  deps: Deps,
  input: { showtimeId: string; userId: string; seatIds: string[]; clientAddress: string },
): Promise<HoldResult> {
  const { db, events, config } = deps;
  const { showtimeId, userId } = input;
  // A fixed order: overlapping requests then wait for each other instead of deadlocking.
  const seatIds = [...input.seatIds].sort();
  const hold = holdFor(db);
  const call: HoldCall = {
    showtimeId,
    userId,
    seatIds,
    minutes: config.holdMinutes,
    maxLive: MAX_LIVE_HOLDS_PER_SHOWTIME,
    maxUser: config.maxHeldSeats,
    // The per-address limit is an abuse limit: lifted with the others by RATE_LIMIT=off.
    address: config.rateLimit ? input.clientAddress : null,
    maxAddress: config.maxHeldSeatsPerAddress,
    accessibleReleaseMinutes: config.accessibleReleaseMinutes,
  };
  const rows = await withRetry(() => hold(call)).catch((err: unknown) => {
    // A seat taken out of the layout while this hold waited for it.
    if (pgErrorCode(err) === PG_FOREIGN_KEY_VIOLATION)
      throw badRequest('Some seats are not in this showtime’s hall');
    throw err;
  });
  const result = readHoldRows(rows);
  if (result.outcome === 'held') {
    publishSeatChanges(
      events,
      result.bookings.map((b) => ({ showtimeId, seatId: b.seatId, status: 'HELD' as const })),
    );
  }
  return result;
}

/**
 * Cancels the caller's own live holds among the given bookings (anything else is left alone and not counted), and
 * closes every open checkout session that pays for them: a cancelled hold can never be paid (DESIGN §6.1).
 */
export async function cancelHolds(
  deps: Deps,
  input: { userId: string; bookingIds: string[] },
): Promise<{ ok: true; cancelled: number }> {
  const { db, events } = deps;
  const { cancelled, closed } = await withRetry(() =>
    db.transaction(async (tx) => {
      const mine = await tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(inArray(bookings.id, input.bookingIds), liveHoldByKey(input.userId)));
      const ids = mine.map((b) => b.id);
      // The sessions first: fulfilment locks a session before its bookings.
      const closed = await closeOpenCheckouts(tx, ids, 'CANCELLED');
      const cancelled =
        ids.length === 0
          ? []
          : await tx
              .update(bookings)
              .set({ status: 'CANCELLED', updatedAt: sql`now()` })
              .where(and(inArray(bookings.id, ids), liveHoldByKey()))
              .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId });
      return { cancelled, closed };
    }),
  );
  publishClosedCheckouts(deps, closed);
  publishSeatChanges(
    events,
    cancelled.map((c) => ({ ...c, status: 'AVAILABLE' as const })),
  );
  return { ok: true, cancelled: cancelled.length };
}

/**
 * "More time" (DESIGN §6.6, WCAG 2.2.1): the caller's live holds run another HOLD_MINUTES, once in a hold's life and
 * never past HOLD_MINUTES + 30 minutes from the hold (the same cap as checkout's extension). 409 `more_time_used` when
 * they had it already, `hold_expired` when none is live any more.
 */
export async function moreTime(
  deps: Deps,
  input: { userId: string; bookingIds: string[] },
): Promise<{ expiresAt: string; extended: number }> {
  const { db, events, config } = deps;
  const ids = [...new Set(input.bookingIds.map((id) => id.toLowerCase()))];
  const lifeSeconds = (config.holdMinutes + 30) * 60;
  const extended = await db
    .update(bookings)
    .set({
      expiresAt: sql`least(${bookings.expiresAt} + make_interval(secs => ${config.holdMinutes * 60}),
        ${bookings.createdAt} + make_interval(secs => ${lifeSeconds}))`,
      moreTimeAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(bookings.id, ids), liveHoldByKey(input.userId), isNull(bookings.moreTimeAt)))
    .returning({ showtimeId: bookings.showtimeId, expiresAt: bookings.expiresAt });
  if (extended.length === 0) {
    const [used] = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(inArray(bookings.id, ids), liveHoldByKey(input.userId)))
      .limit(1);
    if (used) throw conflict('You have had more time for these seats already', 'more_time_used');
    throw conflict('Your hold has expired or was cancelled. Please hold the seats again.', 'hold_expired');
  }
  // The holder's maps show the new expiry; nobody else's changes.
  for (const showtimeId of new Set(extended.map((e) => e.showtimeId))) {
    events.publish('seatMapStale', { showtimeId });
  }
  const earliest = Math.min(...extended.map((e) => e.expiresAt!.getTime()));
  return { expiresAt: new Date(earliest).toISOString(), extended: extended.length };
}

/** True when a showtime with this id exists. */
export async function showtimeExists(db: Queryable, showtimeId: string): Promise<boolean> {
  const rows = await db
    .select({ id: showtimes.id })
    .from(showtimes)
    .where(eq(showtimes.id, showtimeId))
    .limit(1);
  return rows.length > 0;
}

/** How many times best available chooses again after losing seats to someone its view did not know of. */
const BEST_AVAILABLE_CHOICES = 5;

/**
 * Best available (DESIGN §6.2): `count` seats together in one row, leaving no seat alone, nearest the centre two
 * thirds back; never wheelchair or companion seats unless asked (`type`), sofas whole. With `hold`, holds them for
 * the customer at once. 409 no_seats_together when there are not that many such seats left.
 *
 * The seats are chosen from this process's view of the showtime (best-seats.ts), where every choice is claimed the
 * moment it is made, so requests arriving together are given different seats; the hold decides, as for any hold. A
 * hold refused for seats someone else took (another process, a view a moment old) marks them taken and chooses again,
 * up to BEST_AVAILABLE_CHOICES times. The choice keeps the single-seat-gap rule itself (against the view it chose
 * from), so the hold does not read the map again to check it.
 */
export async function findBestAvailable(
  deps: SeatingDeps,
  input: {
    showtimeId: string;
    count: number;
    type?: Exclude<SeatType, 'COMPANION'>;
    hold?: { userId: string; clientAddress: string };
  },
): Promise<BestAvailableResponse> {
  const showtimeId = input.showtimeId.toLowerCase();
  for (let attempt = 1; ; attempt++) {
    const choice = await deps.bestSeats.choose(showtimeId, input.count, input.type, { claim: !!input.hold });
    if (!choice) throw noSeatsTogether(input.count, input.type);
    const { seatIds } = choice;
    if (!input.hold) return { seatIds };
    let result: HoldResult;
    try {
      result = await holdInDatabase(deps, { showtimeId, seatIds, ...input.hold });
    } catch (err) {
      choice.settle({ held: false });
      throw err;
    }
    if (result.outcome === 'held') {
      choice.settle({ held: true });
      return { seatIds, hold: holdResponse(result) };
    }
    const lost = result.outcome === 'seat_unavailable' ? result.seatIds : undefined;
    choice.settle({ held: false, lost });
    if (!lost || attempt >= BEST_AVAILABLE_CHOICES) throw holdRefusal(result);
  }
}

/** 409 no_seats_together: not that many seats (of that type) together. */
function noSeatsTogether(count: number, type: SeatType | undefined): AppError {
  const say = (language: Language) => {
    const t = textsIn(language);
    return type
      ? t('errors.no_typed_seats_together', { count, type: t(`seat.types.${type}`) })
      : t('errors.no_seats_together', { count });
  };
  return conflictSaying(say, 'no_seats_together');
}
