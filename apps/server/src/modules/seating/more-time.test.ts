import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bookings } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', HOLD_MINUTES: '10' };

describe.each(engines)('“More time” for a hold on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: SignedIn;
  let bob: SignedIn;
  let show: ShowtimeFixture;

  const hold = async (who: SignedIn, seatIds: string[]) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/showtimes/${show.showtimeId}/hold`,
      headers: who.headers,
      payload: { seatIds },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { bookingIds: string[]; expiresAt: string };
  };
  const moreTime = (who: SignedIn, bookingIds: string[]) =>
    app.inject({
      method: 'POST',
      url: '/api/showtimes/bookings/more-time',
      headers: who.headers,
      payload: { bookingIds },
    });

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    alice = await signedInUser(app);
    bob = await signedInUser(app);
    show = await createShowtimeFixture(app.database.db, { rows: 2, cols: 6 });
  });
  afterAll(() => t.close());

  it('gives another HOLD_MINUTES once, tells the holder’s maps, and refuses a second time', async () => {
    const held = await hold(alice, show.seatIds[0]!.slice(0, 2));
    const stale = vi.fn();
    app.events.subscribe('seatMapStale', stale);
    const res = await moreTime(alice, held.bookingIds);
    expect(res.statusCode, res.body).toBe(200);
    const { expiresAt, extended } = res.json() as { expiresAt: string; extended: number };
    expect(extended).toBe(2);
    const gained = new Date(expiresAt).getTime() - new Date(held.expiresAt).getTime();
    expect(gained).toBeGreaterThan(9.9 * 60_000);
    expect(gained).toBeLessThan(10.1 * 60_000);
    expect(stale).toHaveBeenCalledWith({ showtimeId: show.showtimeId });
    // The seat map the holder reads says so.
    const map = await app.inject({
      method: 'GET',
      url: `/api/showtimes/${show.showtimeId}/seats`,
      headers: alice.headers,
    });
    expect(JSON.stringify(map.json())).toContain(expiresAt.slice(0, 16));

    const again = await moreTime(alice, held.bookingIds);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'more_time_used' });
  });

  it('never lets a hold live past HOLD_MINUTES + 30 minutes, nor touches someone else’s or a dead hold', async () => {
    const held = await hold(alice, [show.seatIds[1]![0]!]);
    // A hold made 35 minutes ago and still live (extended for payment): More time only reaches the cap.
    await app.database.db
      .update(bookings)
      .set({ createdAt: sql`now() - interval '35 minutes'`, expiresAt: sql`now() + interval '2 minutes'` })
      .where(inArray(bookings.id, held.bookingIds));
    const capped = await moreTime(alice, held.bookingIds);
    expect(capped.statusCode, capped.body).toBe(200);
    const [row] = await app.database.db.select().from(bookings).where(eq(bookings.id, held.bookingIds[0]!));
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBe(40 * 60_000);

    const other = await hold(alice, [show.seatIds[1]![3]!]);
    const stranger = await moreTime(bob, other.bookingIds);
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json()).toMatchObject({ code: 'hold_expired' });
    await app.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(inArray(bookings.id, other.bookingIds));
    const dead = await moreTime(alice, other.bookingIds);
    expect(dead.json()).toMatchObject({ code: 'hold_expired' });
    expect((await moreTime(alice, ['not-an-id'])).statusCode).toBe(400);
  });
});
