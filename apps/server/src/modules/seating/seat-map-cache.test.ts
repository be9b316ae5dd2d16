import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { inArray, sql } from 'drizzle-orm';
import type { SeatMap } from '@cinema/contract';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { bookings } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  redisUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { GZIP_AFTER_READS } from './seat-map-cache.ts';
import { sweepExpiredHolds } from './sweeper.ts';

// The seat map is cached per showtime; these tests read it first (so it is cached), change it, and read again.
const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };

if (postgresUrl && !redisUrl) {
  console.warn('seat-map-cache.test.ts: the two-process tests are skipped (set TEST_REDIS_URL).');
}

async function seatMap(app: FastifyInstance, showtimeId: string, who?: SignedIn): Promise<SeatMap> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/showtimes/${showtimeId}/seats`,
    headers: who?.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.json() as SeatMap;
}

/** The map as a browser gets it (`accept-encoding` as Chromium sends it, unless given), decoded. */
async function browserRead(app: FastifyInstance, showtimeId: string, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/showtimes/${showtimeId}/seats`,
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd', ...headers },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers.vary).toMatch(/accept-encoding/i);
  const gzipped = res.headers['content-encoding'] === 'gzip';
  if (!gzipped) expect(res.headers['content-encoding']).toBeUndefined();
  const map = JSON.parse((gzipped ? gunzipSync(res.rawPayload) : res.rawPayload).toString()) as SeatMap;
  return { gzipped, map };
}

/** A seat's state in a map: its place in the hall's layout (type, column, row label) is another test's business. */
const seatOf = (map: SeatMap, seatId: string) => {
  const {
    type: _type,
    col: _col,
    rowLabel: _rowLabel,
    pairId: _pairId,
    ...state
  } = map.seats.find((s) => s.id === seatId)!;
  return state;
};

async function hold(app: FastifyInstance, who: SignedIn, showtimeId: string, seatIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/showtimes/${showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { bookingIds: string[]; expiresAt: string };
}

describe.each(engines)('seat-map cache on %s', (engine) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  let f: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    alice = await signedInUser(t.app, { name: 'Alice' });
    bob = await signedInUser(t.app, { name: 'Bob' });
    f = await createShowtimeFixture(t.app.database.db, { rows: 4, cols: 6 });
  });
  afterAll(() => t.close());

  it('shows a hold to everyone at once, and heldByMe only to its holder, though the map was cached', async () => {
    const seat = f.seatIds[0]![0]!;
    expect(seatOf(await seatMap(t.app, f.showtimeId), seat).status).toBe('AVAILABLE');
    expect(seatOf(await seatMap(t.app, f.showtimeId, alice), seat).status).toBe('AVAILABLE');
    const held = await hold(t.app, alice, f.showtimeId, [seat]);

    expect(seatOf(await seatMap(t.app, f.showtimeId), seat)).toEqual({
      id: seat,
      row: 1,
      number: 1,
      status: 'HELD',
    });
    expect(seatOf(await seatMap(t.app, f.showtimeId, bob), seat)).not.toHaveProperty('heldByMe');
    expect(seatOf(await seatMap(t.app, f.showtimeId, alice), seat)).toEqual({
      id: seat,
      row: 1,
      number: 1,
      status: 'HELD',
      heldByMe: true,
      bookingId: held.bookingIds[0],
      expiresAt: held.expiresAt,
    });
  });

  it('asks who is reading only when somebody holds seats in the map (no token looked at otherwise)', async () => {
    const other = await createShowtimeFixture(t.app.database.db, {
      hallId: f.hallId,
      startsAt: new Date(Date.now() + 5 * 24 * 3600 * 1000),
    });
    let asked = 0;
    const viewer = (holdsSeats: (userId: string) => boolean) => {
      asked++;
      return holdsSeats(alice.id) ? alice.id : null;
    };
    await t.app.seatMaps.body(other.showtimeId, viewer, false);
    expect(asked).toBe(0);
    const held = await hold(t.app, alice, other.showtimeId, [other.seatIds[1]![1]!]);
    const { body } = await t.app.seatMaps.body(other.showtimeId, viewer, false);
    expect(asked).toBe(1);
    const mine = (JSON.parse(body.toString()) as SeatMap).seats.find((s) => s.id === other.seatIds[1]![1]);
    expect(mine).toMatchObject({ status: 'HELD', heldByMe: true, bookingId: held.bookingIds[0] });
  });

  it('frees a cancelled hold in the map at once', async () => {
    const seat = f.seatIds[0]![2]!;
    const { bookingIds } = await hold(t.app, bob, f.showtimeId, [seat]);
    expect(seatOf(await seatMap(t.app, f.showtimeId), seat).status).toBe('HELD');
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/showtimes/bookings/cancel',
      headers: bob.headers,
      payload: { bookingIds },
    });
    expect(res.json()).toEqual({ ok: true, cancelled: 1 });
    expect(seatOf(await seatMap(t.app, f.showtimeId), seat).status).toBe('AVAILABLE');
  });

  it('shows the extended expiry after checkout starts, and CONFIRMED once paid', async () => {
    const seats = [f.seatIds[1]![0]!, f.seatIds[1]![1]!];
    const { bookingIds, expiresAt } = await hold(t.app, alice, f.showtimeId, seats);
    expect(seatOf(await seatMap(t.app, f.showtimeId, alice), seats[0]!).expiresAt).toBe(expiresAt);

    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: alice.headers,
      payload: { bookingIds },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const extended = seatOf(await seatMap(t.app, f.showtimeId, alice), seats[0]!).expiresAt!;
    // The payment window (30 minutes) instead of the hold's 10.
    expect(new Date(extended).getTime() - new Date(expiresAt).getTime()).toBeGreaterThan(15 * 60_000);

    const { sessionId } = checkout.json() as { sessionId: string };
    const paid = await t.app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(paid.statusCode).toBe(303);
    for (const who of [undefined, alice]) {
      const map = await seatMap(t.app, f.showtimeId, who);
      expect(seats.map((id) => seatOf(map, id))).toEqual(
        seats.map((id, i) => ({ id, row: 2, number: i + 1, status: 'CONFIRMED' })),
      );
    }
  });

  it('never keeps a map read while a hold was committing', async () => {
    // Reads race each hold; whatever they cached, the first read after the 201 must see the hold.
    for (let i = 0; i < 6; i++) {
      const seat = f.seatIds[2]![i]!;
      const reads = Array.from({ length: 5 }, () => seatMap(t.app, f.showtimeId));
      await hold(t.app, bob, f.showtimeId, [seat]);
      await Promise.all(reads);
      expect(seatOf(await seatMap(t.app, f.showtimeId), seat).status).toBe('HELD');
    }
  });

  it('sends a much-read map gzipped to browsers, the same map, and never a stale or personal one', async () => {
    const seat = f.seatIds[3]![5]!;
    // Compressed off the event loop once it has been read often enough; until then it goes out as it is.
    let read = await browserRead(t.app, f.showtimeId);
    for (let i = 0; i < GZIP_AFTER_READS + 50 && !read.gzipped; i++) {
      if (i >= GZIP_AFTER_READS) await sleep(10);
      read = await browserRead(t.app, f.showtimeId);
    }
    expect(read.gzipped).toBe(true);
    expect(read.map).toEqual(await seatMap(t.app, f.showtimeId));
    expect(seatOf(read.map, seat).status).toBe('AVAILABLE');

    // Only to clients that accept it.
    for (const refusal of ['identity', 'gzip;q=0, identity', 'br', '*;q=0']) {
      expect((await browserRead(t.app, f.showtimeId, { 'accept-encoding': refusal })).gzipped).toBe(false);
    }
    expect((await browserRead(t.app, f.showtimeId, { 'accept-encoding': 'GZIP;q=0.5' })).gzipped).toBe(true);

    // A holder gets their own map (heldByMe), uncompressed; everyone else sees the hold at once, not the old map.
    const { bookingIds } = await hold(t.app, alice, f.showtimeId, [seat]);
    const mine = await browserRead(t.app, f.showtimeId, alice.headers);
    expect(mine.gzipped).toBe(false);
    expect(seatOf(mine.map, seat)).toMatchObject({
      status: 'HELD',
      heldByMe: true,
      bookingId: bookingIds[0],
    });
    for (const who of [{}, bob.headers]) {
      const after = await browserRead(t.app, f.showtimeId, who);
      expect(seatOf(after.map, seat)).toEqual({ id: seat, row: 4, number: 6, status: 'HELD' });
    }
  });

  it('answers 404 once its showtime is deleted, though its map was cached', async () => {
    const other = await createShowtimeFixture(t.app.database.db, {
      rows: 1,
      cols: 2,
      startsAt: new Date(Date.now() + 60 * 24 * 3600 * 1000),
    });
    await seatMap(t.app, other.showtimeId);
    const admin = await signedInAdmin(t.app);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/showtimes/${other.showtimeId}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: `/api/showtimes/${other.showtimeId}/seats` });
    expect(gone.statusCode).toBe(404);
  });
});

describe.each(engines)('seat-map cache and hold expiry on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { ...QUIET, HOLD_MINUTES: '0.02' }); // 1.2 seconds
  });
  afterAll(() => t.close());

  it('shows a hold until expiresAt and AVAILABLE from then on, with no sweep and no change announced', async () => {
    const f = await createShowtimeFixture(t.app.database.db);
    const carol = await signedInUser(t.app);
    const seat = f.allSeatIds[0]!;
    const { expiresAt } = await hold(t.app, carol, f.showtimeId, [seat]);
    const expiry = new Date(expiresAt).getTime();

    // Read repeatedly while it is held: the map stays cached and says HELD...
    while (Date.now() < expiry - 150) {
      expect(seatOf(await seatMap(t.app, f.showtimeId, carol), seat)).toMatchObject({
        status: 'HELD',
        heldByMe: true,
      });
      await new Promise((r) => setTimeout(r, 50));
    }
    // ...and the first read past the boundary says AVAILABLE.
    await new Promise((r) => setTimeout(r, Math.max(0, expiry - Date.now()) + 5));
    expect(seatOf(await seatMap(t.app, f.showtimeId, carol), seat)).toEqual({
      id: seat,
      row: 1,
      number: 1,
      status: 'AVAILABLE',
    });
    // The sweeper's broadcast changes nothing a reader sees.
    expect(await sweepExpiredHolds(t.app.deps)).toBe(1);
    expect(seatOf(await seatMap(t.app, f.showtimeId), seat).status).toBe('AVAILABLE');
  });
});

describe.skipIf(!postgresUrl || !redisUrl)('seat-map cache across two processes sharing Redis', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let f: ShowtimeFixture;
  let dave: SignedIn;

  beforeAll(async () => {
    a = await createTestApp('postgres', { ...QUIET, REDIS_URL: redisUrl! });
    b = await buildApp(
      testConfig({ DATABASE_URL: a.url!, DATA_DIR: 'memory://', ...QUIET, REDIS_URL: redisUrl! }),
    );
    await b.ready();
    f = await createShowtimeFixture(a.app.database.db);
    dave = await signedInUser(a.app);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a hold made through A shows in B’s cached map at once, and so does its cancel', async () => {
    const seat = f.seatIds[0]![0]!;
    expect(seatOf(await seatMap(b, f.showtimeId, dave), seat).status).toBe('AVAILABLE');
    // Straight after A's answer, as the web app refetches after a hold: B must not serve its cached map.
    const { bookingIds } = await hold(a.app, dave, f.showtimeId, [seat]);
    expect(seatOf(await seatMap(b, f.showtimeId, dave), seat)).toMatchObject({
      status: 'HELD',
      heldByMe: true,
    });
    expect(seatOf(await seatMap(b, f.showtimeId), seat).status).toBe('HELD');

    const res = await a.app.inject({
      method: 'DELETE',
      url: '/api/showtimes/bookings/cancel',
      headers: dave.headers,
      payload: { bookingIds },
    });
    expect(res.json()).toEqual({ ok: true, cancelled: 1 });
    expect(seatOf(await seatMap(b, f.showtimeId, dave), seat).status).toBe('AVAILABLE');
  });

  it('a checkout started through A (no seats_update) shows its extended expiry in B’s map at once', async () => {
    const seat = f.seatIds[2]![0]!;
    const { bookingIds, expiresAt } = await hold(a.app, dave, f.showtimeId, [seat]);
    expect(seatOf(await seatMap(b, f.showtimeId, dave), seat).expiresAt).toBe(expiresAt);
    const checkout = await a.app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: dave.headers,
      payload: { bookingIds },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const extended = seatOf(await seatMap(b, f.showtimeId, dave), seat).expiresAt!;
    expect(new Date(extended).getTime() - new Date(expiresAt).getTime()).toBeGreaterThan(15 * 60_000);
  });

  it('a payment confirmed through A shows as CONFIRMED in B’s cached map at once', async () => {
    const seat = f.seatIds[1]![0]!;
    const { bookingIds } = await hold(a.app, dave, f.showtimeId, [seat]);
    const checkout = await a.app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: dave.headers,
      payload: { bookingIds },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(seatOf(await seatMap(b, f.showtimeId), seat).status).toBe('HELD');
    const { sessionId } = checkout.json() as { sessionId: string };
    expect((await a.app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` })).statusCode).toBe(
      303,
    );
    expect(seatOf(await seatMap(b, f.showtimeId), seat).status).toBe('CONFIRMED');
  });

  it('a hold expired and swept by A is AVAILABLE in B’s map', async () => {
    const seat = f.seatIds[3]![0]!;
    const { bookingIds } = await hold(a.app, dave, f.showtimeId, [seat]);
    expect(seatOf(await seatMap(b, f.showtimeId), seat).status).toBe('HELD');
    // The hold runs out (as if its time had come) and A's sweeper marks it EXPIRED and broadcasts.
    await a.app.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 millisecond'` })
      .where(inArray(bookings.id, bookingIds));
    expect(await sweepExpiredHolds(a.app.deps)).toBe(1);
    // No response waits on a sweep: its change is shared within a Redis round trip.
    await a.app.seatMaps.settled();
    expect(seatOf(await seatMap(b, f.showtimeId), seat).status).toBe('AVAILABLE');
  });

  it('a showtime deleted through A is a 404 in B, though B had its map', async () => {
    const other = await createShowtimeFixture(a.app.database.db, {
      rows: 1,
      cols: 2,
      startsAt: new Date(Date.now() + 90 * 24 * 3600 * 1000),
    });
    await seatMap(b, other.showtimeId);
    const admin = await signedInAdmin(a.app);
    const res = await a.app.inject({
      method: 'DELETE',
      url: `/api/admin/showtimes/${other.showtimeId}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await b.inject({ method: 'GET', url: `/api/showtimes/${other.showtimeId}/seats` })).statusCode,
    ).toBe(404);
  });
});
