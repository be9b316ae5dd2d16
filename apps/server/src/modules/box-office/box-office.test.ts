import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Order, SeatMap, StaffOrder, Ticket } from '@cinema/contract';
import { auditLog, bookings, orders, mailOutbox, orderRefunds, seats } from '../../db/schema/index.ts';
import { settleMail } from '../mail/outbox.service.ts';
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

/** A customer holds and pays (local provider) for these seats; the order's reference and ticket ids. */
async function buy(app: FastifyInstance, who: SignedIn, showtimeId: string, seatIds: string[]) {
  const bookingIds = await hold(app, who, showtimeId, seatIds);
  const res = await app.inject({
    method: 'POST',
    url: '/api/pay/checkout',
    headers: who.headers,
    payload: { bookingIds },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { sessionId, orderRef } = res.json() as { sessionId: string; orderRef: string };
  const pay = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
  expect(pay.statusCode).toBe(303);
  // In the order of the seats asked for.
  const rows = await app.database.db.select().from(bookings).where(inArray(bookings.id, bookingIds));
  return { ref: orderRef, sessionId, bookingIds: seatIds.map((id) => rows.find((r) => r.seatId === id)!.id) };
}

async function statuses(app: FastifyInstance, showtimeId: string, seatIds: string[]) {
  const map = (
    await app.inject({ method: 'GET', url: `/api/showtimes/${showtimeId}/seats` })
  ).json() as SeatMap;
  return seatIds.map((id) => map.seats.find((s) => s.id === id)!.status);
}

const myOrder = async (app: FastifyInstance, who: SignedIn, ref: string) => {
  const res = await app.inject({ method: 'GET', url: `/api/me/orders/${ref}`, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Order;
};

describe.each(engines)('the box office on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let show: ShowtimeFixture;

  const post = (url: string, payload: unknown, who: SignedIn = admin) =>
    app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
  const refund = (ref: string, payload: unknown = {}) => post(`/api/admin/orders/${ref}/refund`, payload);
  const exchange = (ref: string, payload: unknown) => post(`/api/admin/orders/${ref}/exchange`, payload);
  const sell = (payload: unknown) => post('/api/admin/box-office/sales', payload);

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    admin = await signedInAdmin(app);
    alice = await signedInUser(app, { name: 'Alice', verified: true });
    bob = await signedInUser(app, { name: 'Bob' });
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 5, cols: 8 });
  });
  afterAll(() => t.close());

  it('refunds one ticket: its seat is for sale again at once, the order shows the refund, a retry changes nothing', async () => {
    const seatIds = [show.seatIds[0]![0]!, show.seatIds[0]![1]!];
    const { ref, bookingIds } = await buy(app, alice, show.showtimeId, seatIds);
    const broadcast = vi.spyOn(app.realtime, 'broadcastSeats');

    const res = await refund(ref, { bookingIds: [bookingIds[0]], reason: 'Feeling unwell' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { order: StaffOrder; refundedCents: number; refundedBookingIds: string[] };
    expect(body.refundedCents).toBe(PRICE);
    expect(body.refundedBookingIds).toEqual([bookingIds[0]]);
    expect(body.order.status).toBe('partially_refunded');
    expect(body.order.refunds).toEqual([
      expect.objectContaining({
        amountCents: PRICE,
        status: 'succeeded',
        kind: 'staff',
        reason: 'Feeling unwell',
        by: admin.email,
      }),
    ]);
    expect(await statuses(app, show.showtimeId, seatIds)).toEqual(['AVAILABLE', 'CONFIRMED']);
    expect(broadcast).toHaveBeenCalledWith({
      showtimeId: show.showtimeId,
      seats: [{ id: seatIds[0], status: 'AVAILABLE' }],
    });

    // The customer sees it as a line of their order, and the ticket is gone from My Tickets.
    const seen = await myOrder(app, alice, ref);
    expect(seen.status).toBe('partially_refunded');
    expect(seen.refundedCents).toBe(PRICE);
    expect(seen.lines.map((l) => l.status).sort()).toEqual(['confirmed', 'refunded']);
    const { tickets } = (
      await app.inject({ method: 'GET', url: '/api/me/tickets', headers: alice.headers })
    ).json() as { tickets: Ticket[] };
    expect(tickets.map((x) => x.bookingId)).not.toContain(bookingIds[0]);

    // A double click: nothing more is refunded.
    const again = await refund(ref, { bookingIds: [bookingIds[0]] });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ refundedCents: 0, refundedBookingIds: [] });
    const rows = await app.database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, body.order.lines[0]!.bookingId ? (await session(ref)).id : ''));
    expect(rows).toHaveLength(1);

    // The rest of the order: the whole order is refunded.
    const rest = await refund(ref);
    expect(rest.json()).toMatchObject({
      refundedCents: PRICE,
      order: { status: 'refunded', refundedCents: 2 * PRICE },
    });

    // The customer is told of each refund by email (the outbox, without SMTP_URL).
    await settleMail();
    const notices = await app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'refund_notice'));
    expect(notices.filter((n) => n.subject === `Refund for order ${ref}`).map((n) => n.to)).toEqual([
      alice.email,
      alice.email,
    ]);

    const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.subjectId, ref));
    expect(audit.map((a) => [a.action, a.actorEmail])).toEqual([
      ['order.refund', admin.email],
      ['order.refund', admin.email],
    ]);
  });

  const session = async (ref: string) =>
    (await app.database.db.select().from(orders).where(eq(orders.ref, ref)))[0]!;

  it('asks before refunding a ticket used at the door, and names tickets that are not in the order', async () => {
    const { ref, bookingIds } = await buy(app, alice, show.showtimeId, [show.seatIds[1]![0]!]);
    // Tomorrow's show: staff admit the ticket ahead of its entry window (an audited override).
    const scan = await post('/api/admin/scan', { bookingId: bookingIds[0], force: true });
    expect(scan.statusCode, scan.body).toBe(200);

    const used = await refund(ref);
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({
      code: 'checked_in',
      bookingIds,
      error: expect.stringMatching(/Row B Seat 1/),
    });
    const stranger = await refund(ref, { bookingIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ bookingIds: ['00000000-0000-4000-8000-000000000000'] });
    expect((await session(ref)).status).toBe('PAID');

    const forced = await refund(ref, { force: true });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json()).toMatchObject({ refundedCents: PRICE, order: { status: 'refunded' } });
  });

  it('answers 404 for an unknown order, finds orders by reference without its dash and by email, and is for admins', async () => {
    const { ref } = await buy(app, bob, show.showtimeId, [show.seatIds[1]![5]!]);
    expect((await refund('ZZZ-ZZZZ')).statusCode).toBe(404);
    const byRef = await app.inject({
      method: 'GET',
      url: `/api/admin/orders?q=${ref.replace('-', '').toLowerCase()}`,
      headers: admin.headers,
    });
    expect((byRef.json() as { orders: StaffOrder[] }).orders.map((o) => o.ref)).toEqual([ref]);
    const byEmail = await app.inject({
      method: 'GET',
      url: `/api/admin/orders?q=${encodeURIComponent(bob.email.toUpperCase())}`,
      headers: admin.headers,
    });
    const found = (byEmail.json() as { orders: StaffOrder[] }).orders;
    expect(found.map((o) => o.ref)).toEqual([ref]);
    expect(found[0]).toMatchObject({
      customer: { email: bob.email, name: 'Bob' },
      provider: 'local',
      testMode: true,
    });
    const one = await app.inject({ method: 'GET', url: `/api/admin/orders/${ref}`, headers: admin.headers });
    expect(one.json()).toMatchObject({
      ref,
      lines: [expect.objectContaining({ showtimeId: show.showtimeId })],
    });

    expect((await post(`/api/admin/orders/${ref}/refund`, {}, bob)).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: `/api/admin/orders/${ref}/refund`, payload: {} })).statusCode,
    ).toBe(401);
  });

  it('moves tickets to other seats and showtimes, keeping their QR codes, settling the price difference', async () => {
    const dear = await createShowtimeFixture(app.database.db, {
      priceCents: 2000,
      hallId: show.hallId,
      startsAt: new Date(Date.now() + 3 * 86_400_000),
    });
    const cheap = await createShowtimeFixture(app.database.db, {
      priceCents: 1000,
      hallId: show.hallId,
      startsAt: new Date(Date.now() + 5 * 86_400_000),
    });
    const from = [show.seatIds[2]![0]!, show.seatIds[2]![1]!];
    const { ref, bookingIds } = await buy(app, alice, show.showtimeId, from);

    // Two tickets of one order swap seats: both taken at once, nothing else changes hands.
    const swap = await exchange(ref, {
      moves: [
        { bookingId: bookingIds[0], seatId: from[1] },
        { bookingId: bookingIds[1], seatId: from[0] },
      ],
    });
    expect(swap.statusCode, swap.body).toBe(200);
    expect(swap.json()).toMatchObject({ refundedCents: 0, dueCents: 0 });

    // To a dearer showtime: 650 to collect; to a cheaper one: 350 back (nothing to collect any more).
    const up = await exchange(ref, {
      moves: [{ bookingId: bookingIds[0], showtimeId: dear.showtimeId, seatId: dear.seatIds[4]![4]! }],
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ refundedCents: 0, dueCents: 650, movedBookingIds: [bookingIds[0]] });
    expect(await statuses(app, show.showtimeId, [from[1]!])).toEqual(['AVAILABLE']);
    expect(await statuses(app, dear.showtimeId, [dear.seatIds[4]![4]!])).toEqual(['CONFIRMED']);
    // Sent again (a retry): already there, nothing moves.
    const retry = await exchange(ref, {
      moves: [{ bookingId: bookingIds[0], showtimeId: dear.showtimeId, seatId: dear.seatIds[4]![4]! }],
    });
    expect(retry.json()).toMatchObject({ movedBookingIds: [], dueCents: 0, refundedCents: 0 });

    const down = await exchange(ref, {
      moves: [{ bookingId: bookingIds[0], showtimeId: cheap.showtimeId, seatId: cheap.seatIds[0]![0]! }],
    });
    expect(down.statusCode, down.body).toBe(200);
    const order = (down.json() as { order: StaffOrder; refundedCents: number }).order;
    expect((down.json() as { refundedCents: number }).refundedCents).toBe(350);
    const line = order.lines.find((l) => l.bookingId === bookingIds[0])!;
    expect(line).toMatchObject({
      showtimeId: cheap.showtimeId,
      priceCents: 1000,
      dueCents: 0,
      exchangedAt: expect.any(String),
    });
    expect(order.refunds).toEqual([
      expect.objectContaining({ kind: 'exchange', amountCents: 350, status: 'succeeded' }),
    ]);
    expect(await statuses(app, dear.showtimeId, [dear.seatIds[4]![4]!])).toEqual(['AVAILABLE']);

    // The same QR code (the booking id) admits to the new showtime (ahead of its entry window: forced).
    const scan = await post('/api/admin/scan', { bookingId: bookingIds[0], force: true });
    expect(scan.statusCode, scan.body).toBe(200);
    expect(scan.json()).toMatchObject({ seat: { row: 1, number: 1 } });

    // A seat someone else holds is refused, and nothing of the request happens.
    const [held] = await hold(app, bob, show.showtimeId, [show.seatIds[3]![3]!]);
    expect(held).toBeDefined();
    const taken = await exchange(ref, {
      moves: [
        { bookingId: bookingIds[1], seatId: show.seatIds[3]![2]! },
        { bookingId: bookingIds[0], seatId: show.seatIds[3]![3]!, showtimeId: show.showtimeId },
      ],
      force: true,
    });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'seat_unavailable', seatIds: [show.seatIds[3]![3]] });
    expect(await statuses(app, show.showtimeId, [show.seatIds[3]![2]!, from[0]!])).toEqual([
      'AVAILABLE',
      'CONFIRMED',
    ]);

    const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.subjectId, ref));
    expect(audit.filter((a) => a.action === 'order.exchange')).toHaveLength(3);
  });

  it('sells at the counter (a blocked seat too), once per request id, never a seat someone holds', async () => {
    const blocked = show.seatIds[4]![0]!;
    await app.database.db.update(seats).set({ blocked: true }).where(eq(seats.id, blocked));
    const requestId = '6f1c2d3e-4b5a-4c6d-8e7f-000000000001';
    const sale = {
      showtimeId: show.showtimeId,
      seatIds: [blocked, show.seatIds[4]![1]!],
      paymentMethod: 'cash',
      requestId,
    };
    const res = await sell(sale);
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json() as StaffOrder;
    expect(order).toMatchObject({
      status: 'paid',
      provider: 'box_office',
      paymentMethod: 'cash',
      soldBy: admin.email,
      customer: { email: null, name: null },
      totalCents: 2 * PRICE,
      testMode: false,
    });
    expect(order.lines.map((l) => l.status)).toEqual(['confirmed', 'confirmed']);
    expect(await statuses(app, show.showtimeId, sale.seatIds)).toEqual(['CONFIRMED', 'CONFIRMED']);

    // A double click: the same order, no second sale.
    const again = await sell(sale);
    expect(again.statusCode).toBe(200);
    expect((again.json() as StaffOrder).ref).toBe(order.ref);
    const sold = await app.database.db.select().from(bookings).where(inArray(bookings.seatId, sale.seatIds));
    expect(sold.filter((b) => b.status === 'CONFIRMED')).toHaveLength(2);

    // Someone's hold is theirs.
    await hold(app, bob, show.showtimeId, [show.seatIds[4]![2]!]);
    const taken = await sell({
      showtimeId: show.showtimeId,
      seatIds: [show.seatIds[4]![2]!, show.seatIds[4]![3]!],
      paymentMethod: 'card',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'seat_unavailable', seatIds: [show.seatIds[4]![2]] });
    expect(await statuses(app, show.showtimeId, [show.seatIds[4]![3]!])).toEqual(['AVAILABLE']);

    // A hold that ran out but was not swept yet does not stand in the way.
    const [stale] = await hold(app, bob, show.showtimeId, [show.seatIds[4]![4]!]);
    await app.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(bookings.id, stale!));
    const late = await sell({
      showtimeId: show.showtimeId,
      seatIds: [show.seatIds[4]![4]!],
      paymentMethod: 'card',
      customerEmail: alice.email,
    });
    expect(late.statusCode, late.body).toBe(200);
    // Sold to a customer with a verified account: it is in their orders and tickets.
    const ref = (late.json() as StaffOrder).ref;
    expect((await myOrder(app, alice, ref)).lines).toHaveLength(1);
    expect((late.json() as StaffOrder).customer).toMatchObject({ email: alice.email });
    // Their tickets by email; a walk-in without an address gets none.
    await settleMail();
    const mails = await app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'order_confirmation'));
    expect(mails.filter((m) => m.subject.includes(ref)).map((m) => m.to)).toEqual([alice.email]);
    expect(mails.filter((m) => m.subject.includes(order.ref))).toEqual([]);

    // Refunded at the counter: recorded, the seat free again.
    const back = await refund(order.ref, { bookingIds: [order.lines[0]!.bookingId] });
    expect(back.json()).toMatchObject({
      refundedCents: PRICE,
      order: { refunds: [expect.objectContaining({ status: 'succeeded' })] },
    });

    const audit = await app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'order.counter_sale'));
    expect(audit).toHaveLength(2);

    const bad = await sell({ showtimeId: show.showtimeId, seatIds: [], paymentMethod: 'cheque' });
    expect(bad.statusCode).toBe(400);
    const elsewhere = await sell({
      showtimeId: show.showtimeId,
      seatIds: ['00000000-0000-4000-8000-000000000000'],
      paymentMethod: 'cash',
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ seatIds: ['00000000-0000-4000-8000-000000000000'] });
  });
});

describe.each(engines)('staff refunds through Stripe on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let stripe: FakeStripe;
  let admin: SignedIn;
  let alice: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    t = await createTestApp(engine, { ...QUIET, ...stripe.env('https://cinema.test') });
    app = t.app;
    admin = await signedInAdmin(app);
    alice = await signedInUser(app, { name: 'Alice' });
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 2, cols: 4 });
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });
  beforeEach(() => {
    stripe.requests.length = 0;
  });

  it('sends each refunded ticket to Stripe against the order’s payment, once', async () => {
    const bookingIds = await hold(app, alice, show.showtimeId, show.seatIds[0]!.slice(0, 2));
    const res = await app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: alice.headers,
      payload: { bookingIds },
    });
    const { sessionId, orderRef } = res.json() as { sessionId: string; orderRef: string };
    stripe.pay(sessionId, 'pi_box_office');
    const paid = await app.inject({
      method: 'GET',
      url: `/api/pay/lookup?session_id=${sessionId}`,
      headers: alice.headers,
    });
    expect(paid.json()).toMatchObject({ status: 'paid' });

    const refunded = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderRef}/refund`,
      headers: admin.headers,
      payload: {},
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const calls = stripe.calls('POST', '/v1/refunds');
    expect(calls.map((c) => [c.params.payment_intent, c.params.amount])).toEqual([
      ['pi_box_office', String(PRICE)],
      ['pi_box_office', String(PRICE)],
    ]);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(2);
    expect(refunded.json()).toMatchObject({ order: { status: 'refunded', refundedCents: 2 * PRICE } });
    expect((refunded.json() as { order: StaffOrder }).order.refunds.map((r) => r.status)).toEqual([
      'succeeded',
      'succeeded',
    ]);
    await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderRef}/refund`,
      headers: admin.headers,
      payload: {},
    });
    expect(stripe.calls('POST', '/v1/refunds')).toHaveLength(2);
  });
});
