import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { StaffOrder } from '@cinema/contract';
import { bookings, orders, mailOutbox } from '../../db/schema/index.ts';
import type { DomainEventMap } from '../../events.ts';
import { settleMail } from '../mail/outbox.service.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  uniqueEmail,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { buySeats, holdSeats } from '../../test/purchase.ts';

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };
const PRICE = 1200;

type OrderEventName = 'orderPaid' | 'orderRefunded' | 'ticketsMoved';
type Seen = { [K in OrderEventName]?: DomainEventMap[K][] };

// Order events (decision 034): each path records them inside its transaction; they are published once it committed,
// once per change, and never for a transaction that rolled back. Email and metrics follow them.
describe.each(engines)('order events on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let show: ShowtimeFixture;
  let cheap: ShowtimeFixture;
  const seen: Seen = {};
  /** The order's status as another query sees it, read when the event arrived (a pending read, resolved later). */
  const statusAtEvent: Promise<string | undefined>[] = [];

  const events = <K extends OrderEventName>(name: K, ref: string) =>
    (seen[name] ?? []).filter((e) => e.ref === ref) as DomainEventMap[K][];
  const outbox = async (kind: string, ref: string) => {
    await settleMail();
    const rows = await app.database.db
      .select({ to: mailOutbox.to, subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, kind));
    return rows.filter((r) => r.subject.includes(ref)).map((r) => r.to);
  };
  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: admin.headers, payload });

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    admin = await signedInAdmin(app);
    alice = await signedInUser(app, { name: 'Alice' });
    bob = await signedInUser(app, { name: 'Bob' });
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 4, cols: 6 });
    cheap = await createShowtimeFixture(app.database.db, { priceCents: 800, rows: 2, cols: 4 });
    for (const name of ['orderPaid', 'orderRefunded', 'ticketsMoved'] as const) {
      app.events.subscribe(name, (event: DomainEventMap[typeof name]) => {
        (seen[name] ??= [] as never[]).push(event as never);
        statusAtEvent.push(
          app.database.db
            .select({ status: orders.status })
            .from(orders)
            .where(eq(orders.id, event.sessionId))
            .then(([row]) => row?.status),
        );
      });
    }
  });
  afterAll(() => t.close());

  it('tells orderPaid once for an online payment, however often it is confirmed, and sends one confirmation', async () => {
    const { orderRef, sessionId } = await buySeats(app, alice, show.showtimeId, show.seatIds[0]!.slice(0, 2));
    // The success page asks again: fulfilment finds it paid and tells nothing more.
    const again = await app.inject({
      method: 'GET',
      url: `/api/pay/lookup?session_id=${sessionId}`,
      headers: alice.headers,
    });
    expect(again.statusCode).toBe(200);
    expect(events('orderPaid', orderRef)).toEqual([
      { sessionId, ref: orderRef, channel: 'online', confirmed: 2, refunded: 0 },
    ]);
    expect(events('orderRefunded', orderRef)).toEqual([]);
    expect(await outbox('order_confirmation', orderRef)).toEqual([alice.email]);
  });

  it('tells a counter sale as a payment once, after commit; a sale refused halfway tells nothing and sends nothing', async () => {
    const email = uniqueEmail('walk-in');
    const requestId = crypto.randomUUID();
    const sale = {
      showtimeId: show.showtimeId,
      seatIds: show.seatIds[1]!.slice(0, 2),
      paymentMethod: 'cash',
      customerEmail: email,
      requestId,
    };
    const res = await post('/api/admin/box-office/sales', sale);
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json() as StaffOrder;
    // Sent again (a double click): the same order, no second payment told.
    const replay = await post('/api/admin/box-office/sales', sale);
    expect((replay.json() as StaffOrder).ref).toBe(order.ref);
    expect(events('orderPaid', order.ref)).toEqual([
      {
        sessionId: requestId,
        ref: order.ref,
        channel: 'box_office',
        confirmed: 2,
        refunded: 0,
        // The email has no verified account: the tickets go to it with a guest link (issue 31).
        guestToken: expect.any(String),
      },
    ]);
    expect(await outbox('order_confirmation', order.ref)).toEqual([email]);

    // Bob holds one of the two seats: the sale writes its order, then the seat's insert is refused and all of it
    // rolls back. Nobody is told of a payment, and the customer gets no email.
    await holdSeats(app, bob, show.showtimeId, [show.seatIds[2]![1]!]);
    const paidBefore = seen.orderPaid?.length ?? 0;
    const refusedEmail = uniqueEmail('refused');
    const refused = await post('/api/admin/box-office/sales', {
      showtimeId: show.showtimeId,
      seatIds: [show.seatIds[2]![0]!, show.seatIds[2]![1]!],
      paymentMethod: 'card',
      customerEmail: refusedEmail,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'seat_unavailable' });
    expect(seen.orderPaid?.length ?? 0).toBe(paidBefore);
    await settleMail();
    const mails = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, refusedEmail));
    expect(mails).toEqual([]);
    const rows = await app.database.db.select().from(orders).where(eq(orders.customerEmail, refusedEmail));
    expect(rows).toEqual([]);
  });

  it('tells a refund once and sends exactly one notice; asking again tells nothing', async () => {
    const { orderRef, sessionId } = await buySeats(app, alice, show.showtimeId, show.seatIds[3]!.slice(0, 2));
    const [first] = await app.database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(inArray(bookings.seatId, [show.seatIds[3]![0]!]));
    const res = await post(`/api/admin/orders/${orderRef}/refund`, { bookingIds: [first!.id] });
    expect(res.statusCode, res.body).toBe(200);
    const again = await post(`/api/admin/orders/${orderRef}/refund`, { bookingIds: [first!.id] });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ refundedCents: 0 });
    expect(events('orderRefunded', orderRef)).toEqual([
      { sessionId, ref: orderRef, kind: 'staff', seats: 1, amountCents: PRICE },
    ]);
    expect(await outbox('refund_notice', orderRef)).toEqual([alice.email]);
  });

  it('tells an exchange as ticketsMoved once, with the money a cheaper seat gave back; a refused move tells nothing', async () => {
    const seat = show.seatIds[0]![4]!;
    const { orderRef, sessionId, bookingIds } = await buySeats(app, alice, show.showtimeId, [seat]);
    const target = cheap.seatIds[0]![0]!;
    const move = { moves: [{ bookingId: bookingIds[0]!, showtimeId: cheap.showtimeId, seatId: target }] };
    const res = await post(`/api/admin/orders/${orderRef}/exchange`, move);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ refundedCents: PRICE - 800 });
    // A retry of the same move is a move already made: nothing is told again.
    const retry = await post(`/api/admin/orders/${orderRef}/exchange`, move);
    expect(retry.json()).toMatchObject({ movedBookingIds: [] });
    expect(events('ticketsMoved', orderRef)).toEqual([
      {
        sessionId,
        ref: orderRef,
        moves: [
          {
            bookingId: bookingIds[0],
            from: { showtimeId: show.showtimeId, seatId: seat },
            to: { showtimeId: cheap.showtimeId, seatId: target },
          },
        ],
      },
    ]);
    expect(events('orderRefunded', orderRef)).toEqual([
      { sessionId, ref: orderRef, kind: 'exchange', seats: 1, amountCents: PRICE - 800 },
    ]);
    expect(await outbox('refund_notice', orderRef)).toEqual([alice.email]);

    // Onto a seat Bob holds: refused (409), all or nothing, and nothing told.
    const taken = cheap.seatIds[1]![0]!;
    await holdSeats(app, bob, cheap.showtimeId, [taken]);
    const refused = await post(`/api/admin/orders/${orderRef}/exchange`, {
      moves: [{ bookingId: bookingIds[0]!, showtimeId: cheap.showtimeId, seatId: taken }],
    });
    expect(refused.statusCode).toBe(409);
    expect(events('ticketsMoved', orderRef)).toHaveLength(1);
  });

  it('publishes every order event only after its transaction committed', async () => {
    // Each subscriber above read the order's status from outside the transaction as the event arrived: a paid or
    // refunded order, never one still open (which is what another connection sees before the commit).
    const statuses = await Promise.all(statusAtEvent);
    expect(statuses.length).toBeGreaterThanOrEqual(6);
    for (const status of statuses) expect(['PAID', 'PARTLY_REFUNDED', 'REFUNDED']).toContain(status);
  });
});
