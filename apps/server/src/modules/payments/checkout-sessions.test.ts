import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PAYMENT_WINDOW_MINUTES } from '@cinema/contract';
import { bookings, orders } from '../../db/schema/index.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

// DESIGN §6.1: one open checkout session per booking; cancelling holds closes their sessions; a closed session is
// never paid; checkout extends a hold once, and a hold lives at most HOLD_MINUTES + 30 minutes.
const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', HOLD_MINUTES: '10' };

async function hold(app: FastifyInstance, who: SignedIn, show: ShowtimeFixture, seatIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/showtimes/${show.showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
  });
  expect(res.statusCode).toBe(201);
  return res.json().bookingIds as string[];
}
async function checkout(app: FastifyInstance, who: SignedIn, bookingIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/pay/checkout',
    headers: who.headers,
    payload: { bookingIds },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sessionId: string; url: string };
}
const cancelHolds = (app: FastifyInstance, who: SignedIn, bookingIds: string[]) =>
  app.inject({
    method: 'DELETE',
    url: '/api/showtimes/bookings/cancel',
    headers: who.headers,
    payload: { bookingIds },
  });
const payLocal = (app: FastifyInstance, sessionId: string) =>
  app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
const rows = (app: FastifyInstance, ids: string[]) =>
  app.database.db.select().from(bookings).where(inArray(bookings.id, ids));
const sessionRow = async (app: FastifyInstance, id: string) =>
  (await app.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

describe.each(engines)('checkout sessions with the local provider on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let show: ShowtimeFixture;
  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    show = await createShowtimeFixture(app.database.db, { rows: 4, cols: 8 });
  });
  afterAll(() => t.close());

  it('never revives cancelled holds: Hold → Checkout → Cancel holds → the old page’s Pay is refused', async () => {
    const cathy = await signedInUser(app);
    const ids = await hold(app, cathy, show, show.seatIds[0]!.slice(0, 2));
    const { sessionId } = await checkout(app, cathy, ids);
    expect((await cancelHolds(app, cathy, ids)).json()).toEqual({ ok: true, cancelled: 2 });
    expect((await sessionRow(app, sessionId)).status).toBe('CANCELLED');

    const page = await app.inject({ method: 'GET', url: `/api/pay/local/${sessionId}` });
    expect(page.body).toContain('This checkout was cancelled and its seats were released.');
    expect(page.body).not.toContain('>Pay</button>');
    const pay = await payLocal(app, sessionId);
    expect(pay.statusCode).toBe(409);
    expect(pay.body).toContain('This checkout was cancelled');
    expect((await rows(app, ids)).map((b) => b.status)).toEqual(['CANCELLED', 'CANCELLED']);
    const tickets = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: cathy.headers });
    expect(tickets.json().tickets).toEqual([]);
  });

  it('keeps one open session per hold: a new Checkout replaces the old one, which can no longer be paid', async () => {
    const dan = await signedInUser(app);
    const ids = await hold(app, dan, show, show.seatIds[1]!.slice(0, 2));
    const first = await checkout(app, dan, ids);
    const second = await checkout(app, dan, ids);
    expect((await sessionRow(app, first.sessionId)).status).toBe('SUPERSEDED');
    expect((await sessionRow(app, second.sessionId)).status).toBe('OPEN');

    const old = await payLocal(app, first.sessionId);
    expect(old.statusCode).toBe(409);
    expect(old.body).toContain('This checkout was replaced by a newer one for the same seats.');
    expect((await rows(app, ids)).map((b) => b.status)).toEqual(['HELD', 'HELD']);
    const lookup = await app.inject({
      method: 'GET',
      url: `/api/pay/lookup?session_id=${first.sessionId}`,
      headers: dan.headers,
    });
    expect(lookup.json().status).toBe('expired');

    expect((await payLocal(app, second.sessionId)).statusCode).toBe(303);
    expect((await rows(app, ids)).map((b) => b.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
  });

  it('extends a hold to the payment window once, however often Checkout is pressed', async () => {
    const erin = await signedInUser(app);
    const ids = await hold(app, erin, show, [show.seatIds[2]![0]!]);
    const held = (await rows(app, ids))[0]!;
    const first = await checkout(app, erin, ids);
    const extended = (await rows(app, ids))[0]!;
    expect(extended.expiresAt!.getTime()).toBe((await sessionRow(app, first.sessionId)).expiresAt.getTime());
    expect(extended.expiresAt!.getTime() - held.expiresAt!.getTime()).toBeGreaterThan(20 * 60_000);
    expect(extended.extendedAt).not.toBeNull();

    await checkout(app, erin, ids);
    await checkout(app, erin, ids);
    expect((await rows(app, ids))[0]!.expiresAt!.getTime()).toBe(extended.expiresAt!.getTime());
  });

  it('never lets a hold live past HOLD_MINUTES + 30 minutes from the moment it was made', async () => {
    const fay = await signedInUser(app);
    const ids = await hold(app, fay, show, [show.seatIds[2]![2]!]);
    // The hold was made 35 minutes ago and, say, an extension of the hold itself kept it alive until now.
    await app.database.db
      .update(bookings)
      .set({ createdAt: sql`now() - interval '35 minutes'` })
      .where(inArray(bookings.id, ids));
    await checkout(app, fay, ids);
    const [b] = await rows(app, ids);
    const lifeMinutes = (b!.expiresAt!.getTime() - b!.createdAt.getTime()) / 60_000;
    expect(lifeMinutes).toBeCloseTo(10 + PAYMENT_WINDOW_MINUTES, 5);
  });
});

describe.each(engines)('checkout sessions with Stripe (fake API) on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let stripe: FakeStripe;
  let show: ShowtimeFixture;
  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    t = await createTestApp(engine, { ...QUIET, ...stripe.env('https://cinema.test') });
    app = t.app;
    show = await createShowtimeFixture(app.database.db, { rows: 3, cols: 8 });
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });

  const expired = async (providerSessionId: string) => {
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      if (stripe.calls('POST', `/v1/checkout/sessions/${providerSessionId}/expire`).length > 0) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  };

  it('expires the replaced Stripe session and the one whose holds were cancelled, through Stripe’s API', async () => {
    const gus = await signedInUser(app);
    const ids = await hold(app, gus, show, show.seatIds[0]!.slice(0, 2));
    // With Stripe the checkout answers with Stripe's own session id.
    const firstStripe = (await checkout(app, gus, ids)).sessionId;
    const secondStripe = (await checkout(app, gus, ids)).sessionId;
    expect([firstStripe, secondStripe]).toEqual([
      expect.stringMatching(/^cs_test_/),
      expect.stringMatching(/^cs_test_/),
    ]);
    expect(await expired(firstStripe)).toBe(true);
    expect(stripe.sessions.get(firstStripe)!.status).toBe('expired');
    expect(stripe.sessions.get(secondStripe)!.status).toBe('open');

    expect((await cancelHolds(app, gus, ids)).json().cancelled).toBe(2);
    const [second] = await app.database.db
      .select()
      .from(orders)
      .where(eq(orders.providerSessionId, secondStripe));
    expect(second!.status).toBe('CANCELLED');
    expect(await expired(secondStripe)).toBe(true);
    expect(stripe.sessions.get(secondStripe)!.status).toBe('expired');
  });
});
