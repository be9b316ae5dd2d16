import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { hashToken } from '../plugins/auth.ts';
import { createShowtimeFixture, insertPlainHall, type ShowtimeFixture } from '../test/fixtures.ts';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createTestDatabase, engines, type TestDatabase } from '../test/helpers.ts';
import type { FastifyBaseLogger } from 'fastify';
import { testConfig } from '../config.ts';
import { DomainEvents } from '../events.ts';
import type { Actor } from '../modules/audit/audit.service.ts';
import { counterSale, exchangeTickets, refundOrder } from '../modules/box-office/money.service.ts';
import { checkInTicket } from '../modules/checkin/checkin.service.ts';
import { deliverMail, settleMail } from '../modules/mail/outbox.service.ts';
import { startTestSmtp } from '../test/smtp.ts';
import {
  closeOpenCheckouts,
  extendHoldsForCheckout,
  startCheckout,
} from '../modules/payments/checkout.service.ts';
import { fulfilCheckout, releaseCheckout } from '../modules/payments/fulfilment.service.ts';
import type { PaymentDeps } from '../modules/payments/payment-deps.ts';
import { expireStaleCheckouts } from '../modules/payments/payment-events.ts';
import type { PaymentProvider } from '../modules/payments/providers/provider.ts';
import { paymentProviders } from '../modules/payments/providers/registry.ts';
import { cancelHolds, moreTime } from '../modules/seating/seating.service.ts';
import { sweepExpiredHolds } from '../modules/seating/sweeper.ts';
import { getMyOrder } from '../modules/orders/orders.service.ts';
import { getStaffOrder } from '../modules/box-office/staff-orders.service.ts';
import { deleteReleasableBookings } from '../modules/showtimes/tickets-at-stake.ts';
import { listBookedSeats } from '../modules/tickets/tickets.service.ts';
import type { Db, Tx } from './database.ts';
import * as schema from './schema/index.ts';
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
    db: drizzle(client, { schema }) as unknown as Tx,
    close: () => client.end(),
  };
}

interface TableReads {
  seqScans: number;
  /** Index entries read, by index. */
  byIndex: Record<string, number>;
}

/** What the connection has read of `table` so far: sequential scans, and index entries by index. */
async function readsOf(conn: Connection, table: string): Promise<TableReads> {
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
}

/** Index entries read between two readings, of one index or of all. */
const entriesRead = (before: TableReads, after: TableReads, index?: string) =>
  Object.keys(after.byIndex)
    .filter((name) => index === undefined || name === index)
    .reduce((n, name) => n + after.byIndex[name]! - (before.byIndex[name] ?? 0), 0);

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

  const tableReads = (table: string) => readsOf(conn, table);

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
      await conn.rows('analyze orders');
      await conn.rows('analyze order_lines');
      await conn.rows('analyze bookings');

      // Then the rush: 600 seats held, each in an open checkout of its own (not analyzed yet).
      const rushHolds = await holdAll(rush, customers[37]!);
      await conn.rows(
        `with held as (select id, row_number() over () n from unnest($1::uuid[]) id),
         opened as (
           insert into orders (user_id, provider, amount_cents, expires_at, ref)
           select $2::uuid, 'local', 1200, now() + interval '30 minutes', 'PLAN-' || n from held
           returning id, ref)
         insert into order_lines (order_id, booking_id, seat_row, seat_number, price_cents, unit_price_cents)
         select o.id, h.id, 1, h.n, 1200, 1200 from opened o join held h on o.ref = 'PLAN-' || h.n`,
        [rushHolds.map((b) => b.id), customers[37]],
      );

      // The customer started a checkout of their two seats before, and starts another now.
      const [earlier] = await conn.rows<{ id: string }>(
        `with opened as (
           insert into orders (user_id, provider, amount_cents, expires_at, ref)
           values ($1::uuid, 'local', 2400, now() + interval '30 minutes', 'PLAN-MINE') returning id)
         insert into order_lines (order_id, booking_id, seat_row, seat_number, price_cents, unit_price_cents)
         select opened.id, b.id, 1, row_number() over (), 1200, 1200 from opened, unnest($2::uuid[]) b(id)
         returning order_id as id`,
        [customers[36], held],
      );
      const session = { id: earlier!.id, expiresAt: new Date(Date.now() + 1_800_000) };
      const before = {
        bookings: await tableReads('bookings'),
        sessions: await tableReads('orders'),
      };
      const closed = await closeOpenCheckouts(conn.db, held, 'SUPERSEDED');
      expect(closed.map((c) => c.id)).toEqual([earlier!.id]);
      await extendHoldsForCheckout(conn.db, held, session, 10);
      const after = {
        bookings: await tableReads('bookings'),
        sessions: await tableReads('orders'),
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
  describe('the mail outbox', () => {
    it('sends a waiting message claimed by its key, not by every message an SMTP outage left waiting', async () => {
      const smtp = await startTestSmtp();
      try {
        const deps = { db: conn.db, config: testConfig({ SMTP_URL: smtp.url }), log: silentLog };
        // Analyzed while every message of the cinema had been sent.
        await conn.rows(
          `insert into mail_outbox (kind, "to", subject, text, html, status, sent_at)
           select 'order_confirmation', 'sent-' || n || '@example.com', 'Your tickets', 'Enjoy', '<p>Enjoy</p>', 'sent', now()
           from generate_series(1, 200) n`,
        );
        await conn.rows('analyze mail_outbox');
        // Then the SMTP server was away for an evening: 3,000 messages wait, all due (not analyzed yet).
        const waiting = await conn.rows<{ id: string }>(
          `insert into mail_outbox (kind, "to", subject, text, html, status, next_attempt_at)
           select 'order_confirmation', 'waiting-' || n || '@example.com', 'Your tickets ' || n, 'Enjoy', '<p>Enjoy</p>',
             'pending', now() - interval '1 minute'
           from generate_series(1, 3000) n
           returning id`,
        );

        const before = await tableReads('mail_outbox');
        for (const { id } of waiting.slice(0, 10)) expect(await deliverMail(deps, id)).toBe(true);
        const after = await tableReads('mail_outbox');

        const received = await smtp.waitFor(10);
        expect(received.map((m) => m.subject).sort()).toEqual(
          Array.from({ length: 10 }, (_, i) => `Your tickets ${i + 1}`).sort(),
        );
        expect(after.seqScans - before.seqScans).toBe(0);
        // Ten messages: each claimed and marked sent by its key (one index entry each time).
        expect(entriesRead(before, after)).toBeLessThanOrEqual(30);
      } finally {
        await smtp.close();
      }
    });
  });

  describe('the booked list', () => {
    it('reads one showtime’s tickets by their keys, whatever the cinema’s size and its statistics', async () => {
      const db = testDb.database.db;
      const booked = await createShowtimeFixture(db, { rows: 8, cols: 10 });
      // Analyzed while the cinema is this one hall and the customers of the other cases.
      for (const table of ['users', 'seats', 'bookings', 'showtimes']) await conn.rows(`analyze ${table}`);
      // Then it grows (not analyzed yet): 3,600 seats in other halls, 15,000 customers, 60 seats of the showtime
      // sold, each to a customer of their own.
      for (let h = 0; h < 3; h++) await insertPlainHall(db, 30, 40);
      const buyers = await conn.rows<{ id: string }>(
        `insert into users (name, email, password_hash)
         select 'Booked customer ' || n, 'booked-' || n || '@example.com', 'not-a-login'
           from generate_series(1, 15000) n returning id`,
      );
      await conn.rows(
        `insert into bookings (showtime_id, seat_id, user_id, status, price_cents, confirmed_at)
         select $1::uuid, seat, buyer, 'CONFIRMED', 1200, now()
           from unnest($2::uuid[], $3::uuid[]) as sold(seat, buyer)`,
        [booked.showtimeId, booked.allSeatIds.slice(0, 60), buyers.slice(0, 60).map((b) => b.id)],
      );

      const readTheList = async () => {
        const before = { users: await tableReads('users'), seats: await tableReads('seats') };
        // Six times: PostgreSQL plans a prepared statement for its parameters five times, then generically.
        let list: Awaited<ReturnType<typeof listBookedSeats>> = [];
        for (let i = 0; i < 6; i++) list = await listBookedSeats({ db: conn.db, engine }, booked.showtimeId);
        const after = { users: await tableReads('users'), seats: await tableReads('seats') };
        expect(list).toHaveLength(60);
        expect(list.map((t) => [t.seat.row, t.seat.number])).toEqual(
          Array.from({ length: 60 }, (_, i) => [Math.floor(i / 10) + 1, (i % 10) + 1]),
        );
        expect(list[0]!.user).toEqual({ email: 'booked-1@example.com', name: 'Booked customer 1' });
        // Neither every customer nor every seat of every hall, nor a hall's seats again for each ticket: about one
        // index entry per ticket for its seat and one for its buyer, in each of the six reads.
        expect(after.users.seqScans - before.users.seqScans).toBe(0);
        expect(after.seats.seqScans - before.seats.seqScans).toBe(0);
        expect(entriesRead(before.seats, after.seats)).toBeLessThanOrEqual(6 * 70);
        expect(entriesRead(before.users, after.users)).toBeLessThanOrEqual(6 * 70);
      };
      await readTheList();
      // And once the tables are analyzed as they are now.
      for (const table of ['users', 'seats', 'bookings', 'halls', 'showtimes'])
        await conn.rows(`analyze ${table}`);
      await readTheList();
    });
  });
  describe('an order by its reference', () => {
    it('is found through the reference’s index, as the customer and the box office type it', async () => {
      // A regular with 600 paid orders (analyzed), one of which they look up in lower case, and staff without dash.
      const [regular] = await conn.rows<{ id: string }>(
        `insert into users (name, email, password_hash) values ('Regular', 'regular@example.com', 'not-a-login')
         returning id`,
      );
      await conn.rows(
        `insert into orders (user_id, provider, status, amount_cents, expires_at, paid_at, ref)
         select $1::uuid, 'local', 'PAID', 1200, now(), now(), 'RG' || lpad(n::text, 3, '0') || '-' || 'REF'
           from generate_series(1, 600) n`,
        [regular!.id],
      );
      await conn.rows('analyze orders');

      const before = await tableReads('orders');
      const order = await getMyOrder(conn.db, regular!.id, ' rg123-ref ');
      const staff = await getStaffOrder(conn.db, 'Rg456-Ref');
      const after = await tableReads('orders');

      expect(order.ref).toBe('RG123-REF');
      expect(staff.ref).toBe('RG456-REF');
      expect(after.seqScans - before.seqScans).toBe(0);
      // One entry of the reference's index each: not the regular's 600 orders, nor every order.
      expect(entriesRead(before, after)).toBeLessThanOrEqual(4);
    });
  });
});

const silentLog = {
  level: 'silent',
  fatal: () => {},
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
  silent: () => {},
  child: () => silentLog,
} as unknown as FastifyBaseLogger;

// A statement that names a status a partial index is built on (`bookings_held_expiry_idx`: HELD;
// `bookings_live_seat_unique`: HELD or CONFIRMED) beside the keys of the rows it wants can be planned into walking
// that whole index when the statistics were taken while few rows had the status: in an on-sale rush, every live hold
// there is (docs/decisions/029). Each case runs the real service function on tables analyzed while they held history
// but no live hold and no open checkout, during a rush of 600 live holds each in an open checkout of its own (not
// analyzed yet). Every case asserts what the customer or the staff would see, then what the bookings were read by.
describe.each(engines)('statements naming a status next to a key on %s', (engine) => {
  let testDb: TestDatabase;
  let conn: Connection;
  let deps: PaymentDeps;
  let mine: ShowtimeFixture;
  let customer: string;
  let staff: Actor;
  /** Seats of `mine` not used by an earlier case. */
  let freeSeats: string[];
  /** Seats the services told seat maps about, as `seatId:status`. */
  let published: string[];
  const config = testConfig();

  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    conn = await connect(testDb);
    const events = new DomainEvents(silentLog);
    events.subscribe('seatsChanged', ({ seats }) =>
      published.push(...seats.map((s) => `${s.id}:${s.status}`)),
    );
    deps = {
      db: conn.db as unknown as Db,
      events,
      config,
      log: silentLog,
      providers: paymentProviders(config),
    };
    // One showtime in a hall of 21 rows of 30 seats: the rush holds the first 20 rows, the cases use the last.
    mine = await createShowtimeFixture(conn.db, { rows: 21, cols: 30 });
    freeSeats = [...mine.seatIds[20]!];
    const [c, s, r] = await conn.db
      .insert(users)
      .values([
        { name: 'Status customer', email: 'status-customer@example.com', passwordHash: 'not-a-login' },
        {
          name: 'Status staff',
          email: 'status-staff@example.com',
          passwordHash: 'not-a-login',
          role: 'ADMIN',
        },
        { name: 'Rush customer', email: 'status-rush@example.com', passwordHash: 'not-a-login' },
      ])
      .returning({ id: users.id, email: users.email });
    customer = c!.id;
    staff = s!;
    // History: an earlier showtime of the hall left 3,150 bookings, none of them live, and one ticket was sold at the
    // counter. The tables are analyzed then: the statistics see no hold and no open checkout.
    const earlier = await createShowtimeFixture(conn.db, {
      hallId: mine.hallId,
      startsAt: new Date(Date.now() - 3 * 24 * 3600 * 1000),
    });
    await conn.rows(
      `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents)
       select $1::uuid, s.id, $2::uuid, v.status, now() - interval '3 days', 1200
         from seats s, (values ('EXPIRED'), ('CANCELLED'), ('REFUNDED'), ('EXPIRED'), ('EXPIRED')) as v(status)
        where s.hall_id = $3::uuid`,
      [earlier.showtimeId, r!.id, mine.hallId],
    );
    await counterSale(deps, staff, { showtimeId: mine.showtimeId, seatIds: seats(1), paymentMethod: 'cash' });
    await conn.rows('analyze');
    // PostgreSQL's autovacuum would analyze the tables again a minute or so after the rush: the cases are that minute.
    const tables = await conn.rows<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public'`,
    );
    for (const { name } of tables) await conn.rows(`alter table "${name}" set (autovacuum_enabled = false)`);

    // The rush: 600 seats held by others, each hold in an open checkout of its own (not analyzed).
    await conn.rows(
      `with opened as (
         insert into orders (user_id, provider, amount_cents, expires_at, ref)
         select $2::uuid, 'local', 1200, now() + interval '30 minutes', 'RUSH-' || n from generate_series(1, 600) n
         returning id, ref),
       held as (
         insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents, checkout_session_id,
                               extended_at)
         select $1::uuid, s.id, $2::uuid, 'HELD', now() + interval '30 minutes', 1200, o.id, now()
           from unnest($3::uuid[]) with ordinality as s(id, n)
           join opened o on o.ref = 'RUSH-' || s.n
         returning id, checkout_session_id)
       insert into order_lines (order_id, booking_id, seat_row, seat_number, price_cents, unit_price_cents)
       select checkout_session_id, id, 1, 1, 1200, 1200 from held`,
      [mine.showtimeId, r!.id, mine.seatIds.slice(0, 20).flat()],
    );
  });
  afterAll(async () => {
    await conn?.close();
    await testDb?.drop();
  });

  function seats(n: number) {
    return freeSeats.splice(0, n);
  }

  /** The customer's holds of these seats, live for `minutes` more (negative: run out, not swept yet). */
  const hold = async (seatIds: string[], minutes = 10) =>
    (
      await conn.rows<{ id: string }>(
        `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents)
         select $1::uuid, s, $2::uuid, 'HELD', now() + make_interval(mins => $3), 1200 from unnest($4::uuid[]) s
         returning id`,
        [mine.showtimeId, customer, minutes, seatIds],
      )
    ).map((b) => b.id);

  /** An open checkout of these holds, its window ending in `minutes`; the holds are attached to it. */
  const openCheckout = async (bookingIds: string[], minutes = 30) => {
    const [session] = await conn.rows<{ id: string }>(
      `insert into orders (user_id, provider, amount_cents, expires_at, ref)
       values ($1::uuid, 'local', 1200, now() + make_interval(mins => $2), 'MINE-' || md5(random()::text))
       returning id`,
      [customer, minutes],
    );
    await conn.rows(
      `insert into order_lines (order_id, booking_id, seat_row, seat_number, price_cents, unit_price_cents)
       select $1::uuid, b, 1, 1, 1200, 1200 from unnest($2::uuid[]) b`,
      [session!.id, bookingIds],
    );
    await conn.rows(
      `update bookings set checkout_session_id = $1::uuid, extended_at = now(),
              expires_at = now() + make_interval(mins => $2)
        where id = any($3::uuid[])`,
      [session!.id, minutes, bookingIds],
    );
    return session!.id;
  };

  const statusOf = async (bookingIds: string[]) =>
    (
      await conn.rows<{ status: string }>(
        'select status from bookings where id = any($1::uuid[]) order by id',
        [bookingIds],
      )
    ).map((b) => b.status);

  /** Runs `work` and counts what it read of the bookings and of the checkouts (mail it started included). */
  async function reading<T>(work: () => Promise<T>) {
    published = [];
    const before = {
      bookings: await readsOf(conn, 'bookings'),
      sessions: await readsOf(conn, 'orders'),
    };
    const result = await work();
    await settleMail();
    const after = {
      bookings: await readsOf(conn, 'bookings'),
      sessions: await readsOf(conn, 'orders'),
    };
    const of = (table: 'bookings' | 'sessions') => ({
      seqScans: after[table].seqScans - before[table].seqScans,
      entries: entriesRead(before[table], after[table]),
      byIndex: Object.fromEntries(
        Object.keys(after[table].byIndex)
          .map((name) => [name, entriesRead(before[table], after[table], name)] as const)
          .filter(([, n]) => n > 0),
      ),
    });
    return { result, bookings: of('bookings'), sessions: of('sessions') };
  }
  type Reads = Awaited<ReturnType<typeof reading>>['bookings'];
  /** No sequential scan and at most `max` index entries in all (the rush alone is 600). */
  const byKeys = (reads: Reads, max: number) => {
    const byIndex = JSON.stringify(reads.byIndex);
    expect(reads.seqScans, byIndex).toBe(0);
    expect(reads.entries, byIndex).toBeLessThanOrEqual(max);
  };

  it('a checkout the customer cancels releases its own holds, not the rush’s (releaseCheckout)', async () => {
    const mySeats = seats(2);
    const held = await hold(mySeats);
    const session = await openCheckout(held);
    const reads = await reading(() => releaseCheckout(deps, session, 'CANCELLED'));
    expect(reads.result).toBe(true);
    expect(await statusOf(held)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(published.sort()).toEqual(mySeats.map((s) => `${s}:AVAILABLE`).sort());
    byKeys(reads.bookings, 4);
    byKeys(reads.sessions, 2);
  });

  it('a checkout past its window is closed and its holds go back (expireStaleCheckouts)', async () => {
    const mySeats = seats(2);
    const held = await hold(mySeats);
    await openCheckout(held, -5);
    const reads = await reading(() => expireStaleCheckouts(deps));
    expect(reads.result).toBe(1);
    expect(await statusOf(held)).toEqual(['EXPIRED', 'EXPIRED']);
    expect(published.sort()).toEqual(mySeats.map((s) => `${s}:AVAILABLE`).sort());
    byKeys(reads.bookings, 4);
    // Finding the checkouts past their window reads the table once (decision 029: no index on an uncommon
    // status); closing one goes by its key.
    expect(reads.sessions.seqScans).toBeLessThanOrEqual(1);
    expect(reads.sessions.entries).toBeLessThanOrEqual(2);
  });

  it('a checkout the provider cannot start gives the holds back as they were (startCheckout’s undo)', async () => {
    const held = await hold(seats(2));
    const earlier = await openCheckout(held);
    const [was] = await conn.rows<{ expiresAt: string }>(
      `select min(date_trunc('milliseconds', expires_at))::text "expiresAt" from bookings where id = any($1::uuid[])`,
      [held],
    );
    const down: PaymentProvider = {
      ...deps.providers.get('local')!,
      createSession: () => Promise.reject(new Error('provider down')),
    };
    const reads = await reading(() =>
      startCheckout(
        { ...deps, providers: { get: () => down } },
        { userId: customer, bookingIds: held, email: 'status-customer@example.com' },
      ).catch((err: unknown) => err),
    );
    expect(reads.result).toMatchObject({ statusCode: 502, code: 'payment_provider_error' });
    const after = await conn.rows<{ status: string; expiresAt: string; sessionId: string }>(
      `select status, date_trunc('milliseconds', expires_at)::text "expiresAt", checkout_session_id "sessionId" from bookings
        where id = any($1::uuid[])`,
      [held],
    );
    expect(after).toEqual(
      held.map(() => ({ status: 'HELD', expiresAt: was!.expiresAt, sessionId: earlier })),
    );
    const [reopened] = await conn.rows<{ status: string }>('select status from orders where id = $1', [
      earlier,
    ]);
    expect(reopened!.status).toBe('OPEN');
    // The two holds by their keys, several times over (closing the earlier checkout, the look, the extension, the
    // undo) and by their checkout's key. PostgreSQL has read them twice as often in some runs of the whole file.
    byKeys(reads.bookings, 24);
    byKeys(reads.sessions, 8);
  });

  it('the sweeper frees holds that ran out, reading only those (sweepExpiredHolds)', async () => {
    const mySeats = seats(3);
    const held = await hold(mySeats, -1);
    const reads = await reading(() => sweepExpiredHolds(deps));
    expect(reads.result).toBe(3);
    expect(await statusOf(held)).toEqual(['EXPIRED', 'EXPIRED', 'EXPIRED']);
    expect(published.sort()).toEqual(mySeats.map((s) => `${s}:AVAILABLE`).sort());
    // The three run-out holds found by their expiry, then updated by their keys.
    byKeys(reads.bookings, 12);
  });

  it('the customer cancels their holds and asks for more time (cancelHolds, moreTime)', async () => {
    const mySeats = seats(4);
    const kept = await hold(mySeats.slice(0, 2));
    const dropped = await hold(mySeats.slice(2));
    const more = await reading(() => moreTime(deps, { userId: customer, bookingIds: kept }));
    expect(more.result.extended).toBe(2);
    byKeys(more.bookings, 4);
    const cancel = await reading(() => cancelHolds(deps, { userId: customer, bookingIds: dropped }));
    expect(cancel.result).toEqual({ ok: true, cancelled: 2 });
    expect(await statusOf(dropped)).toEqual(['CANCELLED', 'CANCELLED']);
    byKeys(cancel.bookings, 4);
    byKeys(cancel.sessions, 2);
  });

  it('the box office sells, exchanges and refunds by the tickets’ keys (counterSale, exchangeTickets, refundOrder)', async () => {
    const [ranOut, other, target] = seats(3);
    const old = await hold([ranOut!], -1);
    const sale = await reading(() =>
      counterSale(deps, staff, {
        showtimeId: mine.showtimeId,
        seatIds: [ranOut!, other!],
        paymentMethod: 'card',
      }),
    );
    expect(sale.result.status).toBe('paid');
    expect(await statusOf(old)).toEqual(['EXPIRED']);
    // The sold seats' run-out holds are found through the expiry index: those past their expiry and not swept yet,
    // none of the rush's live holds; then markPaid locks the sale's tickets by their keys (decision 039).
    byKeys(sale.bookings, 16);
    const tickets = sale.result.lines.map((l) => l.bookingId!);
    expect(tickets).toHaveLength(2);

    const exchange = await reading(() =>
      exchangeTickets(deps, staff, sale.result.ref, { moves: [{ bookingId: tickets[0]!, seatId: target! }] }),
    );
    expect(exchange.result.movedBookingIds).toEqual([tickets[0]]);
    // The moved ticket, its new seat and the order shown back, by their keys: 21 entries on PostgreSQL in some runs
    // since the difference goes back through refundLines (decision 039).
    byKeys(exchange.bookings, 24);

    const refund = await reading(() => refundOrder(deps, staff, sale.result.ref, {}));
    expect(refund.result.refundedBookingIds.sort()).toEqual([...tickets].sort());
    expect(await statusOf(tickets)).toEqual(['REFUNDED', 'REFUNDED']);
    // The tickets by their keys, several times over (the lock, the refund, the sales report's triggers per line, the
    // order shown back): 26 entries, twice that in some runs of the whole file on PostgreSQL.
    byKeys(refund.bookings, 60);
  });

  it('a payment for a hold that ran out and whose seat was taken is refunded, by the seat’s key (fulfilCheckout)', async () => {
    const [lost] = seats(1);
    const [ranOut] = await hold([lost!]);
    const session = await openCheckout([ranOut!]);
    await conn.rows(`update bookings set status = 'EXPIRED' where id = $1`, [ranOut]);
    const [rival] = await conn.rows<{ id: string }>(
      `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents)
       values ($1, $2, $3, 'HELD', now() + interval '10 minutes', 1200) returning id`,
      [mine.showtimeId, lost, staff.id],
    );
    const reads = await reading(() => fulfilCheckout(deps, session, { paymentId: null }));
    expect(reads.result).toEqual({ fulfilled: true, confirmed: 0, refunded: 1 });
    expect(await statusOf([ranOut!, rival!.id])).toEqual(
      ranOut! < rival!.id ? ['REFUNDED', 'HELD'] : ['HELD', 'REFUNDED'],
    );
    // Seat maps are told the seat is still someone's hold.
    expect(published).toEqual([`${lost}:HELD`]);
    expect(reads.bookings.seqScans).toBe(0);
    expect(reads.bookings.byIndex['bookings_held_expiry_idx'] ?? 0).toBe(0);
    // The session's bookings by their keys (locked, refunded, and the sales report's triggers), and the seat's live
    // booking by the seat's key. PostgreSQL 15, whose statistics saw this showtime with one booking, looks the seat up
    // through the showtime's index instead: this showtime's bookings, never another's (the rush's 600 here).
    expect(
      reads.bookings.entries - (reads.bookings.byIndex['bookings_showtime_idx'] ?? 0),
      JSON.stringify(reads.bookings.byIndex),
    ).toBeLessThanOrEqual(40);
    // The order by its key: paid, refunded, and checked by its payment's and refund's foreign keys (decision 039).
    byKeys(reads.sessions, 8);
  });

  it('a ticket is checked in at the door by its key (checkInTicket)', async () => {
    const sale = await counterSale(deps, staff, {
      showtimeId: mine.showtimeId,
      seatIds: seats(1),
      paymentMethod: 'cash',
    });
    const ticket = sale.lines[0]!.bookingId!;
    // Tomorrow's show: admitted ahead of its entry window, as staff may.
    const scan = await reading(() => checkInTicket(deps, staff, { bookingId: ticket, force: true }));
    expect(scan.result).toMatchObject({ ok: true, alreadyCheckedIn: false });
    byKeys(scan.bookings, 3);
  });

  it('a connection’s first holds look at each seat by its key, not at the showtime’s bookings (hold_seats)', async () => {
    // A connection's first calls of a function are planned for their own values, and with statistics that saw this
    // showtime with one booking the showtime's index looks as cheap as the seat's own key.
    const [holder] = await conn.db
      .insert(users)
      .values({ name: 'Late customer', email: 'status-late@example.com', passwordHash: 'not-a-login' })
      .returning({ id: users.id });
    for (let i = 0; i < 3; i++) {
      const pair = seats(2).sort();
      const reads = await reading(() =>
        conn.rows<{ outcome: string; seat: string }>(
          'select outcome, held_seat_id as seat from hold_seats($1::uuid, $2::uuid, $3::uuid[], 10, 10, 10, $4, 40)',
          [mine.showtimeId, holder!.id, pair, `198.51.100.${i + 1}`],
        ),
      );
      expect(reads.result).toEqual(pair.map((seat) => ({ outcome: 'held', seat })));
      // The seats have no live booking; the customer's count reads their own earlier holds (two per hold).
      byKeys(reads.bookings, 2 * i);
    }
  });
});

describe.each(engines)('deleting bookings on %s', (engine) => {
  let testDb: TestDatabase;
  let conn: Connection;

  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    conn = await connect(testDb);
  });
  afterAll(async () => {
    await conn?.close();
    await testDb?.drop();
  });

  it('checks each deleted booking against the orders by key, not by reading every order (deleteReleasableBookings)', async () => {
    const show = await createShowtimeFixture(conn.db, { rows: 2, cols: 10 });
    const [customer] = await conn.db
      .insert(users)
      .values({ name: 'Delete customer', email: 'delete-customer@example.com', passwordHash: 'not-a-login' })
      .returning({ id: users.id });
    // A cinema's history of orders, and twenty holds of the showtime that ran out.
    await conn.rows(
      `insert into orders (user_id, provider, amount_cents, expires_at, ref, status)
       select $1::uuid, 'local', 1200, now() - interval '1 day', 'PAST-' || n, 'PAID' from generate_series(1, 2000) n`,
      [customer!.id],
    );
    await conn.rows(
      `insert into bookings (showtime_id, seat_id, user_id, status, expires_at, price_cents)
       select $1::uuid, s, $2::uuid, 'EXPIRED', now() - interval '1 hour', 1200 from unnest($3::uuid[]) s`,
      [show.showtimeId, customer!.id, show.seatIds.flat()],
    );
    await conn.rows('analyze orders');
    const before = await readsOf(conn, 'orders');
    await deleteReleasableBookings(conn.db, [show.showtimeId]);
    const after = await readsOf(conn, 'orders');
    const [left] = await conn.rows<{ n: number }>(
      'select count(*)::int as n from bookings where showtime_id = $1',
      [show.showtimeId],
    );
    expect(left!.n).toBe(0);
    // Each deleted booking's foreign key from a food and drink order (orders.deliver_booking_id) is looked up by its
    // index: a sequential scan per booking read the whole table of orders (2,000 here, a year's 500,000 in use).
    expect(after.seqScans - before.seqScans).toBe(0);
  });
});
