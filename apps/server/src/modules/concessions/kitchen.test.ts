import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { SOCKET_EVENTS, type Kitchen, type KitchenOrder, type Product } from '@cinema/contract';
import { auditLog } from '../../db/schema/index.ts';
import { addProduct, choiceId, POPCORN } from '../../test/menu.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInStaff,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { holdSeats } from '../../test/purchase.ts';

// DESIGN §7.2: the kitchen screen. Paid orders with food and drink arrive live, are made ready and handed over once
// (typed or scanned reference), seat deliveries by when they are due, age-restricted items flagged.

describe.each(engines)('the kitchen (%s)', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let staff: SignedIn;
  let show: ShowtimeFixture;
  let popcorn: Product;
  let beer: Product;
  let port: number;
  const sockets: Socket[] = [];

  const call = async (method: 'GET' | 'POST', url: string, who?: SignedIn, payload?: object) => {
    const res = await app.inject({
      method,
      url,
      ...(who && { headers: who.headers }),
      ...(payload && { payload }),
    });
    return { status: res.statusCode, body: res.json() as any };
  };
  const kitchen = async () => (await call('GET', '/api/admin/kitchen', staff)).body as Kitchen;
  const large = () => choiceId(popcorn, 'Size', 'Large');

  /** A customer buys seats and food (to the seat at `at`, else to collect) and pays; the order's reference. */
  async function buy(seatIds: string[], products: object[], at?: Date) {
    const customer = await signedInUser(app);
    const bookingIds = seatIds.length > 0 ? await holdSeats(app, customer, show.showtimeId, seatIds) : [];
    const started = await call('POST', '/api/pay/checkout', customer, {
      bookingIds,
      products,
      ...(at && { fulfilment: { kind: 'SEAT', bookingId: bookingIds[1], at: at.toISOString() } }),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const paid = await app.inject({ method: 'POST', url: `/api/pay/local/${started.body.sessionId}/pay` });
    expect(paid.statusCode).toBe(303);
    return started.body.orderRef as string;
  }

  async function kitchenSocket(who: SignedIn) {
    const socket = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true });
    sockets.push(socket);
    const updates: string[] = [];
    socket.on(SOCKET_EVENTS.kitchenUpdate, (u: { ref: string }) => updates.push(u.ref));
    const ack = await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.joinKitchen, { token: who.token });
    return { ack, updates };
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(check()).toBe(true);
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    admin = await signedInAdmin(app);
    staff = await signedInStaff(app);
    show = await createShowtimeFixture(app.database.db, { rows: 2, cols: 6 });
    popcorn = await addProduct(app, admin, POPCORN);
    beer = await addProduct(app, admin, {
      name: 'Craft beer',
      category: 'Bar',
      priceCents: 600,
      ageRestricted: true,
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(url).port);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  it('sees a paid order arrive live, seat deliveries by their time with hall, row and seat, and hands it over once', async () => {
    const watcher = await kitchenSocket(staff);
    expect(watcher.ack).toEqual({ ok: true });

    const start = (await app.database.db.query.showtimes.findFirst({
      where: (s, { eq: is }) => is(s.id, show.showtimeId),
    }))!.startsAt.getTime();
    const late = await buy(
      [show.seatIds[0]![0]!, show.seatIds[0]![1]!],
      [{ productId: popcorn.id, quantity: 1, options: [large()] }],
      new Date(start + 30 * 60_000),
    );
    const early = await buy(
      [show.seatIds[1]![0]!, show.seatIds[1]![1]!],
      [{ productId: beer.id, quantity: 2 }],
      new Date(start - 10 * 60_000),
    );
    // Tickets alone never reach the kitchen.
    const ticketsOnly = await buy([show.seatIds[1]![4]!], []);
    await until(() => watcher.updates.includes(late) && watcher.updates.includes(early));
    expect(watcher.updates).not.toContain(ticketsOnly);

    const screen = await kitchen();
    const mine = screen.orders.filter((o) => [late, early].includes(o.ref));
    // The soonest due first, with where to bring it.
    expect(mine.map((o) => o.ref)).toEqual([early, late]);
    expect(mine[1]).toMatchObject({
      status: 'preparing',
      fulfilment: 'SEAT',
      seat: { auditorium: expect.any(String), row: 1, number: expect.any(Number) },
      movie: expect.any(String),
      items: [{ name: 'Popcorn', options: ['Large'], quantity: 1, ageRestricted: false }],
      checkId: false,
      handedOverAt: null,
    } satisfies Partial<KitchenOrder>);
    expect(mine[0]).toMatchObject({ checkId: true, items: [{ name: 'Craft beer', quantity: 2 }] });
    expect(screen.orders.map((o) => o.ref)).not.toContain(ticketsOnly);

    // Ready, then handed over by the reference as typed (any case, no dash); every screen is told.
    const ready = await call('POST', `/api/admin/concession-orders/${late}/status`, staff, {
      status: 'ready',
    });
    expect(ready).toMatchObject({ status: 200, body: { ref: late, status: 'ready' } });
    const typed = late.replace('-', '').toLowerCase();
    const handed = await call('POST', `/api/admin/concession-orders/${typed}/status`, staff, {
      status: 'delivered',
    });
    expect(handed).toMatchObject({
      status: 200,
      body: { ref: late, status: 'delivered', handedOverBy: staff.email },
    });
    await until(() => watcher.updates.filter((r) => r === late).length >= 3);

    // Twice is refused, saying when and by whom; ready after that too.
    const again = await call('POST', `/api/admin/concession-orders/${late}/status`, admin, {
      status: 'collected',
    });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'already_handed_over', handedOverBy: staff.email, handedOverAt: expect.any(String) },
    });
    const german = await app.inject({
      method: 'POST',
      url: `/api/admin/concession-orders/${late}/status`,
      headers: { ...staff.headers, 'accept-language': 'de' },
      payload: { status: 'ready' },
    });
    expect(german.statusCode).toBe(409);
    expect(german.json().error).not.toBe('Already handed over');

    // The handed-over order moves to the last column; the audit log has both steps.
    const after = await kitchen();
    expect(after.orders.find((o) => o.ref === late)).toMatchObject({ status: 'delivered' });
    expect(after.orders.at(-1)?.handedOverAt).not.toBeNull();
    const audit = await app.database.db
      .select({ action: auditLog.action, actor: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, 'order'), eq(auditLog.subjectId, late)));
    expect(audit.map((a) => a.action).sort()).toEqual(['concessions.hand_over', 'concessions.ready']);
  });

  it('refuses what it cannot hand over: unknown, tickets only, refunded items; bad input; customers', async () => {
    const ticketsOnly = await buy([show.seatIds[0]![5]!], []);
    expect(
      await call('POST', `/api/admin/concession-orders/${ticketsOnly}/status`, staff, {
        status: 'collected',
      }),
    ).toMatchObject({ status: 409, body: { code: 'no_items' } });
    expect(
      await call('POST', '/api/admin/concession-orders/ZZZ-ZZZZ/status', staff, { status: 'collected' }),
    ).toMatchObject({ status: 404 });
    expect(
      (await call('POST', `/api/admin/concession-orders/${ticketsOnly}/status`, staff, { status: 'eaten' }))
        .status,
    ).toBe(400);

    // Food alone, then refunded: it leaves the screen and cannot be handed over.
    const food = await buy([], [{ productId: popcorn.id, quantity: 2, options: [large()] }]);
    expect((await kitchen()).orders.find((o) => o.ref === food)).toMatchObject({ fulfilment: 'PICKUP' });
    expect((await call('POST', `/api/admin/orders/${food}/refund`, admin, {})).status).toBe(200);
    expect((await kitchen()).orders.map((o) => o.ref)).not.toContain(food);
    expect(
      await call('POST', `/api/admin/concession-orders/${food}/status`, staff, { status: 'collected' }),
    ).toMatchObject({ status: 409, body: { code: 'no_items' } });

    // Customers reach neither the screen nor its room.
    const customer = await signedInUser(app);
    expect((await call('GET', '/api/admin/kitchen', customer)).status).toBe(403);
    expect((await call('GET', '/api/admin/kitchen')).status).toBe(401);
    expect((await kitchenSocket(customer)).ack).toEqual({ ok: false, error: 'Staff only' });
    expect((await kitchenSocket({ ...customer, token: 'nope' })).ack).toMatchObject({ ok: false });
  });

  it('stops telling a screen whose staff member signed out, while signed-in screens still hear', async () => {
    const leaving = await signedInStaff(app);
    const left = await kitchenSocket(leaving);
    const staying = await kitchenSocket(staff);
    expect([left.ack, staying.ack]).toEqual([{ ok: true }, { ok: true }]);
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: leaving.headers });
    expect(out.statusCode).toBe(204);
    await app.kitchen.recheckSessions();

    const ref = await buy([], [{ productId: popcorn.id, quantity: 1, options: [large()] }]);
    await until(() => staying.updates.includes(ref));
    // The signed-out screen's socket is still connected, but no longer in the kitchen's room.
    await new Promise((r) => setTimeout(r, 200));
    expect(left.updates).not.toContain(ref);
  });
});
