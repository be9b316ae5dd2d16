import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import type { FastifyInstance } from 'fastify';
import type { SeatMap, SeatsUpdate } from '@cinema/contract';
import { bookings } from '../../db/schema/index.ts';
import { createShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';
import { getSeatMap } from './seating.service.ts';
import { sweepExpiredHolds } from './sweeper.ts';

// The periodic sweeper stays out of the way; tests call sweepExpiredHolds themselves.
// The per-customer cap across showtimes is tested in hold-limits.test.ts; these customers hold in many showtimes.
const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', MAX_HELD_SEATS: '1000' };

const seatMap = async (app: FastifyInstance, showtimeId: string, who?: SignedIn) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/showtimes/${showtimeId}/seats`,
    headers: who?.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as SeatMap;
};
const statusOf = (map: SeatMap, seatId: string) => map.seats.find((s) => s.id === seatId)!.status;

const hold = (app: FastifyInstance, showtimeId: string, who: SignedIn | undefined, seatIds: unknown) =>
  app.inject({
    method: 'POST',
    url: `/api/showtimes/${showtimeId}/hold`,
    headers: who?.headers,
    payload: { seatIds },
  });

const cancel = (app: FastifyInstance, who: SignedIn | undefined, bookingIds: unknown) =>
  app.inject({
    method: 'DELETE',
    url: '/api/showtimes/bookings/cancel',
    headers: who?.headers,
    payload: { bookingIds },
  });

async function liveBookingsOf(app: FastifyInstance, seatIds: string[]) {
  return app.database.db.select().from(bookings).where(inArray(bookings.seatId, seatIds));
}

/** A socket.io client on the app's real port, joined to a showtime room. */
async function watcher(url: string, showtimeId: string) {
  const socket = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  const updates: SeatsUpdate[] = [];
  socket.on('seats_update', (u: SeatsUpdate) => updates.push(u));
  const ack = await socket.timeout(5000).emitWithAck('join_showtime', showtimeId);
  return { socket, updates, ack };
}

async function waitFor<T>(check: () => T | undefined, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(engines)('seat map and holds on %s', (engine) => {
  let t: TestApp;
  let url: string;
  let alice: SignedIn;
  let bob: SignedIn;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    alice = await signedInUser(t.app, { name: 'Alice' });
    bob = await signedInUser(t.app, { name: 'Bob' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  const fixture = (opts?: Parameters<typeof createShowtimeFixture>[1]) =>
    createShowtimeFixture(t.app.database.db, opts);

  describe('GET /api/showtimes/:id/seats', () => {
    it('lists every seat of the hall in row and number order with the showtime, all available at first', async () => {
      const f = await fixture({ rows: 3, cols: 4, priceCents: 1450 });
      const map = await seatMap(t.app, f.showtimeId);
      expect(map.showtime).toMatchObject({
        id: f.showtimeId,
        priceCents: 1450,
        auditoriumId: f.hallId,
        auditorium: expect.stringContaining('Fixture hall'),
        movie: { id: f.movieId, title: 'Fixture Movie' },
      });
      expect(new Date(map.showtime.startsAt).getTime()).toBeGreaterThan(Date.now());
      expect(map.seats.map((s) => [s.row, s.number])).toEqual(
        [1, 2, 3].flatMap((r) => [1, 2, 3, 4].map((n) => [r, n])),
      );
      expect(map.seats.every((s) => s.status === 'AVAILABLE' && s.heldByMe === undefined)).toBe(true);
    });

    it('shows held and sold seats to everyone, and heldByMe with the booking only to the holder', async () => {
      const f = await fixture();
      const [a, b, sold] = [f.seatIds[0]![0]!, f.seatIds[0]![1]!, f.seatIds[1]![0]!];
      const res = await hold(t.app, f.showtimeId, alice, [a, b]);
      expect(res.statusCode).toBe(201);
      const { bookingIds, expiresAt } = res.json();
      await t.app.database.db.insert(bookings).values({
        showtimeId: f.showtimeId,
        seatId: sold,
        userId: bob.id,
        status: 'CONFIRMED',
        priceCents: 1200,
      });

      const mine = await seatMap(t.app, f.showtimeId, alice);
      const heldSeats = mine.seats.filter((s) => s.status === 'HELD');
      expect(heldSeats.map((s) => s.id).sort()).toEqual([a, b].sort());
      expect(heldSeats.every((s) => s.heldByMe === true && s.expiresAt === expiresAt)).toBe(true);
      expect(heldSeats.map((s) => s.bookingId).sort()).toEqual([...bookingIds].sort());
      expect(statusOf(mine, sold)).toBe('CONFIRMED');

      for (const viewer of [bob, undefined]) {
        const theirs = await seatMap(t.app, f.showtimeId, viewer);
        expect(statusOf(theirs, a)).toBe('HELD');
        expect(statusOf(theirs, sold)).toBe('CONFIRMED');
        expect(theirs.seats.some((s) => s.heldByMe || s.bookingId || s.expiresAt)).toBe(false);
      }
    });

    it('marks a holder’s seats only while their session lives: a signed-out token sees what everybody sees', async () => {
      const f = await fixture();
      const carol = await signedInUser(t.app, { name: 'Carol' });
      const seat = f.seatIds[0]![0]!;
      // Read once before holding anything (the server now knows whose token this is), then hold.
      expect((await seatMap(t.app, f.showtimeId, carol)).seats.some((s) => s.heldByMe)).toBe(false);
      expect((await hold(t.app, f.showtimeId, carol, [seat])).statusCode).toBe(201);
      expect((await seatMap(t.app, f.showtimeId, carol)).seats.find((s) => s.id === seat)).toMatchObject({
        status: 'HELD',
        heldByMe: true,
        bookingId: expect.any(String),
      });

      const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: carol.headers });
      expect(out.statusCode).toBeLessThan(300);
      const after = await seatMap(t.app, f.showtimeId, carol);
      expect(statusOf(after, seat)).toBe('HELD');
      expect(after.seats.some((s) => s.heldByMe || s.bookingId || s.expiresAt)).toBe(false);
      expect((await hold(t.app, f.showtimeId, carol, [f.seatIds[0]![1]!])).statusCode).toBe(401);
      // A token nobody ever had reads the map as a visitor too.
      const forged = await t.app.inject({
        method: 'GET',
        url: `/api/showtimes/${f.showtimeId}/seats`,
        headers: { authorization: 'Bearer not-a-session' },
      });
      expect(forged.statusCode).toBe(200);
      expect((forged.json() as SeatMap).seats.some((s) => s.heldByMe)).toBe(false);
    });

    it('answers an unknown showtime with 404 and a malformed id with 400', async () => {
      const unknown = await t.app.inject({ method: 'GET', url: `/api/showtimes/${randomUUID()}/seats` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ error: 'Showtime not found', code: 'not_found' });
      const bad = await t.app.inject({ method: 'GET', url: '/api/showtimes/not-a-uuid/seats' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'bad_request', error: expect.any(String) });
    });
  });

  describe('POST /api/showtimes/:id/hold', () => {
    it('holds the seats until now + HOLD_MINUTES and stores one HELD booking per seat', async () => {
      const f = await fixture();
      const seatIds = [f.seatIds[2]![3]!, f.seatIds[2]![4]!];
      const before = Date.now();
      const res = await hold(t.app, f.showtimeId, alice, seatIds);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.bookingIds).toHaveLength(2);
      const expires = new Date(body.expiresAt).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + 10 * 60_000 - 2000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 2000);
      const rows = await liveBookingsOf(t.app, seatIds);
      expect(rows.map((r) => [r.status, r.userId, r.priceCents])).toEqual([
        ['HELD', alice.id, 1200],
        ['HELD', alice.id, 1200],
      ]);
      expect(rows.map((r) => r.id).sort()).toEqual([...body.bookingIds].sort());
    });

    it('refuses a hold that includes a taken seat with 409 naming it, and holds none of the others', async () => {
      const f = await fixture();
      const [taken, free] = [f.seatIds[0]![0]!, f.seatIds[0]![1]!];
      expect((await hold(t.app, f.showtimeId, alice, [taken])).statusCode).toBe(201);

      const res = await hold(t.app, f.showtimeId, bob, [free, taken]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'seat_unavailable',
        error: 'Some seats are no longer available',
        seatIds: [taken],
      });
      const map = await seatMap(t.app, f.showtimeId, bob);
      expect(statusOf(map, free)).toBe('AVAILABLE');
      expect((await liveBookingsOf(t.app, [free])).length).toBe(0);
      // The holder asking again for her own seat is also told it is not available.
      expect((await hold(t.app, f.showtimeId, alice, [taken])).json()).toMatchObject({
        code: 'seat_unavailable',
        seatIds: [taken],
      });
    });

    it('refuses sold seats with 409', async () => {
      const f = await fixture();
      const sold = f.seatIds[3]![3]!;
      await t.app.database.db.insert(bookings).values({
        showtimeId: f.showtimeId,
        seatId: sold,
        userId: bob.id,
        status: 'CONFIRMED',
        priceCents: 1200,
      });
      const res = await hold(t.app, f.showtimeId, alice, [sold]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'seat_unavailable', seatIds: [sold] });
    });

    it('rejects bad requests with 400, visitors with 401 and unknown showtimes with 404', async () => {
      const f = await fixture();
      const other = await fixture();
      const seat = f.allSeatIds[0]!;
      const cases: [unknown, RegExp][] = [
        [[], /at least one seat/i],
        [[seat, seat], /only once/i],
        [[seat, seat.toUpperCase()], /only once/i],
        [f.allSeatIds.slice(0, 11), /at most 10 seats/i],
        [['nope'], /invalid id/i],
        ['not-an-array', /./],
      ];
      for (const [seatIds, message] of cases) {
        const res = await hold(t.app, f.showtimeId, alice, seatIds);
        expect(res.statusCode, JSON.stringify(seatIds)).toBe(400);
        expect(res.json().error).toMatch(message);
      }
      const foreign = other.allSeatIds[0]!;
      const res = await hold(t.app, f.showtimeId, alice, [seat, foreign]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request', seatIds: [foreign] });
      const noBody = await t.app.inject({
        method: 'POST',
        url: `/api/showtimes/${f.showtimeId}/hold`,
        headers: alice.headers,
      });
      expect(noBody.statusCode).toBe(400);

      expect((await hold(t.app, f.showtimeId, undefined, [seat])).statusCode).toBe(401);
      const unknown = await hold(t.app, randomUUID(), alice, [seat]);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'not_found' });
      expect((await hold(t.app, 'garbage', alice, [seat])).statusCode).toBe(400);
      // Nothing was held by any of these.
      expect((await liveBookingsOf(t.app, [seat, foreign])).length).toBe(0);
    });

    it('allows at most 10 live holds per user per showtime, counting earlier holds', async () => {
      const f = await fixture();
      const seats = f.allSeatIds;
      expect((await hold(t.app, f.showtimeId, alice, seats.slice(0, 6))).statusCode).toBe(201);
      const tooMany = await hold(t.app, f.showtimeId, alice, seats.slice(6, 11));
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json()).toMatchObject({
        code: 'hold_limit',
        error: expect.stringMatching(/at most 10/),
      });
      expect((await hold(t.app, f.showtimeId, alice, seats.slice(6, 10))).statusCode).toBe(201);
      const eleventh = await hold(t.app, f.showtimeId, alice, [seats[10]]);
      expect(eleventh.statusCode).toBe(409);
      expect(eleventh.json().code).toBe('hold_limit');
      // Another customer is not affected, and another showtime has its own limit.
      expect((await hold(t.app, f.showtimeId, bob, [seats[10]])).statusCode).toBe(201);
      const g = await fixture();
      expect((await hold(t.app, g.showtimeId, alice, g.allSeatIds.slice(0, 10))).statusCode).toBe(201);

      // Holds that expired no longer count.
      await t.app.database.db
        .update(bookings)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(bookings.showtimeId, f.showtimeId));
      expect((await hold(t.app, f.showtimeId, alice, seats.slice(20, 30))).statusCode).toBe(201);
    });

    it('tells a customer at the limit that a taken seat is taken, and writes nothing for a refused hold', async () => {
      const f = await fixture();
      const seats = f.allSeatIds;
      expect((await hold(t.app, f.showtimeId, bob, [seats[20]])).statusCode).toBe(201);
      expect((await hold(t.app, f.showtimeId, alice, seats.slice(0, 10))).statusCode).toBe(201);
      const before = await liveBookingsOf(t.app, seats);

      const taken = await hold(t.app, f.showtimeId, alice, [seats[20], seats[21]]);
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'seat_unavailable', seatIds: [seats[20]] });
      const free = await hold(t.app, f.showtimeId, alice, [seats[21]]);
      expect(free.json().code).toBe('hold_limit');
      expect(await liveBookingsOf(t.app, seats)).toEqual(before);
    });

    it('refuses holds once the showtime has started', async () => {
      const f = await fixture({ startsAt: new Date(Date.now() - 60_000) });
      const res = await hold(t.app, f.showtimeId, alice, [f.allSeatIds[0]]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'showtime_started',
        error: 'This showtime has already started',
      });
      expect((await liveBookingsOf(t.app, [f.allSeatIds[0]!])).length).toBe(0);
    });
  });

  describe('DELETE /api/showtimes/bookings/cancel', () => {
    it('cancels only the caller’s own live holds and frees their seats', async () => {
      const f = await fixture();
      const [a1, a2, b1, sold] = f.seatIds[4]!;
      const mine = (await hold(t.app, f.showtimeId, alice, [a1, a2])).json().bookingIds as string[];
      const bobs = (await hold(t.app, f.showtimeId, bob, [b1])).json().bookingIds as string[];
      const [ticket] = await t.app.database.db
        .insert(bookings)
        .values({
          showtimeId: f.showtimeId,
          seatId: sold!,
          userId: alice.id,
          status: 'CONFIRMED',
          priceCents: 1200,
        })
        .returning();

      const nothing = await cancel(t.app, alice, [...bobs, ticket!.id, randomUUID()]);
      expect(nothing.statusCode).toBe(200);
      expect(nothing.json()).toEqual({ ok: true, cancelled: 0 });

      const res = await cancel(t.app, alice, [...mine, ticket!.id]);
      expect(res.json()).toEqual({ ok: true, cancelled: 2 });
      const map = await seatMap(t.app, f.showtimeId, bob);
      expect([a1, a2, b1, sold].map((id) => statusOf(map, id!))).toEqual([
        'AVAILABLE',
        'AVAILABLE',
        'HELD',
        'CONFIRMED',
      ]);
      expect((await cancel(t.app, alice, mine)).json()).toEqual({ ok: true, cancelled: 0 });
      // The freed seats can be held again at once.
      expect((await hold(t.app, f.showtimeId, bob, [a1, a2])).statusCode).toBe(201);
    });

    it('rejects visitors with 401 and bad ids with 400', async () => {
      expect((await cancel(t.app, undefined, [randomUUID()])).statusCode).toBe(401);
      for (const bad of [[], ['x'], 'x']) {
        const res = await cancel(t.app, alice, bad);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'bad_request' });
      }
    });
  });

  describe('expiry', () => {
    it('stops counting a hold at expiresAt exactly', async () => {
      const f = await fixture();
      const seat = f.allSeatIds[0]!;
      expect((await hold(t.app, f.showtimeId, alice, [seat])).statusCode).toBe(201);
      // Inside one transaction now() does not move: expires_at = now() is the exact boundary.
      const atBoundary = await t.app.database.db.transaction(async (tx) => {
        await tx
          .update(bookings)
          .set({ expiresAt: sql`now()` })
          .where(eq(bookings.seatId, seat));
        return getSeatMap(tx, f.showtimeId, alice.id, 'UTC');
      });
      expect(statusOf(atBoundary, seat)).toBe('AVAILABLE');
      const justBefore = await t.app.database.db.transaction(async (tx) => {
        await tx
          .update(bookings)
          .set({ expiresAt: sql`now() + interval '1 millisecond'` })
          .where(eq(bookings.seatId, seat));
        return getSeatMap(tx, f.showtimeId, alice.id, 'UTC');
      });
      expect(justBefore.seats.find((s) => s.id === seat)).toMatchObject({ status: 'HELD', heldByMe: true });
    });

    it('lets another customer hold a seat whose hold expired before the sweeper ran', async () => {
      const f = await fixture();
      const seat = f.allSeatIds[5]!;
      const first = (await hold(t.app, f.showtimeId, alice, [seat])).json().bookingIds[0];
      await t.app.database.db
        .update(bookings)
        .set({ expiresAt: sql`now() - interval '1 millisecond'` })
        .where(eq(bookings.id, first));
      expect(statusOf(await seatMap(t.app, f.showtimeId, alice), seat)).toBe('AVAILABLE');
      expect((await cancel(t.app, alice, [first])).json()).toEqual({ ok: true, cancelled: 0 });

      const res = await hold(t.app, f.showtimeId, bob, [seat]);
      expect(res.statusCode).toBe(201);
      const rows = await liveBookingsOf(t.app, [seat]);
      expect(rows.find((r) => r.id === first)!.status).toBe('EXPIRED');
      expect(rows.find((r) => r.id === res.json().bookingIds[0])!.status).toBe('HELD');
      expect(statusOf(await seatMap(t.app, f.showtimeId), seat)).toBe('HELD');
    });

    it('expires holds after HOLD_MINUTES without any sweep', async () => {
      const short = await createTestApp(engine, { ...QUIET, HOLD_MINUTES: '0.02' }); // 1.2 seconds
      try {
        const f = await createShowtimeFixture(short.app.database.db);
        const carol = await signedInUser(short.app);
        const dave = await signedInUser(short.app);
        const seat = f.allSeatIds[0]!;
        const res = await hold(short.app, f.showtimeId, carol, [seat]);
        expect(res.statusCode).toBe(201);
        const expiresAt = new Date(res.json().expiresAt).getTime();
        expect(statusOf(await seatMap(short.app, f.showtimeId), seat)).toBe('HELD');
        expect((await hold(short.app, f.showtimeId, dave, [seat])).statusCode).toBe(409);
        await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));
        expect(statusOf(await seatMap(short.app, f.showtimeId), seat)).toBe('AVAILABLE');
        expect((await hold(short.app, f.showtimeId, dave, [seat])).statusCode).toBe(201);
      } finally {
        await short.close();
      }
    });
  });

  describe('real time', () => {
    it('joins only existing showtimes: garbage and unknown ids get an error acknowledgement', async () => {
      const f = await fixture();
      for (const id of ['garbage', 42, null, randomUUID()]) {
        const w = await watcher(url, id as string);
        sockets.push(w.socket);
        expect(w.ack).toMatchObject({ ok: false, error: expect.any(String) });
      }
      const ok = await watcher(url, f.showtimeId);
      sockets.push(ok.socket);
      expect(ok.ack).toEqual({ ok: true });
    });

    it('sends seats_update to the showtime room on hold and cancel, and not to other rooms', async () => {
      const f = await fixture();
      const other = await fixture();
      const watching = await watcher(url, f.showtimeId);
      const elsewhere = await watcher(url, other.showtimeId);
      const unjoined = await watcher(url, randomUUID());
      sockets.push(watching.socket, elsewhere.socket, unjoined.socket);
      const seatIds = [f.seatIds[1]![1]!, f.seatIds[1]![2]!];

      const held = (await hold(t.app, f.showtimeId, alice, seatIds)).json().bookingIds;
      const onHold = await waitFor(() => watching.updates[0]);
      expect(onHold.showtimeId).toBe(f.showtimeId);
      expect(onHold.seats.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [...seatIds].sort().map((id) => ({ id, status: 'HELD' })),
      );

      await cancel(t.app, alice, held);
      const onCancel = await waitFor(() => watching.updates[1]);
      expect(onCancel.seats.map((s) => s.status)).toEqual(['AVAILABLE', 'AVAILABLE']);
      expect(onCancel.seats.map((s) => s.id).sort()).toEqual([...seatIds].sort());

      // A failed hold changes nothing and says nothing.
      await hold(t.app, other.showtimeId, alice, [other.allSeatIds[0]]);
      await hold(t.app, other.showtimeId, bob, [other.allSeatIds[0]]);
      await waitFor(() => elsewhere.updates[0]);
      await new Promise((r) => setTimeout(r, 100));
      expect(watching.updates).toHaveLength(2);
      expect(elsewhere.updates).toHaveLength(1);
      expect(unjoined.updates).toHaveLength(0);
    });

    it('moves a socket to the new room when it joins another showtime', async () => {
      const f = await fixture();
      const g = await fixture();
      const w = await watcher(url, f.showtimeId);
      sockets.push(w.socket);
      expect(await w.socket.timeout(5000).emitWithAck('join_showtime', g.showtimeId)).toEqual({ ok: true });
      await hold(t.app, f.showtimeId, alice, [f.allSeatIds[0]]);
      await hold(t.app, g.showtimeId, alice, [g.allSeatIds[0]]);
      const update = await waitFor(() => w.updates[0]);
      await new Promise((r) => setTimeout(r, 100));
      expect(update.showtimeId).toBe(g.showtimeId);
      expect(w.updates).toHaveLength(1);
    });

    it('sweeps expired holds: marks them EXPIRED once and broadcasts the freed seats', async () => {
      const f = await fixture();
      const w = await watcher(url, f.showtimeId);
      sockets.push(w.socket);
      const expiring = [f.seatIds[3]![0]!, f.seatIds[3]![1]!];
      const lasting = f.seatIds[3]![2]!;
      const ids = (await hold(t.app, f.showtimeId, alice, expiring)).json().bookingIds as string[];
      await hold(t.app, f.showtimeId, bob, [lasting]);
      await waitFor(() => w.updates[1]);
      await t.app.database.db
        .update(bookings)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(inArray(bookings.id, ids));

      expect(await sweepExpiredHolds(t.app.deps)).toBeGreaterThanOrEqual(2);
      const rows = await liveBookingsOf(t.app, [...expiring, lasting]);
      expect(rows.filter((r) => ids.includes(r.id)).map((r) => r.status)).toEqual(['EXPIRED', 'EXPIRED']);
      expect(rows.find((r) => r.seatId === lasting)!.status).toBe('HELD');

      const freed = await waitFor(() => w.updates[2]);
      expect(freed).toEqual({
        showtimeId: f.showtimeId,
        seats: expect.arrayContaining(expiring.map((id) => ({ id, status: 'AVAILABLE' }))),
      });
      expect(freed.seats).toHaveLength(2);
      expect(await sweepExpiredHolds(t.app.deps)).toBe(0);
      expect(statusOf(await seatMap(t.app, f.showtimeId), expiring[0]!)).toBe('AVAILABLE');
    });
  });
});

describe('hold rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { SWEEP_SECONDS: '3600' });
  });
  afterAll(() => t.close());

  it('limits holds per customer, not per address, and says so with 429', async () => {
    const eve = await signedInUser(t.app);
    const frank = await signedInUser(t.app);
    const seat = randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await hold(t.app, randomUUID(), eve, [seat])).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses[60]).toBe(429);
    const limited = await hold(t.app, randomUUID(), eve, [seat]);
    expect(limited.json()).toMatchObject({ code: 'too_many_requests' });
    expect((await hold(t.app, randomUUID(), frank, [seat])).statusCode).toBe(404);
  });
});
