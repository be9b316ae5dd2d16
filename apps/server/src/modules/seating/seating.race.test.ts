import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { io as connect } from 'socket.io-client';
import type { HallLayoutResponse, SeatsUpdate } from '@cinema/contract';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { bookings } from '../../db/schema/index.ts';
import { createShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  postgresUrl,
  redisUrl,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { drawRow } from '../halls/demo-halls.ts';
import { sweepExpiredHolds } from './sweeper.ts';

if (!postgresUrl)
  console.warn('seating.race.test.ts skipped: races need a real PostgreSQL (set TEST_DATABASE_URL).');
if (postgresUrl && !redisUrl) {
  console.warn('seating.race.test.ts: the two-process broadcast test is skipped (set TEST_REDIS_URL).');
}

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };

interface HoldResult {
  status: number;
  body: { bookingIds?: string[]; code?: string; seatIds?: string[] };
  seatIds: string[];
  user: SignedIn;
}

async function holdOverHttp(
  base: string,
  showtimeId: string,
  user: SignedIn,
  seatIds: string[],
): Promise<HoldResult> {
  const res = await fetch(`${base}/api/showtimes/${showtimeId}/hold`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ seatIds }),
  });
  return { status: res.status, body: (await res.json()) as HoldResult['body'], seatIds, user };
}

const users = (app: FastifyInstance, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => signedInUser(app, { name: `Racer ${i}` })));

/** A second server process's worth of app on the same database (its own pool, sockets and sweeper). */
async function secondInstance(databaseUrl: string, env: Record<string, string> = {}) {
  const app = await buildApp(
    testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: 'memory://', ...QUIET, ...env }),
  );
  await app.ready();
  return app;
}

describe.skipIf(!postgresUrl)('seat races on real PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp('postgres', QUIET);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('30 customers racing for one sofa (and for its halves): one holds it whole, nobody ever holds half', async () => {
    const admin = await signedInUser(t.app, { role: 'ADMIN' });
    const hallRes = await t.app.inject({
      method: 'POST',
      url: '/api/admin/halls',
      headers: admin.headers,
      payload: {
        name: `Sofa race ${Date.now()}`,
        layout: { rows: [drawRow('A', '==.wc'), drawRow('B', 'ssss')] },
      },
    });
    expect(hallRes.statusCode, hallRes.body).toBe(201);
    const hall = hallRes.json() as HallLayoutResponse;
    const f = await createShowtimeFixture(t.app.database.db, { hallId: hall.id });
    const ids = hall.rows[0]!.cells.flatMap((c) => (c.kind === 'SEAT' ? [c.id!] : []));
    const [left, right, space, companion] = ids as [string, string, string, string];
    const racers = await users(t.app, 30);
    // Most ask for the whole sofa; some try a half, some the wheelchair space with its companion, some the companion.
    const asks = racers.map((_, i) =>
      i % 5 === 0
        ? [left]
        : i % 5 === 1
          ? [right]
          : i % 5 === 2
            ? [space, companion]
            : i % 5 === 3
              ? [companion]
              : [left, right],
    );
    const results = await Promise.all(racers.map((u, i) => holdOverHttp(base, f.showtimeId, u, asks[i]!)));
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const won = results.filter((r) => r.status === 201);
    const sofaWinners = won.filter((r) => r.seatIds.includes(left) || r.seatIds.includes(right));
    expect(sofaWinners).toHaveLength(1);
    expect(sofaWinners[0]!.seatIds.sort()).toEqual([left, right].sort());
    expect(won.filter((r) => r.seatIds.includes(space))).toHaveLength(1);
    for (const r of results.filter((x) => x.seatIds.length === 1)) {
      expect(r.body.code).toMatch(/^(sofa_pair|companion_needs_wheelchair)$/);
    }
    const live = await t.app.database.db
      .select({ seatId: bookings.seatId, userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])));
    const holderOf = new Map(live.map((b) => [b.seatId, b.userId]));
    expect(holderOf.get(left)).toBe(holderOf.get(right));
    expect(holderOf.get(space)).toBe(holderOf.get(companion));
  });

  it('50 customers holding the same ten seats at once: one wins, the others get 409 naming all ten, never a 500', async () => {
    const f = await createShowtimeFixture(t.app.database.db, { rows: 5, cols: 12 });
    // Ten seats, the most one hold may ask for: a refused hold looks at each of them, one after the other, while
    // the winner commits; it must still name every one of them as taken, not only those it looked at last.
    const wanted = f.seatIds[2]!.slice(1, 11);
    const racers = await users(t.app, 50);
    // Each racer lists the seats in its own order: the server's fixed locking order must prevent deadlocks.
    const results = await Promise.all(
      racers.map((u, i) => holdOverHttp(base, f.showtimeId, u, i % 2 ? [...wanted].reverse() : wanted)),
    );

    const winners = results.filter((r) => r.status === 201);
    const losers = results.filter((r) => r.status !== 201);
    expect(winners).toHaveLength(1);
    expect(losers.map((r) => r.status)).toEqual(Array(49).fill(409));
    for (const l of losers) {
      expect(l.body.code).toBe('seat_unavailable');
      expect([...l.body.seatIds!].sort()).toEqual([...wanted].sort());
    }
    const live = await t.app.database.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])));
    expect(live).toHaveLength(10);
    expect(new Set(live.map((b) => b.userId))).toEqual(new Set([winners[0]!.user.id]));
    expect(live.map((b) => b.id).sort()).toEqual([...winners[0]!.body.bookingIds!].sort());
  });

  it('overlapping random seat sets from many customers: no seat held twice, no deadlock, no 500', async () => {
    const f = await createShowtimeFixture(t.app.database.db, { rows: 4, cols: 6 });
    const pool = f.allSeatIds; // 24 seats, 120 requests of 1-6 seats: heavy overlap
    const racers = await users(t.app, 40);
    const requests = Array.from({ length: 120 }, (_, i) => {
      const size = 1 + (i % 6);
      const picked = new Set<string>();
      while (picked.size < size) picked.add(pool[Math.floor(Math.random() * pool.length)]!);
      return holdOverHttp(base, f.showtimeId, racers[i % racers.length]!, [...picked]);
    });
    const results = await Promise.all(requests);

    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(['seat_unavailable', 'hold_limit']).toContain(r.body.code);
    }
    const doubled = await t.app.database.db
      .select({ seatId: bookings.seatId })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])))
      .groupBy(bookings.seatId)
      .having(sql`count(*) > 1`);
    expect(doubled).toEqual([]);

    // What the winners were told is exactly what the database holds.
    const winners = results.filter((r) => r.status === 201);
    expect(winners.length).toBeGreaterThan(0);
    const toldHeld = winners.flatMap((w) => w.seatIds).sort();
    const live = await t.app.database.db
      .select({ seatId: bookings.seatId, userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), eq(bookings.status, 'HELD')));
    expect(live.map((b) => b.seatId).sort()).toEqual(toldHeld);
    // A seat a loser was refused is held by someone.
    const heldSet = new Set(toldHeld);
    for (const r of results.filter((x) => x.body.code === 'seat_unavailable')) {
      expect(r.body.seatIds!.length).toBeGreaterThan(0);
      for (const id of r.body.seatIds!) expect(heldSet.has(id)).toBe(true);
    }
  });

  it('one customer’s simultaneous holds cannot get past the 10-seat limit', async () => {
    const f = await createShowtimeFixture(t.app.database.db);
    const [greedy] = await users(t.app, 1);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        holdOverHttp(base, f.showtimeId, greedy!, f.allSeatIds.slice(i * 3, i * 3 + 3)),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(
      Array(5).fill('hold_limit'),
    );
    const live = await t.app.database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), eq(bookings.status, 'HELD')));
    expect(live).toHaveLength(9);
  });

  it('two processes sweeping at once expire each hold exactly once and announce it once', async () => {
    const other = await secondInstance(t.url!);
    try {
      const f = await createShowtimeFixture(t.app.database.db, { rows: 20, cols: 40 }); // 800 seats, > one batch
      const [owner] = await users(t.app, 1);
      await t.app.database.db.insert(bookings).values(
        f.allSeatIds.map((seatId) => ({
          showtimeId: f.showtimeId,
          seatId,
          userId: owner!.id,
          status: 'HELD' as const,
          expiresAt: sql`now() - interval '1 second'`,
          priceCents: 1200,
        })),
      );
      const announced: string[] = [];
      for (const app of [t.app, other]) {
        app.realtime.broadcastSeats = (update: SeatsUpdate) => {
          announced.push(...update.seats.filter((s) => s.status === 'AVAILABLE').map((s) => s.id));
        };
      }

      const counts = await Promise.all([
        sweepExpiredHolds(t.app.deps),
        sweepExpiredHolds(other.deps),
        sweepExpiredHolds(t.app.deps),
        sweepExpiredHolds(other.deps),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(800);
      expect(announced).toHaveLength(800);
      expect(new Set(announced).size).toBe(800);
      const statuses = await t.app.database.db
        .select({ status: bookings.status, n: sql<number>`count(*)::int` })
        .from(bookings)
        .where(eq(bookings.showtimeId, f.showtimeId))
        .groupBy(bookings.status);
      expect(statuses).toEqual([{ status: 'EXPIRED', n: 800 }]);
    } finally {
      await other.close();
    }
  });
});

describe.skipIf(!postgresUrl || !redisUrl)('two server processes sharing Redis', () => {
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp('postgres', { ...QUIET, REDIS_URL: redisUrl! });
    second = await secondInstance(t.url!, { REDIS_URL: redisUrl! });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('a client of one process receives seats_update for a hold made through the other', async () => {
    const firstUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
    expect(firstUrl).not.toBe(secondUrl);
    const f = await createShowtimeFixture(t.app.database.db);
    const customer = await signedInUser(t.app);
    const client = connect(firstUrl, { transports: ['websocket'], forceNew: true, reconnection: false });
    try {
      const received = new Promise<SeatsUpdate>((resolve) => client.on('seats_update', resolve));
      expect(await client.timeout(5000).emitWithAck('join_showtime', f.showtimeId)).toEqual({ ok: true });

      const seatIds = [f.seatIds[0]![0]!, f.seatIds[0]![1]!];
      const res = await holdOverHttp(secondUrl, f.showtimeId, customer, seatIds);
      expect(res.status).toBe(201);
      const update = await Promise.race([
        received,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('no seats_update within 5 s')), 5000),
        ),
      ]);
      expect(update.showtimeId).toBe(f.showtimeId);
      expect(update.seats.map((s) => s.id).sort()).toEqual([...seatIds].sort());
      expect(update.seats.every((s) => s.status === 'HELD')).toBe(true);
    } finally {
      client.disconnect();
    }
  });
});
