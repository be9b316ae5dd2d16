import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Kitchen, Product, StaffOrder } from '@cinema/contract';
import { auditLog, products } from '../../db/schema/index.ts';
import { addProduct, choiceId, POPCORN } from '../../test/menu.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInStaff,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

// DESIGN §7.2: the counter sells food and drink with or without tickets, in one basket and one payment, through the
// orders core; what it sells is handed over there and then.

describe.each(engines)('counter sales of food and drink (%s)', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let staff: SignedIn;
  let show: ShowtimeFixture;
  let popcorn: Product;
  let beer: Product;

  const sell = async (payload: object, who: SignedIn = staff) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/box-office/sales',
      headers: who.headers,
      payload,
    });
    return { status: res.statusCode, body: res.json() as any };
  };
  const stockOf = async (id: string) =>
    (await app.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!
      .stock;
  const large = () => choiceId(popcorn, 'Size', 'Large');

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    admin = await signedInAdmin(app);
    staff = await signedInStaff(app);
    show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 4 });
    popcorn = await addProduct(app, admin, POPCORN);
    beer = await addProduct(app, admin, {
      name: 'Craft beer',
      category: 'Bar',
      priceCents: 600,
      stock: 3,
      ageRestricted: true,
    });
  });
  afterAll(() => t.close());

  it('sells seats and food in one payment, priced by the server, handed over at once; the stock is taken', async () => {
    const requestId = crypto.randomUUID();
    const body = {
      showtimeId: show.showtimeId,
      seatIds: show.allSeatIds.slice(0, 2),
      products: [
        { productId: popcorn.id, quantity: 1, options: [large()] },
        { productId: beer.id, quantity: 2 },
      ],
      paymentMethod: 'cash',
      requestId,
    };
    const sold = await sell(body);
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const order = sold.body as StaffOrder;
    expect(order.lines).toHaveLength(2);
    expect(order.products).toEqual([
      expect.objectContaining({ name: 'Craft beer', quantity: 2, priceCents: 1200, ageRestricted: true }),
      expect.objectContaining({ name: 'Popcorn', options: ['Large'], priceCents: 650, ageRestricted: false }),
    ]);
    expect(order.totalCents).toBe(2 * 1200 + 1200 + 650);
    expect(order.payments).toEqual([{ method: 'CASH', amountCents: order.totalCents, refundedCents: 0 }]);
    expect(order.concessions).toMatchObject({ fulfilment: 'PICKUP', status: 'collected' });
    expect(await stockOf(beer.id)).toBe(1);

    // The kitchen lists it as handed over by the seller; handing it over again is refused.
    const kitchen = (
      await app.inject({ method: 'GET', url: '/api/admin/kitchen', headers: staff.headers })
    ).json() as Kitchen;
    expect(kitchen.orders.find((o) => o.ref === order.ref)).toMatchObject({
      status: 'collected',
      handedOverBy: staff.email,
      checkId: true,
    });
    const again = await app.inject({
      method: 'POST',
      url: `/api/admin/concession-orders/${order.ref}/status`,
      headers: staff.headers,
      payload: { status: 'collected' },
    });
    expect(again.statusCode).toBe(409);

    // The same request again answers the same order and takes nothing more; another basket under its id is a 422.
    expect((await sell(body)).body.ref).toBe(order.ref);
    expect(await stockOf(beer.id)).toBe(1);
    expect((await sell({ ...body, products: [{ productId: beer.id, quantity: 1 }] })).status).toBe(422);

    const [audit] = await app.database.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'order.counter_sale'), eq(auditLog.subjectId, order.ref)));
    expect(audit?.after).toMatchObject({ items: ['1 × Popcorn (Large)', '2 × Craft beer'] });
  });

  it('sells food alone, refuses what is sold out (naming it, selling nothing) and a basket with nothing', async () => {
    const alone = await sell({
      seatIds: [],
      products: [{ productId: beer.id, quantity: 1 }],
      paymentMethod: 'card',
    });
    expect(alone.status, JSON.stringify(alone.body)).toBe(200);
    expect(alone.body).toMatchObject({ lines: [], totalCents: 600, payments: [{ method: 'CARD_TERMINAL' }] });
    expect(await stockOf(beer.id)).toBe(0);

    const short = await sell({
      showtimeId: show.showtimeId,
      seatIds: [show.allSeatIds[3]],
      products: [{ productId: beer.id, quantity: 1 }],
      paymentMethod: 'cash',
    });
    expect(short).toMatchObject({ status: 409, body: { code: 'sold_out', productIds: [beer.id] } });
    // The seat of the refused sale is still free.
    expect(
      (await sell({ showtimeId: show.showtimeId, seatIds: [show.allSeatIds[3]], paymentMethod: 'cash' }))
        .status,
    ).toBe(200);

    expect((await sell({ seatIds: [], paymentMethod: 'cash' })).status).toBe(400);
    expect(
      (await sell({ seatIds: [], products: [{ productId: popcorn.id, quantity: 1 }], paymentMethod: 'cash' }))
        .status,
    ).toBe(400); // a required size left out
  });
});
