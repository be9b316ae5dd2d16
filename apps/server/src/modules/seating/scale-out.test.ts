import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import type { SeatMap, SeatsUpdate } from '@cinema/contract';
import { openDatabase, type Database } from '../../db/database.ts';
import { bookings, productCategories, products } from '../../db/schema/index.ts';
import { createUser } from '../accounts/accounts.service.ts';
import { createSession } from '../../plugins/auth.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createPostgresDatabase,
  postgresUrl,
  redisUrl,
  uniqueEmail,
  STRONG_PASSWORD,
} from '../../test/helpers.ts';
import { startServerProcess, type ServerProcess } from '../../test/server-process.ts';

if (!postgresUrl || !redisUrl) {
  console.warn(
    'scale-out.test.ts skipped: two server processes need a shared PostgreSQL and Redis ' +
      '(set TEST_DATABASE_URL and TEST_REDIS_URL).',
  );
}

const HOLD_SECONDS = 6;

interface Customer {
  id: string;
  headers: Record<string, string>;
}

describe.skipIf(!postgresUrl || !redisUrl)('two server processes on one PostgreSQL and one Redis', () => {
  let drop: () => Promise<void>;
  let database: Database;
  let a: ServerProcess;
  let b: ServerProcess;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const fresh = await createPostgresDatabase();
    drop = fresh.drop;
    const env = {
      DATABASE_URL: fresh.url,
      REDIS_URL: redisUrl!,
      HOLD_MINUTES: String(HOLD_SECONDS / 60),
      SWEEP_SECONDS: '1',
    };
    // Started together on an empty database: they must take turns migrating it.
    const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) {
      // The one that did start would outlive the test run.
      await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
      throw failed.reason;
    }
    [a, b] = started.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value) as [
      ServerProcess,
      ServerProcess,
    ];
    database = await openDatabase({ databaseUrl: fresh.url, dataDir: 'memory://' });
  }, 180_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await drop?.();
  });

  async function customer(): Promise<Customer> {
    const user = await createUser(database.db, {
      name: 'Sam Scale',
      email: uniqueEmail('scale'),
      password: STRONG_PASSWORD,
    });
    const token = await createSession(database.db, user.id);
    return { id: user.id, headers: { authorization: `Bearer ${token}` } };
  }

  async function call(server: ServerProcess, method: string, path: string, who?: Customer, body?: unknown) {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      redirect: 'manual',
      headers: { ...who?.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  }

  const seatMap = async (server: ServerProcess, f: ShowtimeFixture, who?: Customer) => {
    const res = await call(server, 'GET', `/showtimes/${f.showtimeId}/seats`, who);
    expect(res.status).toBe(200);
    return res.body as SeatMap;
  };
  const statuses = (map: SeatMap, seatIds: string[]) =>
    seatIds.map((id) => map.seats.find((s) => s.id === id)!.status);

  /** A Socket.IO client of `server` watching the showtime; collects every seats_update. */
  async function watcher(server: ServerProcess, f: ShowtimeFixture) {
    const socket = connect(server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    sockets.push(socket);
    const updates: SeatsUpdate[] = [];
    socket.on('seats_update', (u: SeatsUpdate) => updates.push(u));
    expect(await socket.timeout(5000).emitWithAck('join_showtime', f.showtimeId)).toEqual({ ok: true });
    const waitFor = async (seatIds: string[], status: string, ms = 10_000) => {
      const until = Date.now() + ms;
      const seen = () =>
        seatIds.every((id) => updates.some((u) => u.seats.some((s) => s.id === id && s.status === status)));
      while (!seen()) {
        if (Date.now() > until) throw new Error(`no ${status} seats_update for ${seatIds.join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    return { updates, waitFor };
  }

  it('a seat held through A is a 409 through B, HELD in B’s seat map, and B’s clients hear of it', async () => {
    const f = await createShowtimeFixture(database.db);
    const [first, second] = await Promise.all([customer(), customer()]);
    const onB = await watcher(b, f);
    const [s1, s2, s3] = [f.seatIds[0]![0]!, f.seatIds[0]![1]!, f.seatIds[0]![2]!];
    expect(statuses(await seatMap(b, f), [s1, s2])).toEqual(['AVAILABLE', 'AVAILABLE']);

    const held = await call(a, 'POST', `/showtimes/${f.showtimeId}/hold`, first, { seatIds: [s1, s2] });
    expect(held.status).toBe(201);
    const refused = await call(b, 'POST', `/showtimes/${f.showtimeId}/hold`, second, { seatIds: [s2, s3] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'seat_unavailable', seatIds: [s2] });

    const mine = await seatMap(b, f, first);
    expect(mine.seats.filter((s) => s.heldByMe).map((s) => s.id)).toEqual([s1, s2]);
    expect(statuses(await seatMap(b, f, second), [s1, s2, s3])).toEqual(['HELD', 'HELD', 'AVAILABLE']);
    await onB.waitFor([s1, s2], 'HELD');
  });

  it('a hold runs out for both: the sweeper frees it, B’s clients hear AVAILABLE, both maps agree', async () => {
    const f = await createShowtimeFixture(database.db);
    const holder = await customer();
    const onB = await watcher(b, f);
    const seats = [f.seatIds[1]![0]!, f.seatIds[1]![1]!];
    const held = await call(a, 'POST', `/showtimes/${f.showtimeId}/hold`, holder, { seatIds: seats });
    expect(held.status).toBe(201);
    expect(statuses(await seatMap(b, f), seats)).toEqual(['HELD', 'HELD']);

    // HOLD_SECONDS, then one of the two sweepers (every second) marks the holds EXPIRED and broadcasts.
    await onB.waitFor(seats, 'AVAILABLE', (HOLD_SECONDS + 10) * 1000);
    expect(statuses(await seatMap(a, f), seats)).toEqual(['AVAILABLE', 'AVAILABLE']);
    expect(statuses(await seatMap(b, f), seats)).toEqual(['AVAILABLE', 'AVAILABLE']);
    const rows = await database.db.select().from(bookings).where(inArray(bookings.id, held.body.bookingIds));
    expect(rows.map((r) => r.status)).toEqual(['EXPIRED', 'EXPIRED']);
    // Announced once, by whichever process swept them.
    const freed = onB.updates.flatMap((u) => u.seats).filter((s) => s.status === 'AVAILABLE');
    expect(freed.map((s) => s.id).sort()).toEqual([...seats].sort());
  }, 60_000);

  it('paying through both processes at once confirms each seat exactly once', async () => {
    const f = await createShowtimeFixture(database.db);
    const onA = await watcher(a, f);
    const buyers = await Promise.all(Array.from({ length: 5 }, () => customer()));
    const sessions = await Promise.all(
      buyers.map(async (buyer, i) => {
        const seatIds = [f.seatIds[2]![i]!];
        const held = await call(a, 'POST', `/showtimes/${f.showtimeId}/hold`, buyer, { seatIds });
        expect(held.status).toBe(201);
        const checkout = await call(b, 'POST', '/pay/checkout', buyer, { bookingIds: held.body.bookingIds });
        expect(checkout.status).toBe(200);
        return { buyer, seatIds, bookingIds: held.body.bookingIds as string[], id: checkout.body.sessionId };
      }),
    );
    const payments = await Promise.all(
      sessions.flatMap((s) => [a, b].map((server) => call(server, 'POST', `/pay/local/${s.id}/pay`))),
    );
    expect(payments.map((p) => p.status)).toEqual(Array(10).fill(303));

    const seatIds = sessions.flatMap((s) => s.seatIds);
    await onA.waitFor(seatIds, 'CONFIRMED');
    const rows = await database.db
      .select()
      .from(bookings)
      .where(
        inArray(
          bookings.id,
          sessions.flatMap((s) => s.bookingIds),
        ),
      );
    expect(rows.map((r) => r.status)).toEqual(Array(5).fill('CONFIRMED'));
    for (const s of sessions) {
      const lookup = await call(a, 'GET', `/pay/lookup?session_id=${s.id}`, s.buyer);
      expect(lookup.body).toMatchObject({ status: 'paid', tickets: [{ bookingId: s.bookingIds[0] }] });
    }
    // The clients heard one confirmation per seat, though two processes were asked to fulfil each payment.
    await new Promise((r) => setTimeout(r, 500));
    const confirmations = onA.updates.flatMap((u) => u.seats).filter((s) => s.status === 'CONFIRMED');
    expect(confirmations.map((s) => s.id).sort()).toEqual([...seatIds].sort());
    expect(statuses(await seatMap(b, f), seatIds)).toEqual(Array(5).fill('CONFIRMED'));
  });

  it('a kitchen screen on B hears at once of an order with food paid through A (DESIGN §7.2)', async () => {
    const staff = await createUser(database.db, {
      name: 'Kit Kitchen',
      email: uniqueEmail('kitchen'),
      password: STRONG_PASSWORD,
      role: 'STAFF',
    });
    const [category] = await database.db
      .insert(productCategories)
      .values({ name: `Scale ${uniqueEmail('snacks')}` })
      .returning({ id: productCategories.id });
    const [nachos] = await database.db
      .insert(products)
      .values({ categoryId: category!.id, name: 'Scale nachos', priceCents: 550 })
      .returning({ id: products.id });
    const socket = connect(b.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    sockets.push(socket);
    const refs: string[] = [];
    socket.on('kitchen_update', (u: { ref: string }) => refs.push(u.ref));
    const token = await createSession(database.db, staff.id);
    expect(await socket.timeout(5000).emitWithAck('join_kitchen', { token })).toEqual({ ok: true });

    const buyer = await customer();
    const checkout = await call(a, 'POST', '/pay/checkout', buyer, {
      bookingIds: [],
      products: [{ productId: nachos!.id, quantity: 1 }],
    });
    expect(checkout.status).toBe(200);
    expect((await call(a, 'POST', `/pay/local/${checkout.body.sessionId}/pay`)).status).toBe(303);
    const until = Date.now() + 10_000;
    while (!refs.includes(checkout.body.orderRef) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 25));
    expect(refs).toEqual([checkout.body.orderRef]);
  });
});
