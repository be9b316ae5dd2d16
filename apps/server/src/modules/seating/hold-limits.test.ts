import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

// DESIGN §6.1: at most MAX_HELD_SEATS live held seats per customer across every showtime (always on), and at most
// MAX_HELD_SEATS_PER_ADDRESS from one client address across all its accounts (off with RATE_LIMIT=off). A refused
// hold holds nothing.

const hold = (
  app: FastifyInstance,
  show: ShowtimeFixture,
  who: SignedIn,
  seatIds: string[],
  from = '203.0.113.7',
) =>
  app.inject({
    method: 'POST',
    url: `/api/showtimes/${show.showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
    remoteAddress: from,
  });

const liveHeld = async (app: FastifyInstance, userId?: string) => {
  const [row] = await app.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(
      and(
        eq(bookings.status, 'HELD'),
        gt(bookings.expiresAt, sql`now()`),
        userId ? eq(bookings.userId, userId) : undefined,
      ),
    );
  return row!.n;
};

describe.each(engines)('hold limits across showtimes on %s', (engine) => {
  describe('per customer (MAX_HELD_SEATS=10, the default)', () => {
    let t: TestApp;
    const shows: ShowtimeFixture[] = [];
    beforeAll(async () => {
      t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
      for (let i = 0; i < 5; i++)
        shows.push(await createShowtimeFixture(t.app.database.db, { rows: 6, cols: 10 }));
    });
    afterAll(() => t.close());

    it('counts every showtime: 6 + 4 seats held, the 11th refused naming the limit, nothing written', async () => {
      const cathy = await signedInUser(t.app);
      expect((await hold(t.app, shows[0]!, cathy, shows[0]!.seatIds[0]!.slice(0, 6))).statusCode).toBe(201);
      expect((await hold(t.app, shows[1]!, cathy, shows[1]!.seatIds[0]!.slice(0, 4))).statusCode).toBe(201);
      const refused = await hold(t.app, shows[2]!, cathy, [shows[2]!.seatIds[0]![0]!]);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        error: 'You can hold at most 10 seats at a time (you hold 10). Pay for or cancel some first.',
        code: 'hold_limit',
        scope: 'customer',
        held: 10,
        max: 10,
      });
      expect(await liveHeld(t.app, cathy.id)).toBe(10);
      // Cancelling frees room under the cap.
      const mine = await t.app.database.db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.userId, cathy.id), eq(bookings.showtimeId, shows[1]!.showtimeId)));
      const cancelled = await t.app.inject({
        method: 'DELETE',
        url: '/api/showtimes/bookings/cancel',
        headers: cathy.headers,
        payload: { bookingIds: mine.map((b) => b.id) },
      });
      expect(cancelled.json()).toEqual({ ok: true, cancelled: 4 });
      expect((await hold(t.app, shows[2]!, cathy, shows[2]!.seatIds[0]!.slice(0, 4))).statusCode).toBe(201);
    });

    it('holds exactly 10 seats when one customer sends 20 holds of 2 seats to five showtimes at once', async () => {
      const hoarder = await signedInUser(t.app);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const show = shows[i % 5]!;
          const row = 1 + Math.floor(i / 5);
          return hold(t.app, show, hoarder, show.seatIds[row]!.slice(2 * (i % 5), 2 * (i % 5) + 2));
        }),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(5);
      expect(statuses.filter((s) => s === 409)).toHaveLength(15);
      expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json().code === 'hold_limit')).toBe(
        true,
      );
      expect(await liveHeld(t.app, hoarder.id)).toBe(10);
    });
  });

  describe('per client address (MAX_HELD_SEATS_PER_ADDRESS=12 here)', () => {
    let t: TestApp;
    let show: ShowtimeFixture;
    beforeAll(async () => {
      t = await createTestApp(engine, {
        MAX_HELD_SEATS_PER_ADDRESS: '12',
        TRUST_PROXY: '1',
        SWEEP_SECONDS: '3600',
      });
      show = await createShowtimeFixture(t.app.database.db, { rows: 6, cols: 10 });
    });
    afterAll(() => t.close());

    it('lets ten accounts from one address hold 12 seats between them, racing, and no more', async () => {
      const accounts = await Promise.all(Array.from({ length: 10 }, () => signedInUser(t.app)));
      const answers = await Promise.all(
        accounts.map((who, i) =>
          hold(
            t.app,
            show,
            who,
            show.seatIds[i % 6]!.slice(5 * Math.floor(i / 6), 5 * Math.floor(i / 6) + 3),
          ),
        ),
      );
      const won = answers.filter((a) => a.statusCode === 201);
      expect(won).toHaveLength(4);
      const refused = answers.filter((a) => a.statusCode === 409).map((a) => a.json());
      expect(refused).toHaveLength(6);
      for (const r of refused) {
        expect(r).toEqual({
          error:
            'Too many seats are held from your network right now (at most 12). Please try again once some are paid for or released.',
          code: 'hold_limit',
          scope: 'address',
        });
      }
      expect(await liveHeld(t.app)).toBe(12);
    });

    it('counts the client behind one trusted proxy by its forwarded address, not the proxy’s', async () => {
      const far = await signedInUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/showtimes/${show.showtimeId}/hold`,
        headers: { ...far.headers, 'x-forwarded-for': '198.51.100.20' },
        payload: { seatIds: show.seatIds[5]!.slice(6, 9) },
        remoteAddress: '203.0.113.7', // the proxy, whose own budget is spent
      });
      expect(res.statusCode).toBe(201);
    });
  });

  it('lifts the per-address limit with RATE_LIMIT=off, but never the customer’s', async () => {
    const t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      MAX_HELD_SEATS_PER_ADDRESS: '2',
      MAX_HELD_SEATS: '3',
    });
    try {
      const show = await createShowtimeFixture(t.app.database.db, { rows: 2, cols: 10 });
      const [a, b] = [await signedInUser(t.app), await signedInUser(t.app)];
      expect((await hold(t.app, show, a, show.seatIds[0]!.slice(0, 3))).statusCode).toBe(201);
      expect((await hold(t.app, show, b, show.seatIds[1]!.slice(0, 3))).statusCode).toBe(201);
      const fourth = await hold(t.app, show, a, [show.seatIds[0]![5]!]);
      expect(fourth.json()).toMatchObject({ code: 'hold_limit', scope: 'customer', held: 3, max: 3 });
    } finally {
      await t.close();
    }
  });
});
