import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { hashToken } from '../plugins/auth.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../test/fixtures.ts';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createTestDatabase, engines, type TestDatabase } from '../test/helpers.ts';
import { closeOpenCheckouts, extendHoldsForCheckout } from '../modules/payments/checkout.service.ts';
import type { Tx } from './database.ts';
import { sessions, users } from './schema/index.ts';

/** One database connection: a hold's plans are cached per connection, and its table counters are per backend. */
interface Connection {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** The app's query builder over this one connection. */
  db: Tx;
  close(): Promise<void>;
}

async function connect(testDb: TestDatabase): Promise<Connection> {
  if (testDb.engine === 'pglite') {
    // The embedded engine is a single backend: every query of the server runs on it.
    const client = (testDb.database.db as unknown as { $client: PGlite }).$client;
    return {
      rows: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
      db: testDb.database.db as unknown as Tx,
      close: async () => {},
    };
  }
  const client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  return {
    rows: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[],
    db: drizzle(client) as unknown as Tx,
    close: () => client.end(),
  };
}

interface TableReads {
  seqScans: number;
  /** Index entries read, by index. */
  byIndex: Record<string, number>;
}

// A connection plans each statement of a PL/pgSQL function a few times and then keeps one generic plan until the
// table is analyzed again. A fresh install analyzes its tables while they are empty (the embedded engine's
// maintenance pass or autovacuum); plans made then must still be keyed lookups once the tables hold thousands of
// rows, or every request of an on-sale rush reads more than the one before (docs/decisions/011).
describe.each(engines)('plans of the hot statements on %s', (engine) => {
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

  /** What the connection has read of `table` so far: sequential scans, and index entries by index. */
  const tableReads = async (table: string): Promise<TableReads> => {
    // Publish this backend's counters now (they are otherwise sent at most once a second).
    await conn.rows('select pg_stat_force_next_flush()');
    await conn.rows('select 1');
    const [stats] = await conn.rows<{ seqScans: number }>(
      'select seq_scan::int as "seqScans" from pg_stat_user_tables where relname = $1',
      [table],
    );
    const indexes = await conn.rows<{ name: string; read: number }>(
      'select indexrelname as name, idx_tup_read::int as read from pg_stat_user_indexes where relname = $1',
      [table],
    );
    return { seqScans: stats!.seqScans, byIndex: Object.fromEntries(indexes.map((i) => [i.name, i.read])) };
  };
  const entriesRead = (before: TableReads, after: TableReads, index?: string) =>
    Object.keys(after.byIndex)
      .filter((name) => index === undefined || name === index)
      .reduce((n, name) => n + after.byIndex[name]! - (before.byIndex[name] ?? 0), 0);

  describe('hold_seats', () => {
    let addresses = 0;
    // Each hold from an address of its own, so the per-address limit is counted (and never reached).
    const hold = async (customer: string, seatIds: string[]) => {
      const [row] = await conn.rows<{ outcome: string }>(
        'select outcome from hold_seats($1::uuid, $2::uuid, $3::uuid[], 10, 10, 10, $4, 40)',
        [show.showtimeId, customer, [...seatIds].sort(), `198.51.100.${++addresses}`],
      );
      return row!.outcome;
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

      // Then the cinema sells: 3,000 bookings of another showtime, 600 of them live holds from one address (not
      // analyzed yet).
      await conn.rows(
        `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents, client_address)
         select $1::uuid, s.id, $2::uuid, v.status, now() + interval '10 minutes', 1200, '203.0.113.9'
           from seats s, (values ('HELD'), ('EXPIRED'), ('EXPIRED'), ('CANCELLED'), ('EXPIRED')) as v(status)
          where s.hall_id = $3::uuid`,
        [other.showtimeId, customers[39], other.hallId],
      );

      // Refused holds whose first seat (in seat order) is free and whose second is taken: the hold looks at the
      // free one again once it found the taken one.
      const takenSeats = show.seatIds.slice(0, 10).flatMap((row) => row.slice(0, 2));
      const lastTaken = [...takenSeats].sort().at(-1)!;
      const neverHeld = show.seatIds.flatMap((row) => row.slice(2, 5)).sort();
      expect(neverHeld.slice(0, 5).every((id) => id < lastTaken)).toBe(true);

      const before = await tableReads('bookings');
      for (let i = 0; i < 5; i++) {
        const free = show.seatIds[i]!.slice(5, 7);
        const taken = show.seatIds[i]!.slice(0, 2);
        expect(await hold(customers[10 + i]!, free)).toBe('held');
        expect(await hold(customers[25 + i]!, taken)).toBe('seat_unavailable');
        expect(await hold(customers[30 + i]!, [neverHeld[i]!, lastTaken])).toBe('seat_unavailable');
      }
      const after = await tableReads('bookings');

      expect(after.seqScans - before.seqScans).toBe(0);
      // Neither every live hold there is, nor every booking of a showtime, nor another address's holds.
      expect(entriesRead(before, after, 'bookings_held_expiry_idx')).toBe(0);
      expect(entriesRead(before, after, 'bookings_held_address_idx')).toBe(0);
      expect(entriesRead(before, after, 'bookings_showtime_idx')).toBe(0);
      // Fifteen holds of two seats: a look at each seat (and again at a free one before a taken one), and the
      // winners' count of their own (no) holds and their address's (none).
      expect(entriesRead(before, after)).toBeLessThanOrEqual(60);

      // A hold from the address with 600 live holds is refused by the per-address limit after counting exactly
      // those, through their own index.
      const [limited] = await conn.rows<{ outcome: string; detail: string }>(
        `select outcome, detail from hold_seats($1::uuid, $2::uuid, $3::uuid[], 10, 10, 10, '203.0.113.9', 40)`,
        [show.showtimeId, customers[35], show.seatIds[7]!.slice(-2).sort()],
      );
      expect(limited).toEqual({
        outcome: 'hold_limit',
        detail: '{"scope" : "address", "held" : 600, "max" : 40}',
      });
      const counted = await tableReads('bookings');
      expect(counted.seqScans - after.seqScans).toBe(0);
      expect(entriesRead(after, counted, 'bookings_held_address_idx')).toBe(600);
      expect(
        entriesRead(after, counted) - entriesRead(after, counted, 'bookings_held_address_idx'),
      ).toBeLessThanOrEqual(4);
    });
  });

  describe('a checkout', () => {
    it('closes earlier checkouts and extends its holds by their keys, not by every live hold or open checkout', async () => {
      const db = testDb.database.db;
      const mine = await createShowtimeFixture(db, { rows: 1, cols: 2 });
      const rush = await createShowtimeFixture(db, { rows: 20, cols: 30 });
      const holdAll = (fixture: ShowtimeFixture, customer: string) =>
        conn.rows<{ id: string }>(
          `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents)
           select $1::uuid, s.id, $2::uuid, 'HELD', now() + interval '10 minutes', 1200
             from seats s where s.hall_id = $3::uuid returning id`,
          [fixture.showtimeId, customer, fixture.hallId],
        );
      const held = (await holdAll(mine, customers[36]!)).map((b) => b.id);
      // Analyzed while no checkout was open and no line written.
      await conn.rows('analyze checkout_sessions');
      await conn.rows('analyze checkout_session_bookings');
      await conn.rows('analyze bookings');

      // Then the rush: 600 seats held, each in an open checkout of its own (not analyzed yet).
      const rushHolds = await holdAll(rush, customers[37]!);
      await conn.rows(
        `with held as (select id, row_number() over () n from unnest($1::uuid[]) id),
         opened as (
           insert into checkout_sessions (user_id, provider, amount_cents, expires_at, ref)
           select $2::uuid, 'local', 1200, now() + interval '30 minutes', 'PLAN-' || n from held
           returning id, ref)
         insert into checkout_session_bookings (session_id, booking_id, seat_row, seat_number, price_cents)
         select o.id, h.id, 1, h.n, 1200 from opened o join held h on o.ref = 'PLAN-' || h.n`,
        [rushHolds.map((b) => b.id), customers[37]],
      );

      // The customer started a checkout of their two seats before, and starts another now.
      const [earlier] = await conn.rows<{ id: string }>(
        `with opened as (
           insert into checkout_sessions (user_id, provider, amount_cents, expires_at, ref)
           values ($1::uuid, 'local', 2400, now() + interval '30 minutes', 'PLAN-MINE') returning id)
         insert into checkout_session_bookings (session_id, booking_id, seat_row, seat_number, price_cents)
         select opened.id, b.id, 1, row_number() over (), 1200 from opened, unnest($2::uuid[]) b(id)
         returning session_id as id`,
        [customers[36], held],
      );
      const session = { id: earlier!.id, expiresAt: new Date(Date.now() + 1_800_000) };
      const before = {
        bookings: await tableReads('bookings'),
        sessions: await tableReads('checkout_sessions'),
      };
      const closed = await closeOpenCheckouts(conn.db, held, 'superseded');
      expect(closed.map((c) => c.id)).toEqual([earlier!.id]);
      await extendHoldsForCheckout(conn.db, held, session, 10);
      const after = {
        bookings: await tableReads('bookings'),
        sessions: await tableReads('checkout_sessions'),
      };
      const [extended] = await conn.rows<{ n: number }>(
        'select count(*)::int n from bookings where id = any($1::uuid[]) and extended_at is not null',
        [held],
      );
      expect(extended!.n).toBe(2);

      expect(after.bookings.seqScans - before.bookings.seqScans).toBe(0);
      expect(after.sessions.seqScans - before.sessions.seqScans).toBe(0);
      expect(entriesRead(before.bookings, after.bookings, 'bookings_held_expiry_idx')).toBe(0);
      // The two holds by their keys, and their earlier checkout by its key: no open checkout of the rush.
      expect(entriesRead(before.bookings, after.bookings)).toBeLessThanOrEqual(4);
      expect(entriesRead(before.sessions, after.sessions)).toBeLessThanOrEqual(2);
    });
  });

  describe('session_users', () => {
    const lookUp = async (tokens: string[]) =>
      conn.rows<{ user_id: string }>('select user_id from session_users($1::text[])', [
        tokens.map(hashToken),
      ]);

    it('keeps finding a session by its token’s index after the tables were analyzed nearly empty', async () => {
      const db = testDb.database.db;
      const tokenOf = (i: number) => `plan-token-${i}`;
      const future = new Date(Date.now() + 24 * 3600 * 1000);
      await db
        .insert(sessions)
        .values(
          customers.map((userId, i) => ({ userId, tokenHash: hashToken(tokenOf(i)), expiresAt: future })),
        );
      await conn.rows('analyze sessions');
      await conn.rows('analyze users');
      // Twenty sign-ins checked while the tables are small: the connection settles on its plans.
      for (let i = 0; i < 20; i++) expect(await lookUp([tokenOf(i), 'nobody'])).toHaveLength(1);

      // Then 3,000 customers sign up and sign in (not analyzed yet).
      await conn.rows(
        `with signed_up as (
           insert into users (name, email, password_hash)
           select 'Rush customer ' || n, 'rush-' || n || '@example.com', 'not-a-login' from generate_series(1, 3000) n
           returning id)
         insert into sessions (user_id, token_hash, expires_at)
         select id, md5(id::text), now() + interval '1 day' from signed_up`,
      );

      const before = { sessions: await tableReads('sessions'), users: await tableReads('users') };
      for (let i = 20; i < 30; i++) {
        const found = await lookUp([tokenOf(i), tokenOf(i + 1), 'nobody']);
        expect(found.map((r) => r.user_id).sort()).toEqual([customers[i], customers[i + 1]].sort());
      }
      const after = { sessions: await tableReads('sessions'), users: await tableReads('users') };

      expect(after.sessions.seqScans - before.sessions.seqScans).toBe(0);
      expect(after.users.seqScans - before.users.seqScans).toBe(0);
      // Ten lookups of three tokens: one index entry per session found, one per user.
      expect(entriesRead(before.sessions, after.sessions)).toBeLessThanOrEqual(30);
      expect(entriesRead(before.users, after.users)).toBeLessThanOrEqual(30);
    });
  });
});
