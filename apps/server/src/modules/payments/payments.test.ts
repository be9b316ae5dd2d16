import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LookupResponse, SeatMap, Ticket } from '@cinema/contract';
import { bookings, orders, orderRefunds } from '../../db/schema/index.ts';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

// No rate limits and no periodic sweeper: the tests expire holds themselves.
const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };
const PRICE = 1350;

async function hold(app: FastifyInstance, who: SignedIn, showtimeId: string, seatIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/showtimes/${showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { bookingIds: string[] }).bookingIds;
}

const checkout = (app: FastifyInstance, who: SignedIn | undefined, bookingIds: unknown) =>
  app.inject({ method: 'POST', url: '/api/pay/checkout', headers: who?.headers, payload: { bookingIds } });

async function startCheckout(app: FastifyInstance, who: SignedIn, bookingIds: string[]) {
  const res = await checkout(app, who, bookingIds);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sessionId: string; url: string };
}

const lookup = (app: FastifyInstance, who: SignedIn | undefined, sessionId: string) =>
  app.inject({
    method: 'GET',
    url: `/api/pay/lookup?session_id=${encodeURIComponent(sessionId)}`,
    headers: who?.headers,
  });

async function lookupOk(app: FastifyInstance, who: SignedIn, sessionId: string) {
  const res = await lookup(app, who, sessionId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LookupResponse;
}

async function seatStatuses(app: FastifyInstance, showtimeId: string, seatIds: string[]) {
  const res = await app.inject({ method: 'GET', url: `/api/showtimes/${showtimeId}/seats` });
  const map = res.json() as SeatMap;
  return seatIds.map((id) => map.seats.find((s) => s.id === id)!.status);
}

const bookingRows = (app: FastifyInstance, ids: string[]) =>
  app.database.db.select().from(bookings).where(inArray(bookings.id, ids)).orderBy(bookings.id);

/** What the sweeper does when a hold runs out. */
const expireHolds = (app: FastifyInstance, ids: string[]) =>
  app.database.db
    .update(bookings)
    .set({ status: 'EXPIRED', expiresAt: sql`now() - interval '1 minute'` })
    .where(inArray(bookings.id, ids));

const seatsOf = (tickets: Ticket[]) => tickets.map(({ seat: { row, number } }) => ({ row, number }));

describe.each(engines)('payments with the local provider on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: SignedIn;
  let bob: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine, { ...QUIET, PUBLIC_URL: 'https://cinema.test' });
    app = t.app;
    alice = await signedInUser(app, { name: 'Alice' });
    bob = await signedInUser(app, { name: 'Bob' });
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 4, cols: 6 });
  });
  afterAll(() => t.close());

  it('starts a checkout for my holds, priced from the showtime, with the holds extended to the payment window', async () => {
    const ids = await hold(app, alice, show.showtimeId, [show.seatIds[0]![0]!, show.seatIds[0]![1]!]);
    const { sessionId, url } = await startCheckout(app, alice, ids);
    expect(url).toBe(`https://cinema.test/api/pay/local/${sessionId}`);

    const [session] = await app.database.db.select().from(orders).where(eq(orders.id, sessionId));
    expect(session).toMatchObject({ provider: 'local', status: 'OPEN', amountCents: 2 * PRICE });
    const minutesLeft = (session!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(30);
    expect(minutesLeft).toBeLessThan(32);
    for (const b of await bookingRows(app, ids)) {
      expect(b.status).toBe('HELD');
      expect(b.expiresAt!.getTime()).toBe(session!.expiresAt.getTime());
    }
  });

  it('shows a hosted test page with movie, hall, seats and total, then Pay confirms and goes to the success page', async () => {
    const seatIds = [show.seatIds[1]![2]!, show.seatIds[1]![3]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId, url } = await startCheckout(app, alice, ids);

    const page = await app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Test payment — no real card is charged');
    expect(page.body).toContain('Fixture Movie');
    expect(page.body).toMatch(/Fixture hall [0-9a-f]{8}/);
    expect(page.body).toContain('Row B Seat 3');
    expect(page.body).toContain('Row B Seat 4');
    expect(page.body).toContain('$27.00');
    expect(page.body).toContain('>Pay</button>');
    expect(page.body).toContain('>Decline</button>');
    // Cancel changes state, so it is a form posted, never a link followed.
    expect(page.body).toContain(
      `<form method="post" action="/api/pay/local/${sessionId}/cancel" class="cancel-form"><button type="submit" class="link">Cancel</button></form>`,
    );
    expect(page.body).not.toContain(`href="/api/pay/local/${sessionId}/cancel"`);

    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');
    const pay = await app.inject({
      method: 'POST',
      url: `/api/pay/local/${sessionId}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`/checkout/success?session_id=${sessionId}`);
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect(broadcast).toHaveBeenCalledWith({
      showtimeId: show.showtimeId,
      seats: expect.arrayContaining(seatIds.map((id) => ({ id, status: 'CONFIRMED' }))),
    });

    const result = await lookupOk(app, alice, sessionId);
    expect(result.status).toBe('paid');
    expect(result.refundedSeats).toEqual([]);
    expect(seatsOf(result.tickets)).toEqual([
      { row: 2, number: 3 },
      { row: 2, number: 4 },
    ]);
    expect(result.tickets[0]).toMatchObject({
      bookingId: expect.any(String),
      movie: { title: 'Fixture Movie', rating: 'PG', durationMinutes: 100 },
      auditorium: expect.stringMatching(/^Fixture hall/),
      checkedInAt: null,
    });
    expect(result.tickets.map((x) => x.bookingId).sort()).toEqual([...ids].sort());

    // Paying again (a double click) changes nothing.
    const confirmedAt = (await bookingRows(app, ids)).map((b) => b.confirmedAt!.getTime());
    broadcast.mockClear();
    const again = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(again.statusCode).toBe(303);
    expect((await bookingRows(app, ids)).map((b) => b.confirmedAt!.getTime())).toEqual(confirmedAt);
    expect(broadcast).not.toHaveBeenCalled();

    const mine = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: alice.headers });
    expect(mine.statusCode).toBe(200);
    const myIds = (mine.json() as { tickets: Ticket[] }).tickets.map((x) => x.bookingId);
    expect(myIds).toEqual(expect.arrayContaining(ids));
  });

  it('Decline says the card was declined and leaves the seats held and unsold; the customer can still pay', async () => {
    const seatIds = [show.seatIds[2]![0]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);

    // Post/redirect/get: the browser's history holds the page, not the form (Back never resubmits it).
    const declined = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/decline` });
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(`/api/pay/local/${sessionId}?notice=declined`);
    const shown = await app.inject({ method: 'GET', url: declined.headers.location as string });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Your card was declined');
    expect(shown.body).toContain('>Pay</button>');
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['HELD']);
    expect((await lookupOk(app, alice, sessionId)).status).toBe('pending');
    expect((await bookingRows(app, ids))[0]!.status).toBe('HELD');

    const pay = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(pay.statusCode).toBe(303);
    expect((await lookupOk(app, alice, sessionId)).status).toBe('paid');
  });

  it('Cancel releases the holds and goes to the cancel page; the session can no longer be paid', async () => {
    const seatIds = [show.seatIds[2]![3]!, show.seatIds[2]![4]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');

    // A GET of the old cancel address only shows the page.
    const looked = await app.inject({ method: 'GET', url: `/api/pay/local/${sessionId}/cancel` });
    expect(looked.statusCode).toBe(200);
    expect(looked.body).toContain('>Pay</button>');
    expect((await bookingRows(app, ids)).map((b) => b.status)).toEqual(['HELD', 'HELD']);

    const cancel = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/cancel` });
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe('/checkout/cancel');
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE', 'AVAILABLE']);
    expect((await bookingRows(app, ids)).map((b) => b.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(broadcast).toHaveBeenCalledWith({
      showtimeId: show.showtimeId,
      seats: expect.arrayContaining(seatIds.map((id) => ({ id, status: 'AVAILABLE' }))),
    });
    expect((await lookupOk(app, alice, sessionId)).status).toBe('cancelled');

    const pay = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(pay.statusCode).toBe(409);
    expect(pay.body).toContain('This checkout was cancelled');
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE', 'AVAILABLE']);
  });

  it('an unpaid local session past its window expires: the lookup says so and the seats are free', async () => {
    const seatIds = [show.seatIds[3]![0]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    await app.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(orders.id, sessionId));

    expect((await lookupOk(app, alice, sessionId)).status).toBe('expired');
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE']);
    const pay = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(pay.statusCode).toBe(409);
    expect(pay.body).toContain('This checkout has expired');
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE']);
  });

  it('refuses to check out what is not a live hold of mine', async () => {
    const [bobs] = await hold(app, bob, show.showtimeId, [show.seatIds[3]![1]!]);
    // Someone else's booking is answered exactly like one that does not exist.
    const other = await checkout(app, alice, [bobs]);
    const nobodys = await checkout(app, alice, ['00000000-0000-4000-8000-000000000000']);
    expect(other.statusCode).toBe(404);
    expect(nobodys.statusCode).toBe(404);
    expect(other.json()).toEqual({ ...nobodys.json(), bookingIds: [bobs] });

    const [stale] = await hold(app, alice, show.showtimeId, [show.seatIds[3]![2]!]);
    await app.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(bookings.id, stale!));
    const expired = await checkout(app, alice, [stale]);
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({
      code: 'hold_expired',
      error: expect.stringContaining('Row D Seat 3'),
      bookingIds: [stale],
    });

    const [paid] = await hold(app, alice, show.showtimeId, [show.seatIds[3]![3]!]);
    const { sessionId } = await startCheckout(app, alice, [paid!]);
    await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    const twice = await checkout(app, alice, [paid]);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'already_paid' });

    const unknown = await checkout(app, alice, ['00000000-0000-4000-8000-000000000000']);
    expect(unknown.statusCode).toBe(404);
    expect((await checkout(app, alice, [])).statusCode).toBe(400);
    expect((await checkout(app, alice, ['not-a-uuid'])).statusCode).toBe(400);
    const visitor = await checkout(app, undefined, [paid]);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ error: expect.any(String), code: 'unauthorized' });
    // Nothing above left a session behind for the refused bookings.
    expect((await bookingRows(app, [bobs!]))[0]!.checkoutSessionId).toBeNull();
  });

  it('shows a session only to its owner', async () => {
    const ids = await hold(app, alice, show.showtimeId, [show.seatIds[3]![4]!]);
    const { sessionId } = await startCheckout(app, alice, ids);
    expect((await lookup(app, undefined, sessionId)).statusCode).toBe(401);
    const other = await lookup(app, bob, sessionId);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'not_found' });
    expect((await lookup(app, alice, 'cs_test_nothing')).statusCode).toBe(404);
    const page = await app.inject({ method: 'GET', url: '/api/pay/local/not-a-session' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Checkout not found');
  });
});

describe.each(engines)('payments with Stripe (fake API) on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let stripe: FakeStripe;
  let alice: SignedIn;
  let bob: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    t = await createTestApp(engine, { ...QUIET, ...stripe.env('https://cinema.test') });
    app = t.app;
    alice = await signedInUser(app, { name: 'Alice' });
    bob = await signedInUser(app, { name: 'Bob' });
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 5, cols: 8 });
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });
  beforeEach(() => {
    stripe.requests.length = 0;
  });

  const sendWebhook = (hook: { payload: string; headers: Record<string, string> }) =>
    app.inject({ method: 'POST', url: '/api/pay/webhook', headers: hook.headers, payload: hook.payload });

  // With Stripe, the checkout answer's sessionId is Stripe's own (cs_…), as Stripe.js wants it (DESIGN §6.1).
  const providerSessionOf = async (sessionId: string) => {
    if (sessionId.startsWith('cs_')) return sessionId;
    const [row] = await app.database.db.select().from(orders).where(eq(orders.id, sessionId));
    return row!.providerSessionId!;
  };
  /** Our own id of a checkout session named by Stripe's id. */
  const ourSessionId = async (sessionId: string) => {
    const [row] = await app.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.providerSessionId, sessionId));
    return row!.id;
  };

  it('names the line items in the customer’s language', async () => {
    const ids = await hold(app, bob, show.showtimeId, [show.seatIds[4]![6]!]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: { ...bob.headers, 'accept-language': 'de' },
      payload: { bookingIds: ids },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [call] = stripe.calls('POST', '/v1/checkout/sessions');
    expect(call!.params['line_items[0][price_data][product_data][name]']).toBe(
      'Fixture Movie — Reihe E, Platz 7',
    );
  });

  it('sends the booking fee to Stripe as a line item of its own (DESIGN §7.4)', async () => {
    const admin = await signedInAdmin(app);
    const fee = (perTicketCents: number) => ({
      perTicketCents,
      perOrderCents: 0,
      exemptTicketTypeIds: [],
      refundable: false,
    });
    const put = (cents: number) =>
      app.inject({
        method: 'PUT',
        url: '/api/admin/fees',
        headers: admin.headers,
        payload: { online: fee(cents), counter: fee(0) },
      });
    expect((await put(150)).statusCode).toBe(200);
    try {
      const ids = await hold(app, alice, show.showtimeId, [show.seatIds[2]![2]!, show.seatIds[2]![3]!]);
      const { sessionId } = await startCheckout(app, alice, ids);
      const p = stripe.calls('POST', '/v1/checkout/sessions')[0]!.params;
      expect(p['line_items[2][price_data][product_data][name]']).toBe('Booking fee × 2');
      expect(p['line_items[2][price_data][unit_amount]']).toBe('300');
      expect(stripe.sessions.get(sessionId)!.amount_total).toBe(2 * PRICE + 300);
    } finally {
      expect((await put(0)).statusCode).toBe(200);
    }
  });

  it('creates a Checkout Session with one line item per seat, the payment window and our reference', async () => {
    const ids = await hold(app, alice, show.showtimeId, [show.seatIds[0]![0]!, show.seatIds[2]![6]!]);
    const before = Math.floor(Date.now() / 1000);
    const { sessionId, url } = await startCheckout(app, alice, ids);

    const [call] = stripe.calls('POST', '/v1/checkout/sessions');
    expect(call).toBeDefined();
    expect(call!.headers.authorization).toBe('Bearer sk_test_fake_cinema');
    const p = call!.params;
    expect(p.mode).toBe('payment');
    expect(sessionId).toMatch(/^cs_test_/);
    expect(p.client_reference_id).toBe(await ourSessionId(sessionId));
    expect(p.success_url).toBe('https://cinema.test/checkout/success?session_id={CHECKOUT_SESSION_ID}');
    expect(p.cancel_url).toBe('https://cinema.test/checkout/cancel');
    expect(p['line_items[0][quantity]']).toBe('1');
    expect(p['line_items[0][price_data][unit_amount]']).toBe(String(PRICE));
    expect(p['line_items[0][price_data][currency]']).toBe('usd');
    expect(p['line_items[0][price_data][product_data][name]']).toBe('Fixture Movie — Row A Seat 1');
    expect(p['line_items[1][price_data][product_data][name]']).toBe('Fixture Movie — Row C Seat 7');
    expect(p['line_items[2][quantity]']).toBeUndefined();
    // Stripe's minimum session life is 30 minutes from its own creation of the session.
    const expiresAt = Number(p.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(30 * 60);
    expect(expiresAt - before).toBeLessThanOrEqual(32 * 60);

    const created = stripe.sessions.get(sessionId)!;
    expect(created.amount_total).toBe(2 * PRICE);
    expect(url).toBe(created.url);
    expect(await providerSessionOf(sessionId)).toBe(created.id);
    for (const b of await bookingRows(app, ids)) {
      expect(Math.abs(b.expiresAt!.getTime() / 1000 - expiresAt)).toBeLessThan(1);
    }
  });

  it('confirms the seats on checkout.session.completed, and a replay of the event changes nothing', async () => {
    const seatIds = [show.seatIds[1]![0]!, show.seatIds[1]![1]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const paid = stripe.pay(await providerSessionOf(sessionId), 'pi_completed');
    const hook = stripe.webhook('checkout.session.completed', paid, { eventId: 'evt_completed_1' });
    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');

    const first = await sendWebhook(hook);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect(broadcast).toHaveBeenCalledTimes(1);
    const confirmedAt = (await bookingRows(app, ids)).map((b) => b.confirmedAt!.getTime());

    const replay = await sendWebhook(hook);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(broadcast).toHaveBeenCalledTimes(1);
    expect((await bookingRows(app, ids)).map((b) => b.confirmedAt!.getTime())).toEqual(confirmedAt);

    const result = await lookupOk(app, alice, sessionId);
    expect(result.status).toBe('paid');
    expect(result.tickets).toHaveLength(2);
    expect(stripe.calls('POST', '/v1/refunds')).toHaveLength(0);
    const [session] = await app.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, await ourSessionId(sessionId)));
    expect(session).toMatchObject({ status: 'PAID', providerPaymentId: 'pi_completed' });
  });

  it('answers a badly signed webhook with 400 and changes nothing', async () => {
    const seatIds = [show.seatIds[1]![4]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const paid = stripe.pay(await providerSessionOf(sessionId));

    const forged = stripe.webhook('checkout.session.completed', paid, { secret: 'whsec_someone_else' });
    const res = await sendWebhook(forged);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_signature', error: expect.any(String) });

    const good = stripe.webhook('checkout.session.completed', paid);
    const tampered = await sendWebhook({ ...good, payload: good.payload.replace('"paid"', '"paid" ') });
    expect(tampered.statusCode).toBe(400);
    const unsigned = await app.inject({
      method: 'POST',
      url: '/api/pay/webhook',
      headers: { 'content-type': 'application/json' },
      payload: good.payload,
    });
    expect(unsigned.statusCode).toBe(400);

    expect((await bookingRows(app, ids))[0]!.status).toBe('HELD');
    const [session] = await app.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, await ourSessionId(sessionId)));
    expect(session!.status).toBe('OPEN');
    // The genuine event is still processed afterwards: the forged ones did not use up its id.
    expect((await sendWebhook(good)).statusCode).toBe(200);
    expect((await bookingRows(app, ids))[0]!.status).toBe('CONFIRMED');
  });

  it('releases the holds on checkout.session.expired', async () => {
    const seatIds = [show.seatIds[1]![6]!, show.seatIds[1]![7]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');

    const res = await sendWebhook(
      stripe.webhook('checkout.session.expired', {
        id: await providerSessionOf(sessionId),
        status: 'expired',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE', 'AVAILABLE']);
    expect((await bookingRows(app, ids)).map((b) => b.status)).toEqual(['EXPIRED', 'EXPIRED']);
    expect(broadcast).toHaveBeenCalledWith({
      showtimeId: show.showtimeId,
      seats: expect.arrayContaining(seatIds.map((id) => ({ id, status: 'AVAILABLE' }))),
    });
    expect((await lookupOk(app, alice, sessionId)).status).toBe('expired');
  });

  it('waits for a delayed payment method: completed-but-unpaid does nothing, async_payment_succeeded confirms', async () => {
    const seatIds = [show.seatIds[2]![0]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const cs = await providerSessionOf(sessionId);

    const unpaid = await sendWebhook(
      stripe.webhook('checkout.session.completed', { id: cs, status: 'complete', payment_status: 'unpaid' }),
    );
    expect(unpaid.statusCode).toBe(200);
    expect((await bookingRows(app, ids))[0]!.status).toBe('HELD');
    expect((await lookupOk(app, alice, sessionId)).status).toBe('pending');

    const paid = stripe.pay(cs);
    expect(
      (await sendWebhook(stripe.webhook('checkout.session.async_payment_succeeded', paid))).statusCode,
    ).toBe(200);
    expect((await bookingRows(app, ids))[0]!.status).toBe('CONFIRMED');
  });

  it('confirms a late payment whose hold expired meanwhile when the seat is still free', async () => {
    const seatIds = [show.seatIds[3]![0]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    await expireHolds(app, ids);
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE']);

    const paid = stripe.pay(await providerSessionOf(sessionId));
    expect((await sendWebhook(stripe.webhook('checkout.session.completed', paid))).statusCode).toBe(200);
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['CONFIRMED']);
    const result = await lookupOk(app, alice, sessionId);
    expect(result).toMatchObject({ status: 'paid', refundedSeats: [] });
    expect(seatsOf(result.tickets)).toEqual([{ row: 4, number: 1 }]);
    expect(stripe.calls('POST', '/v1/refunds')).toHaveLength(0);
  });

  it('refunds a late payment for a seat someone else took, confirms the rest and tells the customer', async () => {
    const [lostSeat, keptSeat] = [show.seatIds[3]![2]!, show.seatIds[3]![3]!];
    const ids = await hold(app, alice, show.showtimeId, [lostSeat, keptSeat]);
    const { sessionId } = await startCheckout(app, alice, ids);
    await expireHolds(app, ids);
    const [bobsHold] = await hold(app, bob, show.showtimeId, [lostSeat]);

    const paid = stripe.pay(await providerSessionOf(sessionId), 'pi_late');
    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');
    expect((await sendWebhook(stripe.webhook('checkout.session.completed', paid))).statusCode).toBe(200);

    const refunds = stripe.calls('POST', '/v1/refunds');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.params).toMatchObject({ payment_intent: 'pi_late', amount: String(PRICE) });
    expect(refunds[0]!.headers['idempotency-key']).toBeTruthy();

    expect(await seatStatuses(app, show.showtimeId, [lostSeat, keptSeat])).toEqual(['HELD', 'CONFIRMED']);
    const rows = await bookingRows(app, [...ids, bobsHold!]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(bobsHold!)!.status).toBe('HELD');
    expect(rows.filter((r) => ids.includes(r.id)).map((r) => [r.seatId, r.status])).toEqual(
      expect.arrayContaining([
        [lostSeat, 'REFUNDED'],
        [keptSeat, 'CONFIRMED'],
      ]),
    );
    expect(broadcast).toHaveBeenCalledWith({
      showtimeId: show.showtimeId,
      seats: expect.arrayContaining([{ id: keptSeat, status: 'CONFIRMED' }]),
    });

    const result = await lookupOk(app, alice, sessionId);
    expect(result.status).toBe('paid');
    expect(result.refundedSeats).toEqual([{ row: 4, number: 3, rowLabel: 'D' }]);
    expect(seatsOf(result.tickets)).toEqual([{ row: 4, number: 4 }]);
    const [refund] = await app.database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, await ourSessionId(sessionId)));
    expect(refund).toMatchObject({
      status: 'succeeded',
      amountCents: PRICE,
      providerRefundId: expect.any(String),
    });

    // The replayed event refunds nothing twice.
    await sendWebhook(stripe.webhook('checkout.session.completed', paid));
    await lookupOk(app, alice, sessionId);
    expect(stripe.calls('POST', '/v1/refunds')).toHaveLength(1);
  });

  it('says refunded when every seat of a late payment was taken', async () => {
    const seat = show.seatIds[3]![5]!;
    const ids = await hold(app, alice, show.showtimeId, [seat]);
    const { sessionId } = await startCheckout(app, alice, ids);
    await expireHolds(app, ids);
    await hold(app, bob, show.showtimeId, [seat]);
    stripe.pay(await providerSessionOf(sessionId));

    // Here the customer is back before the webhook: the lookup fulfils (and refunds).
    const result = await lookupOk(app, alice, sessionId);
    expect(result).toMatchObject({ status: 'refunded', tickets: [], refundedSeats: [{ row: 4, number: 6 }] });
    expect(stripe.calls('POST', '/v1/refunds')).toHaveLength(1);
  });

  it('fulfils from the success page before the webhook arrives; the later webhook is a no-op', async () => {
    const seatIds = [show.seatIds[4]![0]!, show.seatIds[4]![1]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const cs = await providerSessionOf(sessionId);

    // Not paid yet: pending, and nothing changes.
    expect((await lookupOk(app, alice, cs)).status).toBe('pending');
    expect(await seatStatuses(app, show.showtimeId, seatIds)).toEqual(['HELD', 'HELD']);

    const paid = stripe.pay(cs);
    // The success URL carries Stripe's own session id.
    const result = await lookupOk(app, alice, cs);
    expect(result.sessionId).toBe(sessionId);
    expect(result.status).toBe('paid');
    expect(result.tickets.map((x) => x.bookingId).sort()).toEqual([...ids].sort());
    expect(stripe.calls('GET', `/v1/checkout/sessions/${cs}`).length).toBeGreaterThanOrEqual(2);
    const confirmedAt = (await bookingRows(app, ids)).map((b) => b.confirmedAt!.getTime());

    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');
    const late = await sendWebhook(stripe.webhook('checkout.session.completed', paid));
    expect(late.statusCode).toBe(200);
    expect(broadcast).not.toHaveBeenCalled();
    expect((await bookingRows(app, ids)).map((b) => b.confirmedAt!.getTime())).toEqual(confirmedAt);
    expect((await lookupOk(app, alice, sessionId)).tickets).toHaveLength(2);
  });

  it('confirms exactly once when the webhook, its redelivery and the success page arrive together', async () => {
    const seatIds = [show.seatIds[4]![3]!, show.seatIds[4]![4]!];
    const ids = await hold(app, alice, show.showtimeId, seatIds);
    const { sessionId } = await startCheckout(app, alice, ids);
    const paid = stripe.pay(await providerSessionOf(sessionId));
    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');

    const results = await Promise.all([
      sendWebhook(stripe.webhook('checkout.session.completed', paid, { eventId: 'evt_race' })),
      sendWebhook(stripe.webhook('checkout.session.completed', paid, { eventId: 'evt_race' })),
      sendWebhook(stripe.webhook('checkout.session.completed', paid)),
      lookup(app, alice, sessionId),
      lookup(app, alice, sessionId),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const confirmations = broadcast.mock.calls.filter(([u]) => u.seats.some((s) => s.status === 'CONFIRMED'));
    expect(confirmations).toHaveLength(1);
    expect((await bookingRows(app, ids)).map((b) => b.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect((await lookupOk(app, alice, sessionId)).tickets).toHaveLength(2);
    expect(stripe.calls('POST', '/v1/refunds')).toHaveLength(0);
  });

  it('lets an admin delete a showtime after an abandoned checkout, and refunds a payment that arrives after that', async () => {
    const other = await createShowtimeFixture(app.database.db, { priceCents: 900, rows: 2, cols: 2 });
    const ids = await hold(app, alice, other.showtimeId, [other.seatIds[1]![1]!]);
    const { sessionId } = await startCheckout(app, alice, ids);
    const cs = await providerSessionOf(sessionId);
    await sendWebhook(stripe.webhook('checkout.session.expired', { id: cs, status: 'expired' }));

    const admin = await signedInUser(app, { role: 'ADMIN' });
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/admin/showtimes/${other.showtimeId}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    // Stripe had taken the money just before the session expired; the event arrives now.
    const paid = stripe.pay(cs, 'pi_after_delete');
    expect((await sendWebhook(stripe.webhook('checkout.session.completed', paid))).statusCode).toBe(200);
    expect(await lookupOk(app, alice, sessionId)).toMatchObject({
      status: 'refunded',
      tickets: [],
      refundedSeats: [{ row: 2, number: 2 }],
    });
    expect(stripe.calls('POST', '/v1/refunds').map((r) => r.params)).toEqual([
      expect.objectContaining({ payment_intent: 'pi_after_delete', amount: '900' }),
    ]);
  });

  it('puts the holds back as they were when Stripe refuses to create the session', async () => {
    const ids = await hold(app, alice, show.showtimeId, [show.seatIds[4]![5]!]);
    const [before] = await bookingRows(app, ids);
    stripe.failNextCreate = true;
    const res = await checkout(app, alice, ids);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'payment_provider_error', error: expect.any(String) });
    const [after] = await bookingRows(app, ids);
    expect(after!.status).toBe('HELD');
    expect(after!.expiresAt!.getTime()).toBe(before!.expiresAt!.getTime());
    expect(after!.checkoutSessionId).toBeNull();
    // And the customer can try again.
    expect((await checkout(app, alice, ids)).statusCode).toBe(200);
  });

  it('refunds a second payment for seats an earlier checkout of the same holds already paid for', async () => {
    const ids = await hold(app, alice, show.showtimeId, [show.seatIds[4]![7]!]);
    const first = await startCheckout(app, alice, ids);
    const second = await startCheckout(app, alice, ids);
    const paidFirst = stripe.pay(await providerSessionOf(first.sessionId), 'pi_first');
    const paidSecond = stripe.pay(await providerSessionOf(second.sessionId), 'pi_second');
    await sendWebhook(stripe.webhook('checkout.session.completed', paidFirst));
    await sendWebhook(stripe.webhook('checkout.session.completed', paidSecond));

    expect((await lookupOk(app, alice, first.sessionId)).tickets).toHaveLength(1);
    expect(await lookupOk(app, alice, second.sessionId)).toMatchObject({
      status: 'refunded',
      tickets: [],
      refundedSeats: [{ row: 5, number: 8 }],
    });
    const refunds = stripe.calls('POST', '/v1/refunds');
    expect(refunds.map((r) => r.params.payment_intent)).toEqual(['pi_second']);
    expect((await bookingRows(app, ids))[0]!.status).toBe('CONFIRMED');
  });
});

describe.each(engines)(
  'Stripe amounts in a currency Stripe counts otherwise than ISO 4217 on %s',
  (engine) => {
    let t: TestApp;
    let stripe: FakeStripe;
    let show: ShowtimeFixture;

    beforeAll(async () => {
      stripe = await new FakeStripe().start();
      // Icelandic krónur have no minor unit (ISO 4217), but Stripe still writes them with two decimals.
      t = await createTestApp(engine, { ...QUIET, ...stripe.env('https://cinema.test'), CURRENCY: 'ISK' });
      show = await createShowtimeFixture(t.app.database.db, { priceCents: 1200, rows: 1, cols: 4 });
    });
    afterAll(async () => {
      await t.close();
      await stripe.stop();
    });

    it('charges 1,200 kr a seat as 120000 and refunds a lost seat as 120000, never 12 kr', async () => {
      const app = t.app;
      const [alice, bob] = [await signedInUser(app), await signedInUser(app)];
      const [lost, kept] = [show.seatIds[0]![0]!, show.seatIds[0]![1]!];
      const ids = await hold(app, alice, show.showtimeId, [lost, kept]);
      const { sessionId } = await startCheckout(app, alice, ids);
      const [call] = stripe.calls('POST', '/v1/checkout/sessions');
      expect(call!.params['line_items[0][price_data][currency]']).toBe('isk');
      expect(call!.params['line_items[0][price_data][unit_amount]']).toBe('120000');
      expect(stripe.sessions.get(sessionId)!.amount_total).toBe(240_000);

      // The hold ran out and Bob took one seat before Alice paid: that seat's 1,200 kr go back to her.
      await expireHolds(app, ids);
      await hold(app, bob, show.showtimeId, [lost]);
      const paid = stripe.pay(sessionId, 'pi_isk');
      const hook = stripe.webhook('checkout.session.completed', paid);
      const res = await app.inject({
        method: 'POST',
        url: '/api/pay/webhook',
        headers: hook.headers,
        payload: hook.payload,
      });
      expect(res.statusCode).toBe(200);
      const refunds = stripe.calls('POST', '/v1/refunds');
      expect(refunds.map((r) => r.params)).toEqual([
        expect.objectContaining({ payment_intent: 'pi_isk', amount: '120000' }),
      ]);
      // The order itself is in krónur: 1,200 refunded, the kept seat confirmed.
      const [refund] = await app.database.db.select().from(orderRefunds);
      expect(refund).toMatchObject({ amountCents: 1200, status: 'succeeded' });
      expect(await seatStatuses(app, show.showtimeId, [lost, kept])).toEqual(['HELD', 'CONFIRMED']);
    });
  },
);
