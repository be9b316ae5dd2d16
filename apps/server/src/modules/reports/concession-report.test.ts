import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDayTime, SalesReportSchema, type Product, type SalesReport } from '@cinema/contract';
import type { FastifyInstance } from 'fastify';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { addProduct, choiceId, POPCORN } from '../../test/menu.ts';
import { holdSeats } from '../../test/purchase.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

// DESIGN §7.2: the sales report gains food and drink: revenue by product and category, items sold, and revenue per
// admit (concession revenue ÷ admissions), in JSON and CSV. Sold with tickets, food counts with their showtime; sold
// alone, on the day it was paid. Refunded items leave it.

describe.each(engines)('food and drink in the sales report (%s)', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let popcorn: Product;
  let beer: Product;
  let showDay: string;
  let today: string;

  const post = async (url: string, who: SignedIn, payload: object) => {
    const res = await app.inject({ method: 'POST', url, headers: who.headers, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as any;
  };
  const report = async (query: string): Promise<SalesReport> => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/admin/reports/sales?${query}`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return SalesReportSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    admin = await signedInAdmin(app);
    // Three days ahead, so that food sold alone today falls on another day.
    const startsAt = new Date(Date.now() + 3 * 24 * 3600_000);
    show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 4, startsAt });
    showDay = localDayTime(startsAt.toISOString(), app.config.timeZone).date;
    today = localDayTime(new Date().toISOString(), app.config.timeZone).date;
    popcorn = await addProduct(app, admin, POPCORN);
    beer = await addProduct(app, admin, { name: 'Craft beer', category: 'Bar', priceCents: 600 });

    // Online: two seats (12.00 each) and a large popcorn (6.50) and two beers (12.00), paid.
    const customer = await signedInUser(app);
    const bookingIds = await holdSeats(app, customer, show.showtimeId, show.allSeatIds.slice(0, 2));
    const started = await post('/api/pay/checkout', customer, {
      bookingIds,
      products: [
        { productId: popcorn.id, quantity: 1, options: [choiceId(popcorn, 'Size', 'Large')] },
        { productId: beer.id, quantity: 2 },
      ],
    });
    expect(
      (await app.inject({ method: 'POST', url: `/api/pay/local/${started.sessionId}/pay` })).statusCode,
    ).toBe(303);
    // At the counter: a third seat and a small popcorn (4.50); the beers of the online order are refunded.
    await post('/api/admin/box-office/sales', admin, {
      showtimeId: show.showtimeId,
      seatIds: [show.allSeatIds[2]],
      products: [{ productId: popcorn.id, quantity: 1, options: [choiceId(popcorn, 'Size', 'Small')] }],
      paymentMethod: 'cash',
    });
    const order = await app.inject({
      method: 'GET',
      url: `/api/admin/orders/${started.orderRef}`,
      headers: admin.headers,
    });
    const beers = (order.json() as any).products.find((p: { name: string }) => p.name === 'Craft beer');
    await post(`/api/admin/orders/${started.orderRef}/refund`, admin, { productLineIds: [beers.lineId] });
    // Food alone, today: a beer at the counter.
    await post('/api/admin/box-office/sales', admin, {
      seatIds: [],
      products: [{ productId: beer.id, quantity: 1 }],
      paymentMethod: 'card',
    });
  });
  afterAll(() => t.close());

  it('counts items and revenue with their showtime, food alone on its day, refunded items not at all', async () => {
    const r = await report(`from=${today}&to=${showDay}&groupBy=day`);
    const day = (key: string) => r.rows.find((row) => row.key === key)!;
    // The showtime's day: 3 admits, 6.50 + 4.50 of popcorn (the refunded beers left out).
    expect(day(showDay)).toMatchObject({
      admits: 3,
      itemsSold: 2,
      concessionCents: 1100,
      concessionPerAdmitCents: 367,
    });
    // Today: the beer sold alone, on a day without showtimes (a row of its own, no admits).
    expect(day(today)).toMatchObject({
      showtimes: 0,
      admits: 0,
      itemsSold: 1,
      concessionCents: 600,
      concessionPerAdmitCents: null,
    });
    expect(r.totals).toMatchObject({ itemsSold: 3, concessionCents: 1700, concessionPerAdmitCents: 567 });
    expect(r.concessions).toEqual({
      byProduct: [
        { productId: popcorn.id, name: 'Popcorn', category: 'Popcorn', itemsSold: 2, revenueCents: 1100 },
        { productId: beer.id, name: 'Craft beer', category: 'Bar', itemsSold: 1, revenueCents: 600 },
      ],
      byCategory: [
        { name: 'Popcorn', itemsSold: 2, revenueCents: 1100 },
        { name: 'Bar', itemsSold: 1, revenueCents: 600 },
      ],
    });

    // By showtime: the food sold alone is in the totals only.
    const byShowtime = await report(`from=${today}&to=${showDay}&groupBy=showtime`);
    expect(byShowtime.rows.map((row) => [row.key, row.itemsSold, row.concessionCents])).toEqual([
      [show.showtimeId, 2, 1100],
    ]);
    expect(byShowtime.totals.concessionCents).toBe(1700);
  });

  it('writes them in the CSV: three columns per row, then tables by product and by category', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/admin/reports/sales?from=${today}&to=${showDay}&groupBy=movie&format=csv`,
      headers: admin.headers,
    });
    const lines = res.body.split('\r\n');
    expect(lines[0]).toMatch(
      /,Items sold,Concessions,Concessions per admit,Tax,Net of tax,Booking fees,Booking fee tax,Concessions tax$/,
    );
    expect(lines[1]).toMatch(/^Fixture Movie,.*,2,11\.00,3\.67,0\.00,[\d.]+,0\.00,0\.00,0\.00$/);
    expect(lines[2]).toMatch(/^Total,.*,3,17\.00,5\.67,0\.00,[\d.]+,0\.00,0\.00,0\.00$/);
    expect(lines.slice(3)).toEqual([
      '',
      'Category,Product,Items sold,Revenue',
      'Popcorn,Popcorn,2,11.00',
      'Bar,Craft beer,1,6.00',
      '',
      'Category,Items sold,Revenue',
      'Popcorn,2,11.00',
      'Bar,1,6.00',
      '',
    ]);
  });
});
