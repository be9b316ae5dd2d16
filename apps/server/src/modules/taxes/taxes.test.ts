import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { taxBreakdown, type Order, type Product, type Quote, type StaffOrder } from '@cinema/contract';
import { auditLog, orderLines, orders } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { setUpPrices } from '../../test/prices.ts';
import { checkOut, holdSeats } from '../../test/purchase.ts';

// DESIGN §7.4 and §7.8, decision 047: tax rates per kind set at /admin/taxes, each line priced by priceLines with its
// rate and tax rounded per line and kept on the order line; booking fees as FEE lines online and at the counter.

function caller(app: () => FastifyInstance) {
  return async (method: 'GET' | 'POST' | 'PUT', url: string, who?: SignedIn, payload?: object) => {
    const res = await app().inject({
      method,
      url,
      ...(who && { headers: who.headers }),
      ...(payload && { payload }),
    });
    return { status: res.statusCode, body: res.json() as any };
  };
}

describe.each(engines)('taxes and booking fees (%s)', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let types: Awaited<ReturnType<typeof setUpPrices>>;
  let popcorn: Product;
  let cola: Product;
  const call = caller(() => t.app);
  const seat = (row: number, n: number) => show.seatIds[row - 1]![n - 1]!;
  const pay = async (sessionId: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    expect(res.statusCode).toBe(303);
  };
  const myOrder = async (who: SignedIn, ref: string) =>
    (await call('GET', `/api/me/orders/${ref}`, who)).body as Order;
  const setTaxes = async (body: object) => {
    const res = await call('PUT', '/api/admin/taxes', admin, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const RATES = [
    { kind: 'TICKET', ratePercent: 7 },
    { kind: 'PRODUCT', ratePercent: 19 },
    { kind: 'FEE', ratePercent: 19 },
  ];

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    admin = await signedInAdmin(t.app);
    types = await setUpPrices(t.app, admin);
    show = await createShowtimeFixture(t.app.database.db, { rows: 4, cols: 8 });
    const made = async (body: object) => {
      const res = await call('POST', '/api/admin/products', admin, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as Product;
    };
    popcorn = await made({ name: 'Popcorn', category: 'Popcorn', priceCents: 450 });
    cola = await made({ name: 'Cola', category: 'Drinks', priceCents: 350 });
  });
  afterAll(() => t.close());

  it('keeps the rates at /admin/taxes for admins only, refuses what cannot be a rate, and audits each change', async () => {
    const customer = await signedInUser(t.app);
    expect((await call('GET', '/api/admin/taxes')).status).toBe(401);
    expect((await call('GET', '/api/admin/taxes', customer)).status).toBe(403);
    expect((await call('PUT', '/api/admin/taxes', customer, { rates: [] })).status).toBe(403);
    expect((await call('GET', '/api/admin/taxes', admin)).body).toEqual({
      mode: 'inclusive',
      modeFrom: 'environment',
      rates: [],
    });
    for (const [rates, error] of [
      [[{ kind: 'TICKET', ratePercent: 101 }], 'A tax rate is between 0% and 100%'],
      [[{ kind: 'TICKET', ratePercent: 7.125 }], 'A tax rate has at most two decimals'],
      [
        [{ kind: 'TICKET', ratePercent: 7, category: 'Drinks' }],
        'Only a food and drink rate names a product or category',
      ],
      [[{ kind: 'PRODUCT', ratePercent: 7, category: 'Bar' }], 'There is no such category'],
      [
        [{ kind: 'PRODUCT', ratePercent: 7, productId: '0190d4b8-0000-7000-8000-000000000000' }],
        'There is no such product',
      ],
      [
        [
          { kind: 'FEE', ratePercent: 7 },
          { kind: 'FEE', ratePercent: 8 },
        ],
        'Each rate is set once',
      ],
    ] as const) {
      const res = await call('PUT', '/api/admin/taxes', admin, { rates });
      expect(res.status, JSON.stringify(rates)).toBe(400);
      expect(res.body.error).toContain(error);
    }
    expect((await call('PUT', '/api/admin/taxes', admin, { mode: 'sideways', rates: [] })).status).toBe(400);

    const saved = await setTaxes({
      mode: 'inclusive',
      rates: [
        ...RATES,
        { kind: 'PRODUCT', category: 'drinks', ratePercent: 10 },
        { kind: 'PRODUCT', productId: popcorn.id, ratePercent: 0 },
      ],
    });
    expect(saved).toEqual({
      mode: 'inclusive',
      modeFrom: 'admin',
      rates: [
        { kind: 'TICKET', ratePercent: 7 },
        { kind: 'PRODUCT', ratePercent: 19 },
        { kind: 'PRODUCT', category: cola.categoryId, categoryName: 'Drinks', ratePercent: 10 },
        { kind: 'PRODUCT', productId: popcorn.id, productName: 'Popcorn', ratePercent: 0 },
        { kind: 'FEE', ratePercent: 19 },
      ],
    });
    const [entry] = await t.app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'taxes.update'))
      .orderBy(desc(auditLog.at))
      .limit(1);
    expect(entry!.actorEmail).toBe(admin.email);
    expect((entry!.before as { rates: unknown[] }).rates).toEqual([]);
    expect((entry!.after as { rates: unknown[] }).rates).toHaveLength(5);
  });

  it('prices each line with its rate, rounds per line, shows the fee before payment and keeps it all on the order', async () => {
    await setTaxes({ mode: 'inclusive', rates: RATES });
    const fee = {
      perTicketCents: 100,
      perOrderCents: 0,
      exemptTicketTypeIds: [types.child],
      refundable: false,
    };
    const fees = await call('PUT', '/api/admin/fees', admin, {
      online: fee,
      counter: { perTicketCents: 0, perOrderCents: 50, exemptTicketTypeIds: [], refundable: true },
    });
    expect(fees.status, JSON.stringify(fees.body)).toBe(200);
    expect((await call('GET', '/api/admin/fees', admin)).body.online).toEqual(fee);
    expect(
      (
        await call('PUT', '/api/admin/fees', admin, {
          online: { ...fee, exemptTicketTypeIds: ['0190d4b8-0000-7000-8000-000000000000'] },
          counter: fee,
        })
      ).body.error,
    ).toBe('There is no such ticket type');

    const customer = await signedInUser(t.app);
    const held = await holdSeats(t.app, customer, show.showtimeId, [seat(1, 1), seat(1, 2), seat(1, 3)]);
    const body = {
      bookingIds: held,
      tickets: [{ bookingId: held[2]!, ticketTypeId: types.child }],
      products: [
        { productId: popcorn.id, quantity: 1 },
        { productId: cola.id, quantity: 2 },
      ],
    };
    const quote = (await call('POST', '/api/pay/quote', customer, body)).body as Quote;
    // Two adults at 13.00 pay the fee (1.00 each), the child is exempt.
    const fees1 = quote.lines.filter((l) => l.kind === 'FEE');
    expect(fees1.map((l) => [l.quantity, l.unitCents, l.totalCents, l.taxRate, l.taxCents])).toEqual([
      [2, 100, 200, 19, 32], // 200 × 19/119 = 31.93
    ]);
    expect(
      quote.lines
        .filter((l) => l.kind === 'TICKET')
        .map((l) => [l.totalCents, l.taxCents])
        .sort(([a], [b]) => b! - a!),
    ).toEqual([
      [1300, 85], // 1300 × 7/107 = 85.05
      [1300, 85],
      [800, 52], // 800 × 7/107 = 52.34
    ]);
    expect(quote.products!.map((p) => [p.name, p.priceCents, p.taxRate, p.taxCents])).toEqual([
      ['Popcorn', 450, 19, 72], // 71.85
      ['Cola', 700, 19, 112], // 111.76
    ]);
    expect(quote).toMatchObject({
      totalCents: 4750,
      taxCents: 85 + 85 + 52 + 72 + 112 + 32,
      taxMode: 'inclusive',
    });

    const { sessionId, orderRef } = await checkOut(t.app, customer, held, body);
    await pay(sessionId);
    const order = await myOrder(customer, orderRef);
    expect(order.totalCents).toBe(4750);
    expect(order.taxCents).toBe(438);
    expect(order.taxMode).toBe('inclusive');
    // Seats in seat order (which seat is the child's depends on the hold's ids), the fee after them.
    const byKindAndPrice = (a: (typeof order.lines)[number], b: (typeof order.lines)[number]) =>
      a.kind.localeCompare(b.kind) || b.totalCents - a.totalCents;
    expect(
      [...order.lines].sort(byKindAndPrice).map((l) => [l.kind, l.taxRate, l.taxCents, l.totalCents]),
    ).toEqual([
      ['FEE', 19, 32, 200],
      ['TICKET', 7, 85, 1300],
      ['TICKET', 7, 85, 1300],
      ['TICKET', 7, 52, 800],
    ]);
    expect(order.lines.at(-1)!.kind).toBe('FEE');
    expect(order.lines[0]!.name).toMatch(/ — Row A Seat 1$/);
    // The receipt's tax by rate.
    expect(taxBreakdown([...order.lines, ...order.products!]).bands).toEqual([
      { rateBp: 700, netCents: 3400 - 222, taxCents: 222, grossCents: 3400 },
      { rateBp: 1900, netCents: 1350 - 216, taxCents: 216, grossCents: 1350 },
    ]);

    // A change of rate (and of mode) never rewrites an order already made.
    await setTaxes({ mode: 'exclusive', rates: [{ kind: 'TICKET', ratePercent: 10 }] });
    const again = await myOrder(customer, orderRef);
    expect(again.lines.map((l) => [l.taxRate, l.taxCents, l.totalCents])).toEqual(
      order.lines.map((l) => [l.taxRate, l.taxCents, l.totalCents]),
    );
    expect(again.taxCents).toBe(438);
    expect(again.taxMode).toBe('inclusive');

    // Exclusive: tax on top of each line, rounded per line; the fee untaxed now (no FEE rate).
    const other = await signedInUser(t.app);
    const held2 = await holdSeats(t.app, other, show.showtimeId, [seat(2, 1)]);
    const quote2 = (await call('POST', '/api/pay/quote', other, { bookingIds: held2 })).body as Quote;
    expect(quote2.lines.map((l) => [l.kind, l.unitCents, l.taxCents, l.totalCents])).toEqual([
      ['TICKET', 1300, 130, 1430],
      ['FEE', 100, 0, 100],
    ]);
    expect(quote2).toMatchObject({
      subtotalCents: 1400,
      taxCents: 130,
      totalCents: 1530,
      taxMode: 'exclusive',
    });
    const stored = await checkOut(t.app, other, held2);
    const lines = await t.app.database.db
      .select({
        kind: orderLines.kind,
        taxRateBp: orderLines.taxRateBp,
        taxCents: orderLines.taxCents,
        priceCents: orderLines.priceCents,
      })
      .from(orderLines)
      .innerJoin(orders, eq(orderLines.orderId, orders.id))
      .where(eq(orders.ref, stored.orderRef));
    expect(lines.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'FEE', taxRateBp: 0, taxCents: 0, priceCents: 100 },
      { kind: 'TICKET', taxRateBp: 1000, taxCents: 130, priceCents: 1430 },
    ]);

    // The whole order refunded: its fee is not refundable, so it stays paid and the order is refunded all the same.
    const refund = await call('POST', `/api/admin/orders/${orderRef}/refund`, admin, {});
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.refundedCents).toBe(4750 - 200);
    const refunded = refund.body.order as StaffOrder;
    expect(refunded.status).toBe('refunded');
    expect(refunded.lines.find((l) => l.kind === 'FEE')!.status).toBe('confirmed');
  });

  it('charges the counter’s own fee, per order, and gives it back with the last ticket when it is refundable', async () => {
    await setTaxes({ mode: 'inclusive', rates: RATES });
    const sale = await call('POST', '/api/admin/box-office/sales', admin, {
      showtimeId: show.showtimeId,
      seatIds: [seat(3, 1), seat(3, 2)],
      paymentMethod: 'cash',
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const order = sale.body as StaffOrder;
    expect(order.lines.map((l) => [l.kind, l.quantity, l.totalCents, l.taxCents])).toEqual([
      ['TICKET', 1, 1300, 85],
      ['TICKET', 1, 1300, 85],
      ['FEE', 1, 50, 8], // 50 × 19/119 = 7.98
    ]);
    expect(order).toMatchObject({ totalCents: 2650, taxCents: 178 });
    const first = await call('POST', `/api/admin/orders/${order.ref}/refund`, admin, {
      bookingIds: [order.lines[0]!.bookingId],
    });
    expect(first.body.refundedCents).toBe(1300);
    const last = await call('POST', `/api/admin/orders/${order.ref}/refund`, admin, {
      bookingIds: [order.lines[1]!.bookingId],
    });
    expect(last.body.refundedCents).toBe(1350);
    expect((last.body.order as StaffOrder).lines.map((l) => l.status)).toEqual([
      'refunded',
      'refunded',
      'refunded',
    ]);
  });
});
