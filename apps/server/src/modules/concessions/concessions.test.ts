import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AdminMenu, Menu, Order, Product, Quote, StaffOrder } from '@cinema/contract';
import { auditLog, orders, products, showtimes, stockReservations } from '../../db/schema/index.ts';
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
import { expireStaleCheckouts } from '../payments/payment-events.ts';
import { fulfilCheckout } from '../payments/fulfilment.service.ts';

// DESIGN §7.2: the menu kept at /admin/concessions, sold with seats or alone, its stock reserved by open orders and
// given back when they close unpaid or a line is refunded.

describe.each(engines)('concessions (%s)', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let popcorn: Product;
  let cola: Product;
  let nachos: Product;
  let beer: Product;
  let combo: Product;

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who?: SignedIn,
    payload?: object,
  ) => {
    const res = await app.inject({
      method,
      url,
      ...(who && { headers: who.headers }),
      ...(payload && { payload }),
    });
    return { status: res.statusCode, body: res.json() as any };
  };
  const choice = (p: Product, group: string, name: string) =>
    p.options.find((g) => g.name === group)!.choices.find((c) => c.name === name)!.id;
  const stockOf = async (id: string) =>
    (await app.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!
      .stock;
  const pay = async (sessionId: string) => {
    const res = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(res.statusCode).toBe(303);
  };
  const myOrder = async (who: SignedIn, ref: string) =>
    (await call('GET', `/api/me/orders/${ref}`, who)).body as Order;

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    admin = await signedInAdmin(app);
    show = await createShowtimeFixture(app.database.db, { rows: 3, cols: 6 });
    const made = async (body: object) => {
      const res = await call('POST', '/api/admin/products', admin, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as Product;
    };
    popcorn = await made({
      name: 'Popcorn',
      category: 'Popcorn',
      priceCents: 450,
      options: [
        {
          group: 'Size',
          required: true,
          choices: [
            { name: 'Small', priceDeltaCents: 0 },
            { name: 'Medium', priceDeltaCents: 100 },
            { name: 'Large', priceDeltaCents: 200 },
          ],
        },
        { group: 'Flavour', required: false, choices: [{ name: 'Salted' }, { name: 'Sweet' }] },
      ],
    });
    cola = await made({ name: 'Cola', category: 'Drinks', priceCents: 350, stock: 20 });
    nachos = await made({ name: 'Nachos', category: 'Snacks', priceCents: 550, stock: 3 });
    beer = await made({
      name: 'Craft beer',
      category: 'Drinks',
      priceCents: 600,
      stock: 10,
      ageRestricted: true,
    });
    combo = await made({
      name: 'Movie night combo',
      category: 'Combos',
      priceCents: 1150,
      components: [
        { productId: cola.id, quantity: 1 },
        { productId: nachos.id, quantity: 1 },
      ],
    });
  });
  afterAll(() => t.close());

  it('keeps the menu: categories made by name, options, a combo whose stock is its components’, every change audited', async () => {
    expect(popcorn.options.map((g) => [g.name, g.required, g.choices.map((c) => c.priceDeltaCents)])).toEqual(
      [
        ['Size', true, [0, 100, 200]],
        ['Flavour', false, [0, 0]],
      ],
    );
    expect(combo.stock).toBe(3); // nachos: 3 left, cola 20
    expect(combo.components).toEqual([
      { productId: cola.id, name: 'Cola', quantity: 1 },
      { productId: nachos.id, name: 'Nachos', quantity: 1 },
    ]);
    expect(nachos.lowStock).toBe(true);

    const menu = (await call('GET', '/api/menu')).body as Menu;
    expect(menu.categories.map((c) => c.name)).toEqual(['Popcorn', 'Drinks', 'Snacks', 'Combos']);
    expect((await call('GET', '/api/products')).body).toEqual(menu);

    // Inactive products leave the customers' menu, not the admin's.
    const hidden = await call('POST', '/api/admin/products', admin, {
      name: 'Old candy',
      category: 'Snacks',
      priceCents: 100,
      active: false,
    });
    expect(hidden.status).toBe(201);
    const after = (await call('GET', '/api/menu')).body as Menu;
    expect(after.categories.flatMap((c) => c.products.map((p) => p.name))).not.toContain('Old candy');
    const adminMenu = (await call('GET', '/api/admin/concessions', admin)).body as AdminMenu;
    expect(adminMenu.products.map((p) => p.name)).toContain('Old candy');

    // A delivery of stock, never below zero; customers and staff may not change the menu.
    expect((await call('POST', `/api/admin/products/${cola.id}/stock`, admin, { add: 5 })).body.stock).toBe(
      25,
    );
    expect((await call('POST', `/api/admin/products/${cola.id}/stock`, admin, { add: -30 })).status).toBe(
      409,
    );
    expect(
      (await call('POST', `/api/admin/products/${cola.id}/stock`, admin, { stock: 20 })).body.stock,
    ).toBe(20);
    const customer = await signedInUser(app);
    expect(
      (await call('POST', '/api/admin/products', customer, { name: 'X', category: 'Y', priceCents: 1 }))
        .status,
    ).toBe(403);
    const staff = await signedInStaff(app);
    expect((await call('GET', '/api/admin/concessions', staff)).status).toBe(200);
    expect((await call('POST', `/api/admin/products/${cola.id}/stock`, staff, { add: 1 })).status).toBe(403);

    // Clear refusals, never a 500.
    expect((await call('POST', '/api/admin/products', admin, { name: 'X', priceCents: 100 })).status).toBe(
      400,
    );
    expect(
      (await call('POST', '/api/admin/products', admin, { name: 'X', category: 'Y', priceCents: -1 })).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/admin/products', admin, {
          name: 'Combo of combos',
          category: 'Combos',
          priceCents: 100,
          components: [{ productId: combo.id, quantity: 1 }],
        })
      ).status,
    ).toBe(400);
    expect((await call('DELETE', `/api/admin/products/${cola.id}`, admin)).status).toBe(409); // in a combo
    expect((await call('DELETE', `/api/admin/products/${hidden.body.id}`, admin)).status).toBe(200);
    const categories = adminMenu.categories;
    expect((await call('DELETE', `/api/admin/product-categories/${categories[0]!.id}`, admin)).status).toBe(
      409,
    );

    const actions = (
      await app.database.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(sql`${auditLog.action} like 'product%'`)
    ).map((a) => a.action);
    expect(actions.filter((a) => a === 'product.create')).toHaveLength(6);
    expect(actions).toContain('product.stock');
    expect(actions).toContain('product.delete');
  });

  it('prices seats and food together on the server: options add their deltas, combos their own price', async () => {
    const customer = await signedInUser(app);
    const bookingIds = await holdSeats(app, customer, show.showtimeId, [
      show.seatIds[0]![0]!,
      show.seatIds[0]![1]!,
    ]);
    const quote = await call('POST', '/api/pay/quote', customer, {
      bookingIds,
      products: [
        {
          productId: popcorn.id,
          quantity: 1,
          options: [choice(popcorn, 'Size', 'Large'), choice(popcorn, 'Flavour', 'Sweet')],
        },
        { productId: combo.id, quantity: 2 },
      ],
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const q = quote.body as Quote;
    expect(q.lines).toHaveLength(2);
    expect(q.products).toEqual([
      expect.objectContaining({
        name: 'Popcorn',
        options: ['Large', 'Sweet'],
        quantity: 1,
        unitPriceCents: 650,
        priceCents: 650,
      }),
      expect.objectContaining({
        name: 'Movie night combo',
        options: [],
        quantity: 2,
        unitPriceCents: 1150,
        priceCents: 2300,
      }),
    ]);
    expect(q.totalCents).toBe(2 * 1200 + 650 + 2300);

    // A required option left out, two sizes, an option of another product, a product not on the menu.
    const refused = async (products: object[]) =>
      call('POST', '/api/pay/quote', customer, { bookingIds, products });
    const noSize = await refused([{ productId: popcorn.id, quantity: 1 }]);
    expect(noSize).toMatchObject({ status: 400, body: { error: 'Choose a Size for Popcorn' } });
    const twoSizes = await refused([
      {
        productId: popcorn.id,
        quantity: 1,
        options: [choice(popcorn, 'Size', 'Large'), choice(popcorn, 'Size', 'Small')],
      },
    ]);
    expect(twoSizes.status).toBe(400);
    expect(
      (await refused([{ productId: cola.id, quantity: 1, options: [choice(popcorn, 'Size', 'Large')] }]))
        .status,
    ).toBe(400);
    expect((await refused([{ productId: show.showtimeId, quantity: 1 }])).status).toBe(404);
    expect((await refused([{ productId: nachos.id, quantity: 4 }])).body).toMatchObject({
      code: 'sold_out',
      error: 'Sold out: Nachos',
      productIds: [nachos.id],
    });
    const german = await app.inject({
      method: 'POST',
      url: '/api/pay/quote',
      headers: { ...customer.headers, 'accept-language': 'de' },
      payload: { bookingIds, products: [{ productId: nachos.id, quantity: 4 }] },
    });
    expect(german.json()).toMatchObject({ error: 'Ausverkauft: Nachos' });
    // A seat delivery must name a seat of this order, at a time in its showtime's window.
    const [{ startsAt }] = (await app.database.db
      .select({ startsAt: showtimes.startsAt })
      .from(showtimes)
      .where(eq(showtimes.id, show.showtimeId))) as [{ startsAt: Date }];
    const start = startsAt.getTime();
    const seatFor = (at: number, bookingId = bookingIds[0]!) =>
      call('POST', '/api/pay/quote', customer, {
        bookingIds,
        products: [{ productId: cola.id, quantity: 1 }],
        fulfilment: { kind: 'SEAT', bookingId, at: new Date(at).toISOString() },
      });
    expect((await seatFor(start + 20 * 60_000)).status).toBe(200);
    expect((await seatFor(start - 31 * 60_000)).status).toBe(400);
    expect((await seatFor(start + 20 * 60_000, show.showtimeId)).status).toBe(400);
    // Nothing at all is a 400.
    expect((await call('POST', '/api/pay/quote', customer, { bookingIds: [] })).status).toBe(400);
  });

  it('sells food alone, reserves its stock while the order is open, gives it back when it expires unpaid', async () => {
    const customer = await signedInUser(app);
    const before = await stockOf(nachos.id);
    const started = await call('POST', '/api/pay/checkout', customer, {
      bookingIds: [],
      products: [{ productId: nachos.id, quantity: 2 }],
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.totalCents).toBe(1100);
    expect(await stockOf(nachos.id)).toBe(before! - 2);
    // Someone else now finds only what is left.
    const other = await signedInUser(app);
    const tooMany = await call('POST', '/api/pay/checkout', other, {
      bookingIds: [],
      products: [{ productId: nachos.id, quantity: before! - 1 }],
    });
    expect(tooMany).toMatchObject({ status: 409, body: { code: 'sold_out', productIds: [nachos.id] } });
    // The checkout runs out: its nachos are on sale again, once.
    await app.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '10 minutes'` })
      .where(eq(orders.id, started.body.sessionId));
    const deps = { ...app.deps, providers: app.paymentProviders };
    expect(await expireStaleCheckouts(deps)).toBe(1);
    expect(await expireStaleCheckouts(deps)).toBe(0);
    expect(await stockOf(nachos.id)).toBe(before);
    expect(await app.database.db.select().from(stockReservations)).toEqual([]);
  });

  it('a paid order lists its items and where they go; a late payment of an expired order takes the stock again or refunds it', async () => {
    const customer = await signedInUser(app);
    const bookingIds = await holdSeats(app, customer, show.showtimeId, [show.seatIds[1]![0]!]);
    const started = await call('POST', '/api/pay/checkout', customer, {
      bookingIds,
      products: [
        { productId: popcorn.id, quantity: 1, options: [choice(popcorn, 'Size', 'Large')] },
        { productId: beer.id, quantity: 1 },
      ],
      fulfilment: { kind: 'PICKUP' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await pay(started.body.sessionId);
    const order = await myOrder(customer, started.body.orderRef);
    expect(order.status).toBe('paid');
    expect(order.totalCents).toBe(1200 + 650 + 600);
    expect(order.lines).toHaveLength(1);
    expect(order.products).toEqual([
      expect.objectContaining({ name: 'Craft beer', options: [], status: 'confirmed', ageRestricted: true }),
      expect.objectContaining({
        name: 'Popcorn',
        options: ['Large'],
        status: 'confirmed',
        ageRestricted: false,
      }),
    ]);
    expect(order.concessions).toEqual({
      fulfilment: 'PICKUP',
      deliverAt: null,
      seat: null,
      status: 'preparing',
    });

    // An order of the last nachos expires; someone buys them; then the first order's payment arrives after all.
    await call('POST', `/api/admin/products/${nachos.id}/stock`, admin, { stock: 1 });
    const late = await call('POST', '/api/pay/checkout', customer, {
      bookingIds: [],
      products: [
        { productId: nachos.id, quantity: 1 },
        { productId: cola.id, quantity: 1 },
      ],
    });
    expect(late.status).toBe(200);
    await app.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '10 minutes'` })
      .where(eq(orders.id, late.body.sessionId));
    await expireStaleCheckouts({ ...app.deps, providers: app.paymentProviders });
    const quick = await signedInUser(app);
    const bought = await call('POST', '/api/pay/checkout', quick, {
      bookingIds: [],
      products: [{ productId: nachos.id, quantity: 1 }],
    });
    expect(bought.status).toBe(200);
    const colaBefore = await stockOf(cola.id);
    // The provider's word arrives late (a webhook), through the one fulfilment path.
    await fulfilCheckout({ ...app.deps, providers: app.paymentProviders }, late.body.sessionId, {
      paymentId: 'pi_late',
    });
    const lateOrder = await myOrder(customer, late.body.orderRef);
    expect(lateOrder.products!.map((p) => [p.name, p.status])).toEqual([
      ['Cola', 'confirmed'],
      ['Nachos', 'refunded'],
    ]);
    expect(lateOrder.refundedCents).toBe(550);
    expect(await stockOf(nachos.id)).toBe(0);
    expect(await stockOf(cola.id)).toBe(colaBefore! - 1);
  });

  it('staff refund a food line: its money and its stock go back', async () => {
    const customer = await signedInUser(app);
    const before = await stockOf(beer.id);
    const started = await call('POST', '/api/pay/checkout', customer, {
      bookingIds: [],
      products: [
        { productId: beer.id, quantity: 2 },
        { productId: cola.id, quantity: 1 },
      ],
    });
    await pay(started.body.sessionId);
    expect(await stockOf(beer.id)).toBe(before! - 2);
    const staffView = (await call('GET', `/api/admin/orders?q=${started.body.orderRef}`, admin)).body
      .orders[0] as StaffOrder;
    const beerLine = staffView.products!.find((p) => p.name === 'Craft beer')!;
    const refund = await call('POST', `/api/admin/orders/${started.body.orderRef}/refund`, admin, {
      productLineIds: [beerLine.lineId],
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.refundedCents).toBe(1200);
    expect(await stockOf(beer.id)).toBe(before);
    const again = await call('POST', `/api/admin/orders/${started.body.orderRef}/refund`, admin, {
      productLineIds: [beerLine.lineId],
    });
    expect(again.body.refundedCents).toBe(0);
    expect(await stockOf(beer.id)).toBe(before);
    const order = await myOrder(customer, started.body.orderRef);
    expect(order.status).toBe('partially_refunded');
    expect(order.products!.map((p) => [p.name, p.status])).toEqual([
      ['Cola', 'confirmed'],
      ['Craft beer', 'refunded'],
    ]);
    expect(
      (
        await call('POST', `/api/admin/orders/${started.body.orderRef}/refund`, admin, {
          productLineIds: [show.showtimeId],
        })
      ).status,
    ).toBe(400);
  });
});
