import { asc, count, eq, sql } from 'drizzle-orm';
import type { Auditorium, AuditoriumWithSeats, CreateAuditoriumBody } from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Db, type Queryable } from '../../db/database.ts';
import { halls, seats } from '../../db/schema/index.ts';
import { conflict } from '../../errors.ts';

/** The halls an empty cinema starts with (rows × seats per row). */
export const DEFAULT_HALLS: CreateAuditoriumBody[] = [
  { name: 'Hall 1', rows: 8, cols: 12 },
  { name: 'Hall 2', rows: 10, cols: 14 },
  { name: 'Hall 3', rows: 12, cols: 16 },
];

// An arbitrary advisory-lock key reserved for creating the default halls.
const HALLS_LOCK = 71_001;

const hallColumns = {
  id: halls.id,
  name: halls.name,
  rows: halls.rows,
  cols: halls.cols,
};

/** Every hall, by name. */
export async function listHalls(db: Queryable): Promise<Auditorium[]> {
  return db.select(hallColumns).from(halls).orderBy(asc(halls.name));
}

async function insertHall(tx: Queryable, input: CreateAuditoriumBody): Promise<AuditoriumWithSeats> {
  const [hall] = await tx.insert(halls).values(input).returning(hallColumns);
  const seatRows = await tx
    .insert(seats)
    .values(
      Array.from({ length: input.rows * input.cols }, (_, i) => ({
        hallId: hall!.id,
        row: Math.floor(i / input.cols) + 1,
        number: (i % input.cols) + 1,
      })),
    )
    .returning({ id: seats.id, row: seats.row, number: seats.number });
  seatRows.sort((a, b) => a.row - b.row || a.number - b.number);
  return { ...hall!, seats: seatRows };
}

/** Creates a hall with all its seats; a name already in use is a 409. */
export async function createHall(db: Db, input: CreateAuditoriumBody): Promise<AuditoriumWithSeats> {
  try {
    return await db.transaction((tx) => insertHall(tx, input));
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION)
      throw conflict(`A hall named "${input.name}" already exists`);
    throw err;
  }
}

/** Creates the default halls when the database has none; returns the halls it created. */
export async function ensureDefaultHalls(db: Db): Promise<Auditorium[]> {
  return db.transaction(async (tx) => {
    // Two processes starting on one empty database must not both create the halls.
    await tx.execute(sql`select pg_advisory_xact_lock(${HALLS_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(halls);
    if (existing!.n > 0) return [];
    const created: Auditorium[] = [];
    for (const hall of DEFAULT_HALLS) {
      const { seats: _seats, ...rest } = await insertHall(tx, hall);
      created.push(rest);
    }
    return created;
  });
}

/** A hall by id, or null. */
export async function findHall(db: Queryable, id: string): Promise<Auditorium | null> {
  const [row] = await db.select(hallColumns).from(halls).where(eq(halls.id, id)).limit(1);
  return row ?? null;
}
