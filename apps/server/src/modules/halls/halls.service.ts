import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  plainLayout,
  rowLabel,
  type CreateHallBody,
  type CreateRoomBody,
  type Hall,
  type HallLayoutResponse,
  type HallWithSeats,
  type LayoutCell,
  type LayoutRow,
  type SeatType,
  type UpdateLayoutBody,
} from '@cinema/contract';
import type { Deps } from '../../deps.ts';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Db, type Queryable, type Tx } from '../../db/database.ts';
import { textArray } from '../../db/arrays.ts';
import { liveBooking } from '../../db/live-booking.ts';
import { bookings, halls, seats, showtimes } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { DEMO_HALLS } from './demo-halls.ts';

// An arbitrary advisory-lock key reserved for creating the default halls.
const HALLS_LOCK = 71_001;

const seatCount = sql<number>`(select count(*) from ${seats} s where s.hall_id = ${sql.raw('"halls"."id"')}
  and s.retired_at is null)`.mapWith(Number);

const hallColumns = { id: halls.id, name: halls.name, rows: halls.rows, cols: halls.cols, seatCount };

/** Every hall, by name, with its grid and its number of seats. */
export async function listHalls(db: Queryable): Promise<Hall[]> {
  return db.select(hallColumns).from(halls).orderBy(asc(halls.name));
}

/** A hall by id, or null. */
export async function findHall(db: Queryable, id: string): Promise<Hall | null> {
  const [row] = await db.select(hallColumns).from(halls).where(eq(halls.id, id)).limit(1);
  return row ?? null;
}

/** A seat of a layout, where the layout puts it: its row (1 = front), its number in the row and its column. */
interface PlacedSeat {
  row: number;
  number: number;
  col: number;
  rowLabel: string;
  type: SeatType;
  blocked: boolean;
  pairId: string | null;
}

/** The seats a layout describes, numbered from the left of each row (gaps are not counted). */
function placeSeats(rows: readonly LayoutRow[]): PlacedSeat[] {
  return rows.flatMap((row, r) => {
    let number = 0;
    return row.cells.flatMap((cell, col) =>
      cell.kind === 'SEAT'
        ? [
            {
              row: r + 1,
              number: ++number,
              col,
              rowLabel: row.label.trim(),
              type: cell.type,
              blocked: cell.blocked ?? false,
              pairId: cell.type === 'SOFA' ? (cell.pairId ?? null) : null,
            },
          ]
        : [],
    );
  });
}

/** The grid a layout needs: its rows, its widest row's width, the rows' labels. */
const gridOf = (rows: readonly LayoutRow[]) => ({
  rows: rows.length,
  cols: Math.max(1, ...rows.map((r) => r.cells.length)),
  rowLabels: rows.map((r) => r.label.trim()),
});

const nameTaken = (name: string) => conflict(`A hall named "${name}" already exists`);

async function insertHall(tx: Queryable, name: string, rows: readonly LayoutRow[]): Promise<string> {
  const [hall] = await tx
    .insert(halls)
    .values({ name, ...gridOf(rows) })
    .returning({ id: halls.id });
  await tx.insert(seats).values(placeSeats(rows).map((s) => ({ ...s, hallId: hall!.id })));
  return hall!.id;
}

/** Creates a hall from its layout; a name already in use is a 409. */
export async function createHall(db: Db, actor: Actor, input: CreateHallBody): Promise<HallLayoutResponse> {
  try {
    const id = await db.transaction(async (tx) => {
      const created = await insertHall(tx, input.name, input.layout.rows);
      await recordAudit(tx, actor, {
        action: 'hall.create',
        subjectType: 'hall',
        subjectId: created,
        after: { name: input.name, rows: input.layout.rows.length },
      });
      return created;
    });
    return (await hallLayout(db, id))!;
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw nameTaken(input.name);
    throw err;
  }
}

/** `POST /api/admin/rooms` (the spec's call): a plain hall of rows × seats, answered with its seats. */
export async function createRoom(db: Db, actor: Actor, input: CreateRoomBody): Promise<HallWithSeats> {
  const created = await createHall(db, actor, {
    name: input.name,
    layout: { rows: plainLayout(input.rows, input.cols, rowLabel) },
  });
  const seatRows = await db
    .select({ id: seats.id, row: seats.row, number: seats.number })
    .from(seats)
    .where(eq(seats.hallId, created.id))
    .orderBy(asc(seats.row), asc(seats.number));
  return {
    id: created.id,
    name: created.name,
    rows: input.rows,
    cols: input.cols,
    seatCount: seatRows.length,
    seats: seatRows,
  };
}

/** A hall's layout as the editor reads it (rows front to back, trailing gaps left out), or null. */
export async function hallLayout(db: Queryable, id: string): Promise<HallLayoutResponse | null> {
  const [hall] = await db
    .select({ id: halls.id, name: halls.name, cols: halls.cols, rowLabels: halls.rowLabels })
    .from(halls)
    .where(eq(halls.id, id))
    .limit(1);
  if (!hall) return null;
  const hallSeats = await db
    .select()
    .from(seats)
    .where(and(eq(seats.hallId, id), isNull(seats.retiredAt)))
    .orderBy(asc(seats.row), asc(seats.col));
  const labels = textArray(hall.rowLabels);
  const rows: LayoutRow[] = labels.map((label) => ({ label, cells: [] }));
  for (const seat of hallSeats) {
    const cells = rows[seat.row - 1]!.cells;
    while (cells.length < seat.col) cells.push({ kind: 'GAP' });
    const cell: LayoutCell = { kind: 'SEAT', type: seat.type, id: seat.id, number: seat.number };
    if (seat.blocked) cell.blocked = true;
    if (seat.pairId) cell.pairId = seat.pairId;
    cells.push(cell);
  }
  return { id: hall.id, name: hall.name, cols: hall.cols, seatCount: hallSeats.length, rows };
}

const samePlace = (a: PlacedSeat, b: { col: number; type: string; pairId: string | null }) =>
  a.col === b.col && a.type === b.type && a.pairId === b.pairId;

/**
 * The seats of these that someone holds or bought for a showtime still to come: an edit must not remove, move or
 * retype them (DESIGN §6.2). Call inside the editing transaction with the seats locked.
 */
async function seatsAtStake(tx: Tx, seatIds: string[]): Promise<Set<string>> {
  if (seatIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ seatId: bookings.seatId })
    .from(bookings)
    .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
    .where(and(inArray(bookings.seatId, seatIds), liveBooking, gt(showtimes.startsAt, sql`now()`)));
  return new Set(rows.map((r) => r.seatId));
}

/**
 * Replaces a hall's layout (and its name). A seat keeps its identity by its row and number: seats the new layout
 * moves, retypes or removes are refused (409 seats_at_stake, naming them) while someone holds or bought them for a
 * showtime to come; a removed seat with bookings in its past is retired rather than deleted. Every seat map of the
 * hall is dropped after commit.
 */
export async function updateLayout(
  { db, events }: Pick<Deps, 'db' | 'events'>,
  actor: Actor,
  hallId: string,
  input: UpdateLayoutBody,
): Promise<HallLayoutResponse> {
  try {
    await db.transaction(async (tx) => {
      const [hall] = await tx
        .select({ id: halls.id, name: halls.name, rows: halls.rows })
        .from(halls)
        .where(eq(halls.id, hallId))
        .for('update');
      if (!hall) throw notFound('Hall not found');
      // Locked: a hold of one of these seats waits for the edit (its booking's foreign key needs the row).
      const existing = await tx.select().from(seats).where(eq(seats.hallId, hallId)).for('update');
      const wanted = new Map(placeSeats(input.rows).map((s) => [`${s.row}:${s.number}`, s]));

      const touched = existing.filter((seat) => {
        if (seat.retiredAt) return false;
        const next = wanted.get(`${seat.row}:${seat.number}`);
        return !next || !samePlace(next, seat);
      });
      const atStake = await seatsAtStake(
        tx,
        touched.map((s) => s.id),
      );
      if (atStake.size > 0) {
        const named = touched
          .filter((s) => atStake.has(s.id))
          .map((s) => ({ id: s.id, rowLabel: s.rowLabel, number: s.number }));
        throw conflict(
          `These seats are held or sold for a coming showtime and cannot be moved, retyped or removed: ${named
            .map((s) => `${s.rowLabel}${s.number}`)
            .join(', ')}`,
          'seats_at_stake',
          { seats: named },
        );
      }

      const byPlace = new Map(existing.map((s) => [`${s.row}:${s.number}`, s]));
      for (const [place, next] of wanted) {
        const seat = byPlace.get(place);
        if (seat) {
          await tx
            .update(seats)
            .set({ ...next, retiredAt: null })
            .where(eq(seats.id, seat.id));
        } else {
          await tx.insert(seats).values({ ...next, hallId });
        }
      }
      const removed = existing
        .filter((s) => !s.retiredAt && !wanted.has(`${s.row}:${s.number}`))
        .map((s) => s.id);
      if (removed.length > 0) {
        const booked = new Set(
          (
            await tx
              .selectDistinct({ seatId: bookings.seatId })
              .from(bookings)
              .where(inArray(bookings.seatId, removed))
          ).map((b) => b.seatId),
        );
        const retire = removed.filter((id) => booked.has(id));
        const drop = removed.filter((id) => !booked.has(id));
        if (retire.length > 0) {
          await tx
            .update(seats)
            .set({ retiredAt: sql`now()` })
            .where(inArray(seats.id, retire));
        }
        if (drop.length > 0) await tx.delete(seats).where(inArray(seats.id, drop));
      }
      await tx
        .update(halls)
        .set({ ...gridOf(input.rows), ...(input.name && { name: input.name }) })
        .where(eq(halls.id, hallId));
      const seatsOf = (list: { retiredAt?: Date | null }[]) => list.filter((s) => !s.retiredAt).length;
      await recordAudit(tx, actor, {
        action: 'hall.layout',
        subjectType: 'hall',
        subjectId: hallId,
        before: { name: hall.name, rows: hall.rows, seats: seatsOf(existing) },
        after: {
          name: input.name ?? hall.name,
          rows: input.rows.length,
          seats: wanted.size,
          removed: removed.length,
        },
      });
    });
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION && input.name) throw nameTaken(input.name);
    throw err;
  }
  const shows = await db
    .select({ id: showtimes.id })
    .from(showtimes)
    .where(and(eq(showtimes.hallId, hallId), gt(showtimes.endsAt, sql`now()`)));
  for (const show of shows) events.publish('seatMapStale', { showtimeId: show.id });
  return (await hallLayout(db, hallId))!;
}

/** Creates the cinema's halls (DEMO_HALLS) when the database has none; returns the halls it created. */
export async function ensureDefaultHalls(db: Db): Promise<Hall[]> {
  const ids = await db.transaction(async (tx) => {
    // Two processes starting on one empty database must not both create the halls.
    await tx.execute(sql`select pg_advisory_xact_lock(${HALLS_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(halls);
    if (existing!.n > 0) return [];
    const created: string[] = [];
    for (const hall of DEMO_HALLS) created.push(await insertHall(tx, hall.name, hall.layout.rows));
    return created;
  });
  const created = await Promise.all(ids.map((id) => findHall(db, id)));
  return created.filter((h): h is Hall => h !== null);
}
