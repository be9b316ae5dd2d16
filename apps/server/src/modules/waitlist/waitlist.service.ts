import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  MAX_LIVE_HOLDS_PER_SHOWTIME,
  MAX_WAITLIST_ENTRIES,
  bestAvailable,
  type MyWaitlistResponse,
  type RuleRow,
  type SeatType,
  type StaffWaitlist,
  type WaitlistCounts,
  type WaitlistEntry,
  type WaitlistOffer,
} from '@cinema/contract';
import type { Deps } from '../../deps.ts';
import { queryRows, type Tx } from '../../db/database.ts';
import {
  halls,
  movies,
  seats,
  showtimes,
  users,
  waitlistEntries,
  waitlistOffers,
} from '../../db/schema/index.ts';
import { conflict, notFound } from '../../errors.ts';
import { transactionWithEvents, type AfterCommit } from '../../events.ts';
import {
  accessibleReleasedIn,
  loadSeatMap,
  readHoldRows,
  ruleRows,
  cancelHolds,
  type HoldOutcome,
  withRetry,
} from '../seating/seating.service.ts';

/** Entries still in line: waiting, or with an offer open. */
const inLine = sql`${waitlistEntries.status} in ('waiting', 'offered')`;

/**
 * One waiting list at a time per showtime, across every process: the offering runs under this lock. A run waits for
 * the one before it (each is short) longer than DB_LOCK_TIMEOUT_MS allows a row lock: under load, runs asked for by
 * many freed seats at once queue here, and each must run, since the one before may have read the seats too early.
 */
async function lockShowtime(tx: Tx, showtimeId: string) {
  await tx.execute(sql`set local lock_timeout = '60s'`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('waitlist:showtime'), hashtext(${showtimeId}))`);
}

/**
 * Joins a showtime's waiting list (DESIGN §7.6): 404 for an unknown showtime, 409 `showtime_started`, 409
 * `waitlist_joined` when the customer is in its line already, 409 `waitlist_limit` past MAX_WAITLIST_ENTRIES lines.
 */
export async function joinWaitlist(
  deps: Deps,
  input: { showtimeId: string; userId: string; count: number; together: boolean; type?: SeatType },
): Promise<WaitlistEntry> {
  const showtimeId = input.showtimeId.toLowerCase();
  const entryId = await withRetry(() =>
    transactionWithEvents(deps, async (tx, after) => {
      // One customer's joins one after another, so two at once cannot pass the bound.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext('waitlist:customer'), hashtext(${input.userId}))`,
      );
      const [show] = await tx
        .select({ started: sql<boolean>`${showtimes.startsAt} <= now()` })
        .from(showtimes)
        .where(eq(showtimes.id, showtimeId))
        .limit(1);
      if (!show) throw notFound('Showtime not found');
      if (show.started) throw conflict('This showtime has already started', 'showtime_started');
      const mine = await tx
        .select({ showtimeId: waitlistEntries.showtimeId })
        .from(waitlistEntries)
        .innerJoin(showtimes, eq(showtimes.id, waitlistEntries.showtimeId))
        .where(and(eq(waitlistEntries.userId, input.userId), inLine, sql`${showtimes.startsAt} > now()`));
      if (mine.some((m) => m.showtimeId === showtimeId))
        throw conflict('You are on this showtime’s waiting list already', 'waitlist_joined');
      if (mine.length >= MAX_WAITLIST_ENTRIES)
        throw conflict(
          `You can be on at most ${MAX_WAITLIST_ENTRIES} waiting lists at a time`,
          'waitlist_limit',
          { max: MAX_WAITLIST_ENTRIES },
        );
      const [entry] = await tx
        .insert(waitlistEntries)
        .values({
          showtimeId,
          userId: input.userId,
          seatCount: input.count,
          together: input.together,
          seatType: input.type ?? null,
        })
        .returning({ id: waitlistEntries.id });
      after.record('waitlistJoined', { showtimeId, entryId: entry!.id });
      return entry!.id;
    }),
  );
  const [entry] = (await myWaitlist(deps, input.userId, entryId)).entries;
  return entry!;
}

/**
 * Leaves a showtime's waiting list: an open offer is declined and its seats, still held, are released (and so
 * offered to the next in line). `left: false` when the customer was not in its line.
 */
export async function leaveWaitlist(
  deps: Deps,
  input: { showtimeId: string; userId: string },
): Promise<{ ok: true; left: boolean }> {
  const showtimeId = input.showtimeId.toLowerCase();
  const declined = await withRetry(() =>
    transactionWithEvents(deps, async (tx, after) => {
      await lockShowtime(tx, showtimeId);
      await settleOffers(tx, after, showtimeId);
      const [entry] = await tx
        .select({ id: waitlistEntries.id, status: waitlistEntries.status })
        .from(waitlistEntries)
        .where(
          and(eq(waitlistEntries.showtimeId, showtimeId), eq(waitlistEntries.userId, input.userId), inLine),
        )
        .limit(1);
      if (!entry) return null;
      await tx
        .update(waitlistEntries)
        .set({ status: 'left', updatedAt: sql`now()` })
        .where(eq(waitlistEntries.id, entry.id));
      const offers = await tx
        .update(waitlistOffers)
        .set({ status: 'declined', settledAt: sql`now()` })
        .where(and(eq(waitlistOffers.entryId, entry.id), eq(waitlistOffers.status, 'open')))
        .returning({ id: waitlistOffers.id, bookingIds: waitlistOffers.bookingIds });
      for (const offer of offers)
        after.record('waitlistOfferSettled', { offerId: offer.id, showtimeId, outcome: 'declined' });
      return { bookingIds: offers.flatMap((o) => o.bookingIds) };
    }),
  );
  if (!declined) return { ok: true, left: false };
  // The offer's seats go back like any cancelled hold (its checkout closed too); their release offers them on.
  if (declined.bookingIds.length > 0)
    await cancelHolds(deps, { userId: input.userId, bookingIds: declined.bookingIds });
  return { ok: true, left: true };
}

/**
 * Settles the showtime's open offers by what became of their seats: any sold → taken; none held any more (run out,
 * cancelled, released) → passed. Their entries follow. Under the showtime's lock.
 */
async function settleOffers(tx: Tx, after: AfterCommit, showtimeId: string): Promise<void> {
  const settled = await queryRows<{ id: string; entry_id: string; outcome: 'taken' | 'passed' }>(
    tx,
    sql`with judged as (
          select o.id, o.entry_id,
                 case when bool_or(b.status = 'CONFIRMED') then 'taken'
                      when bool_or(b.status = 'HELD' and b.expires_at > now()) then null
                      else 'passed' end as outcome
            from waitlist_offers o
            left join bookings b on b.id = any (o.booking_ids)
           where o.showtime_id = ${showtimeId} and o.status = 'open'
           group by o.id, o.entry_id)
        update waitlist_offers o
           set status = j.outcome, settled_at = now()
          from judged j
         where o.id = j.id and j.outcome is not null and o.status = 'open'
        returning o.id, o.entry_id, j.outcome`,
  );
  for (const offer of settled) {
    await tx
      .update(waitlistEntries)
      .set({ status: offer.outcome, updatedAt: sql`now()` })
      .where(and(eq(waitlistEntries.id, offer.entry_id), eq(waitlistEntries.status, 'offered')));
    after.record('waitlistOfferSettled', { offerId: offer.id, showtimeId, outcome: offer.outcome });
  }
}

/** Entries looked at per run: the first in line, whose requests are tried in join order. */
const LINE_LOOKED_AT = 200;
/** How often one entry's seats are chosen again after a rival hold took some of them between the read and the hold. */
const CHOICES_PER_ENTRY = 3;

/** The seat ids' cells, if they make one block: one row, side by side, nothing between them. */
function oneBlock(rows: RuleRow[], seatIds: string[]): boolean {
  const wanted = new Set(seatIds);
  for (const row of rows) {
    const cols = row.flatMap((cell, col) => (cell.kind === 'SEAT' && wanted.has(cell.id) ? [col] : []));
    if (cols.length === 0) continue;
    return cols.length === seatIds.length && cols.at(-1)! - cols[0]! + 1 === cols.length;
  }
  return false;
}

/** Marks seats taken in the rows, so later entries of the run are not offered them. */
function takeSeats(rows: RuleRow[], seatIds: Iterable<string>) {
  const taken = new Set(seatIds);
  for (const row of rows)
    for (const cell of row) if (cell.kind === 'SEAT' && taken.has(cell.id)) cell.state = 'taken';
}

interface HoldRowRaw {
  outcome: HoldOutcome;
  id: string | null;
  seatId: string | null;
  expiresAt: string | Date | null;
  detail: string | null;
}

/**
 * Offers a showtime's free seats to its waiting list (DESIGN §7.6), in one transaction under the showtime's lock, so
 * two processes never offer at once: settles open offers first (taken or passed on), ends the list once the showtime
 * has started, then takes the entries in join order and, for each whose request fits the free seats (together by best
 * available, of its type, no single seat left alone), holds them in the customer's name for WAITLIST_OFFER_MINUTES.
 * A seat goes to one offer at most (the live-booking index); an entry has one open offer at most (its own index).
 * Returns how many offers it made.
 */
export async function offerFreedSeats(deps: Deps, showtimeIdIn: string): Promise<number> {
  const showtimeId = showtimeIdIn.toLowerCase();
  const { config } = deps;
  return withRetry(() =>
    transactionWithEvents(deps, async (tx, after) => {
      await lockShowtime(tx, showtimeId);
      await settleOffers(tx, after, showtimeId);
      const [show] = await tx
        .select({ started: sql<boolean>`${showtimes.startsAt} <= now()` })
        .from(showtimes)
        .where(eq(showtimes.id, showtimeId))
        .limit(1);
      if (!show) return 0;
      if (show.started) {
        // A showtime that has started ends its list; open offers run out with their holds.
        await tx
          .update(waitlistEntries)
          .set({ status: 'ended', updatedAt: sql`now()` })
          .where(and(eq(waitlistEntries.showtimeId, showtimeId), eq(waitlistEntries.status, 'waiting')));
        return 0;
      }
      const line = await tx
        .select({
          id: waitlistEntries.id,
          userId: waitlistEntries.userId,
          count: waitlistEntries.seatCount,
          together: waitlistEntries.together,
          type: waitlistEntries.seatType,
        })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.showtimeId, showtimeId), eq(waitlistEntries.status, 'waiting')))
        .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id))
        .limit(LINE_LOOKED_AT);
      if (line.length === 0) return 0;
      const snapshot = await loadSeatMap(tx, showtimeId, config.timeZone, config.accessibleReleaseMinutes);
      const rows = ruleRows(snapshot);
      // Released wheelchair spaces and companion seats are standard seats for an entry without a type too.
      const accessibleReleased = accessibleReleasedIn(snapshot);
      let offered = 0;
      for (const entry of line) {
        const type = (entry.type ?? undefined) as Exclude<SeatType, 'COMPANION'> | undefined;
        for (let choice = 1; choice <= CHOICES_PER_ENTRY; choice++) {
          const seatIds = bestAvailable(rows, entry.count, { type, accessibleReleased });
          if (!seatIds || (entry.together && !oneBlock(rows, seatIds))) break;
          const holdRows = await queryRows<HoldRowRaw>(
            tx,
            sql`select outcome, booking_id as id, held_seat_id as "seatId", held_until as "expiresAt", detail
                  from hold_seats(${showtimeId}::uuid, ${entry.userId}::uuid,
                    ${`{${[...seatIds].sort().join(',')}}`}::uuid[], ${config.waitlistOfferMinutes}::float8,
                    ${MAX_LIVE_HOLDS_PER_SHOWTIME}::int, ${config.maxHeldSeats}::int, null::text, 0,
                    ${config.accessibleReleaseMinutes}::int)`,
          );
          const result = readHoldRows(
            holdRows.map((r) => ({ ...r, expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt) })),
          );
          if (result.outcome === 'seat_unavailable') {
            // A customer's own hold took some of these seats since the map was read: choose again without them.
            takeSeats(rows, result.seatIds);
            continue;
          }
          // Any other refusal (the customer holds as many seats as a customer may) leaves them in line for later.
          if (result.outcome !== 'held') break;
          takeSeats(rows, seatIds);
          const [offer] = await tx
            .insert(waitlistOffers)
            .values({
              entryId: entry.id,
              showtimeId,
              userId: entry.userId,
              bookingIds: result.bookings.map((b) => b.id),
              seatIds: result.bookings.map((b) => b.seatId),
              expiresAt: result.expiresAt,
            })
            .returning({ id: waitlistOffers.id });
          await tx
            .update(waitlistEntries)
            .set({ status: 'offered', updatedAt: sql`now()` })
            .where(eq(waitlistEntries.id, entry.id));
          after.seats(
            result.bookings.map((b) => ({ showtimeId, seatId: b.seatId, status: 'HELD' as const })),
          );
          after.record('waitlistOffered', {
            offerId: offer!.id,
            entryId: entry.id,
            showtimeId,
            userId: entry.userId,
            seats: result.bookings.length,
          });
          offered++;
          break;
        }
      }
      return offered;
    }),
  );
}

/** Showtimes whose lists need a look now and then: someone in line (bounded; the soonest first). */
export async function showtimesInLine(deps: Pick<Deps, 'db'>, limit = 200): Promise<string[]> {
  const rows = await deps.db
    .selectDistinct({ id: waitlistEntries.showtimeId, startsAt: showtimes.startsAt })
    .from(waitlistEntries)
    .innerJoin(showtimes, eq(showtimes.id, waitlistEntries.showtimeId))
    .where(inLine)
    .orderBy(asc(showtimes.startsAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Whether a showtime's list has anyone waiting or an offer open (a cheap look before the locked run). */
export async function hasLine(deps: Pick<Deps, 'db'>, showtimeId: string): Promise<boolean> {
  const rows = await deps.db
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.showtimeId, showtimeId.toLowerCase()), inLine))
    .limit(1);
  return rows.length > 0;
}

/** Offers with their seats (row, number, label), by offer id. */
async function offerSeats(
  deps: Pick<Deps, 'db'>,
  offerRows: { id: string; bookingIds: string[]; seatIds: string[] }[],
) {
  const seatIds = [...new Set(offerRows.flatMap((o) => o.seatIds))];
  const seatRows =
    seatIds.length === 0
      ? []
      : await deps.db
          .select({ id: seats.id, row: seats.row, number: seats.number, rowLabel: seats.rowLabel })
          .from(seats)
          .where(inArray(seats.id, seatIds));
  const byId = new Map(seatRows.map((s) => [s.id, s]));
  return new Map(
    offerRows.map((o) => [
      o.id,
      o.seatIds
        .map((id, i) => ({ ...byId.get(id)!, bookingId: o.bookingIds[i]! }))
        .sort((a, b) => a.row - b.row || a.number - b.number),
    ]),
  );
}

const offerColumns = {
  id: waitlistOffers.id,
  entryId: waitlistOffers.entryId,
  status: waitlistOffers.status,
  bookingIds: waitlistOffers.bookingIds,
  seatIds: waitlistOffers.seatIds,
  expiresAt: waitlistOffers.expiresAt,
  createdAt: waitlistOffers.createdAt,
};

function presentOffer(
  o: { id: string; status: WaitlistOffer['status']; expiresAt: Date; createdAt: Date },
  seatsOf: Map<string, WaitlistOffer['seats']>,
): WaitlistOffer {
  return {
    id: o.id,
    status: o.status,
    seats: seatsOf.get(o.id) ?? [],
    expiresAt: o.expiresAt.toISOString(),
    createdAt: o.createdAt.toISOString(),
  };
}

/** A waiting entry's place in line: how many in line joined before it, plus one. */
const positionOf = sql<number>`(select count(*)::int + 1 from waitlist_entries ahead
  where ahead.showtime_id = ${waitlistEntries.showtimeId} and ahead.status in ('waiting', 'offered')
    and (ahead.joined_at, ahead.id) < (${waitlistEntries.joinedAt}, ${waitlistEntries.id}))`;

/**
 * The customer's waiting lists (`GET /api/me/waitlist`): showtimes not long past, newest first, each with its place
 * in line and its latest offer. `entryId`: that entry only.
 */
export async function myWaitlist(
  deps: Pick<Deps, 'db'>,
  userId: string,
  entryId?: string,
): Promise<MyWaitlistResponse> {
  const rows = await deps.db
    .select({
      id: waitlistEntries.id,
      status: waitlistEntries.status,
      count: waitlistEntries.seatCount,
      together: waitlistEntries.together,
      type: waitlistEntries.seatType,
      joinedAt: waitlistEntries.joinedAt,
      position: positionOf,
      showtimeId: showtimes.id,
      startsAt: showtimes.startsAt,
      auditorium: halls.name,
      movieId: movies.id,
      title: movies.title,
    })
    .from(waitlistEntries)
    .innerJoin(showtimes, eq(showtimes.id, waitlistEntries.showtimeId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .where(
      and(
        eq(waitlistEntries.userId, userId),
        entryId ? eq(waitlistEntries.id, entryId) : sql`${showtimes.startsAt} > now() - interval '1 day'`,
      ),
    )
    .orderBy(desc(waitlistEntries.joinedAt))
    .limit(50);
  const offers =
    rows.length === 0
      ? []
      : await deps.db
          .selectDistinctOn([waitlistOffers.entryId], offerColumns)
          .from(waitlistOffers)
          .where(
            inArray(
              waitlistOffers.entryId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(waitlistOffers.entryId, desc(waitlistOffers.createdAt));
  const seatsOf = await offerSeats(deps, offers);
  const offerOf = new Map(offers.map((o) => [o.entryId, o]));
  return {
    entries: rows.map((r): WaitlistEntry => {
      const offer = offerOf.get(r.id);
      return {
        id: r.id,
        showtime: {
          id: r.showtimeId,
          startsAt: r.startsAt.toISOString(),
          auditorium: r.auditorium,
          movie: { id: r.movieId, title: r.title },
        },
        count: r.count,
        together: r.together,
        type: (r.type as SeatType | null) ?? null,
        status: r.status,
        position: r.status === 'waiting' ? r.position : null,
        joinedAt: r.joinedAt.toISOString(),
        offer: offer ? presentOffer(offer, seatsOf) : null,
      };
    }),
  };
}

/** Staff: a showtime's list in join order (the last 500) and every offer made (the last 200), newest first. */
export async function staffWaitlist(deps: Pick<Deps, 'db'>, showtimeIdIn: string): Promise<StaffWaitlist> {
  const showtimeId = showtimeIdIn.toLowerCase();
  const [show] = await deps.db
    .select({ id: showtimes.id })
    .from(showtimes)
    .where(eq(showtimes.id, showtimeId));
  if (!show) throw notFound('Showtime not found');
  const entries = await deps.db
    .select({
      id: waitlistEntries.id,
      name: users.name,
      email: users.email,
      count: waitlistEntries.seatCount,
      together: waitlistEntries.together,
      type: waitlistEntries.seatType,
      status: waitlistEntries.status,
      joinedAt: waitlistEntries.joinedAt,
    })
    .from(waitlistEntries)
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .where(eq(waitlistEntries.showtimeId, showtimeId))
    .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id))
    .limit(500);
  const offers = await deps.db
    .select({ ...offerColumns, name: users.name, email: users.email })
    .from(waitlistOffers)
    .innerJoin(users, eq(users.id, waitlistOffers.userId))
    .where(eq(waitlistOffers.showtimeId, showtimeId))
    .orderBy(desc(waitlistOffers.createdAt))
    .limit(200);
  const seatsOf = await offerSeats(deps, offers);
  let place = 0;
  return {
    showtimeId,
    waiting: entries.filter((e) => e.status === 'waiting').length,
    entries: entries.map((e) => {
      const inLineNow = e.status === 'waiting' || e.status === 'offered';
      if (inLineNow) place++;
      return {
        id: e.id,
        user: { name: e.name, email: e.email },
        count: e.count,
        together: e.together,
        type: (e.type as SeatType | null) ?? null,
        status: e.status,
        position: e.status === 'waiting' ? place : null,
        joinedAt: e.joinedAt.toISOString(),
      };
    }),
    offers: offers.map((o) => ({
      ...presentOffer(o, seatsOf),
      entryId: o.entryId,
      user: { name: o.name, email: o.email },
    })),
  };
}

/** Staff: waiting customers and open offers per upcoming showtime that has any (Manage Showtimes' counts). */
export async function waitlistCounts(deps: Pick<Deps, 'db'>): Promise<WaitlistCounts> {
  const rows = await queryRows<{ showtime_id: string; waiting: number; open_offers: number }>(
    deps.db,
    sql`select e.showtime_id,
               count(*) filter (where e.status = 'waiting')::int as waiting,
               count(*) filter (where e.status = 'offered')::int as open_offers
          from waitlist_entries e
          join showtimes s on s.id = e.showtime_id
         where e.status in ('waiting', 'offered') and s.starts_at > now()
         group by e.showtime_id
         limit 1000`,
  );
  return {
    counts: rows.map((r) => ({ showtimeId: r.showtime_id, waiting: r.waiting, openOffers: r.open_offers })),
  };
}
