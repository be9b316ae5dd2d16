import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { users } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestDatabase, engines, type TestDatabase } from '../../test/helpers.ts';

/** One database connection: a hold's plans are cached per connection, and its table counters are per backend. */
interface Connection {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function connect(testDb: TestDatabase): Promise<Connection> {
  if (testDb.engine === 'pglite') {
    // The embedded engine is a single backend: every query of the server runs on it.
    const client = (testDb.database.db as unknown as { $client: PGlite }).$client;
    return {
      rows: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
      close: async () => {},
    };
  }
  const client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  return {
    rows: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[],
    close: () => client.end(),
  };
}

interface BookingReads {
  seqScans: number;
  /** Index entries read, by index. */
  byIndex: Record<string, number>;
}

// A connection plans each statement of hold_seats a few times and then keeps one generic plan until the table is
// analyzed again. A fresh install analyzes `bookings` while it is empty (the embedded engine's maintenance pass or
// autovacuum); plans made then must still be keyed lookups once the table holds thousands of bookings, or every
// hold of an on-sale rush reads more than the one before.
describe.each(engines)('hold_seats plans on %s', (engine) => {
  let testDb: TestDatabase;
  let conn: Connection;
  let show: ShowtimeFixture;
  let other: ShowtimeFixture;
  let customers: string[];

  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    const db = testDb.database.db;
    show = await createShowtimeFixture(db, { rows: 10, cols: 10 });
    other = await createShowtimeFixture(db, { rows: 20, cols: 30 });
    const inserted = await db
      .insert(users)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          name: `Plan customer ${i}`,
          email: `plans-${i}@example.com`,
          passwordHash: 'not-a-login',
        })),
      )
      .returning({ id: users.id });
    customers = inserted.map((u) => u.id);
    conn = await connect(testDb);
  });
  afterAll(async () => {
    await conn?.close();
    await testDb?.drop();
  });

  const hold = async (customer: string, seatIds: string[]) => {
    const [row] = await conn.rows<{ outcome: string }>(
      'select outcome from hold_seats($1::uuid, $2::uuid, $3::uuid[], 10, 10)',
      [show.showtimeId, customer, [...seatIds].sort()],
    );
    return row!.outcome;
  };

  const bookingReads = async (): Promise<BookingReads> => {
    // Publish this backend's counters now (they are otherwise sent at most once a second).
    await conn.rows('select pg_stat_force_next_flush()');
    await conn.rows('select 1');
    const [table] = await conn.rows<{ seqScans: number }>(
      `select seq_scan::int as "seqScans" from pg_stat_user_tables where relname = 'bookings'`,
    );
    const indexes = await conn.rows<{ name: string; read: number }>(
      `select indexrelname as name, idx_tup_read::int as read from pg_stat_user_indexes where relname = 'bookings'`,
    );
    return { seqScans: table!.seqScans, byIndex: Object.fromEntries(indexes.map((i) => [i.name, i.read])) };
  };

  it('keeps reading only the seats’ and the customer’s own bookings after the table was analyzed empty', async () => {
    await conn.rows('analyze bookings');
    // Twenty holds while the table is nearly empty: ten win a pair each, ten ask for a pair already taken. The
    // connection settles on its plans.
    for (let i = 0; i < 10; i++) {
      const pair = show.seatIds[i]!.slice(0, 2);
      expect(await hold(customers[i]!, pair)).toBe('held');
      expect(await hold(customers[20 + i]!, pair)).toBe('seat_unavailable');
    }

    // Then the cinema sells: 3,000 bookings of another showtime, 600 of them live holds (not analyzed yet).
    await conn.rows(
      `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents)
       select $1::uuid, s.id, $2::uuid, v.status, now() + interval '10 minutes', 1200
         from seats s, (values ('HELD'), ('EXPIRED'), ('EXPIRED'), ('CANCELLED'), ('EXPIRED')) as v(status)
        where s.auditorium_id = $3::uuid`,
      [other.showtimeId, customers[39], other.auditoriumId],
    );

    const before = await bookingReads();
    for (let i = 0; i < 5; i++) {
      const free = show.seatIds[i]!.slice(5, 7);
      const taken = show.seatIds[i]!.slice(0, 2);
      expect(await hold(customers[10 + i]!, free)).toBe('held');
      expect(await hold(customers[25 + i]!, taken)).toBe('seat_unavailable');
    }
    const after = await bookingReads();

    expect(after.seqScans - before.seqScans).toBe(0);
    const read = (index: string) => (after.byIndex[index] ?? 0) - (before.byIndex[index] ?? 0);
    // Neither every live hold there is nor every booking of a showtime.
    expect(read('bookings_held_expiry_idx')).toBe(0);
    expect(read('bookings_showtime_idx')).toBe(0);
    // Ten holds of two seats: a look at each seat, and the winners' count of their own (no) holds.
    const total = Object.keys(after.byIndex).reduce((n, index) => n + read(index), 0);
    expect(total).toBeLessThanOrEqual(40);
  });
});
