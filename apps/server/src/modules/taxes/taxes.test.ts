import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { taxBreakdown, type Order, type Product, type Quote, type StaffOrder } from '@cinema/contract';
import { auditLog, orderLines, orders } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  newestMail,
  signedInAdmin,
  signedInStaff,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { setUpPrices } from '../../test/prices.ts';
import { hasPoppler, readPdf } from '../../test/pdf.ts';
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
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      SWEEP_SECONDS: '3600',
      CINEMA_NAME: 'Roxy Pictures',
      CINEMA_ADDRESS: '12 Harbour Street|Springfield',
      CINEMA_TAX_NUMBER: 'US-99-1234567',
    });
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
    // The hosted test checkout lists every line of the order with its amount, as Stripe's line items would: the
    // seats, the food and drink, the fee, and the total.
    const hosted = await t.app.inject({ method: 'GET', url: `/api/pay/local/${sessionId}` });
    const pageLines = [...hosted.body.matchAll(/<li><span>(.*?)<\/span><span>(.*?)<\/span><\/li>/g)].map(
      ([, name, amount]) => `${name}: ${amount}`,
    );
    expect(
      pageLines
        .slice(0, 3)
        .map((l) => l.replace(/Seat \d/, 'Seat n'))
        .sort(),
    ).toEqual([
      'Row A Seat n · Adult: $13.00',
      'Row A Seat n · Adult: $13.00',
      'Row A Seat n · Child: $8.00',
    ]);
    expect(pageLines.slice(3)).toEqual(['2 × Cola: $7.00', 'Popcorn: $4.50', 'Booking fee × 2: $2.00']);
    expect(hosted.body).toMatch(/<p class="total"><span>Total<\/span><span>\$47\.50<\/span><\/p>/);
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

    // Its receipt, for the customer and for staff: the cinema, each line, net, tax by rate and gross.
    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/me/orders/${orderRef}/receipt.pdf`,
      headers: customer.headers,
    });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    const stranger = await signedInUser(t.app);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/me/orders/${orderRef}/receipt.pdf`,
          headers: stranger.headers,
        })
      ).statusCode,
    ).toBe(404);
    const staffCopy = await t.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${orderRef}/receipt.pdf`,
      headers: admin.headers,
    });
    expect(staffCopy.statusCode).toBe(200);
    if (hasPoppler) {
      const text = readPdf(receipt.rawPayload).text.join('\n').replace(/ +/g, ' ');
      for (const expected of [
        'Roxy Pictures',
        '12 Harbour Street',
        'Springfield',
        'Tax number: US-99-1234567',
        `Receipt, order ${orderRef}`,
        'Prices include tax.',
        'Popcorn 1 19% $4.50',
        'Cola 2 19% $7.00',
        'Booking fee 2 19% $2.00',
        'Net $43.12',
        'Tax at 7% on $31.78 $2.22',
        'Tax at 19% on $11.34 $2.16',
        'Tax $4.38',
        'Total $47.50',
        'Paid by card $47.50',
      ])
        expect(text).toContain(expected);
      expect(text.match(/ 1 7% \$13\.00/g)).toHaveLength(2);
      expect(text).toMatch(/ 1 7% \$8\.00/);
    }

    // The confirmation email tells the fee and the tax by rate too.
    const mail = await newestMail(t.app, customer.email, 'order_confirmation');
    for (const line of [
      'Booking fee × 2: $2.00',
      'Tax at 7% on $31.78: $2.22',
      'Tax at 19% on $11.34: $2.16',
    ])
      expect(mail!.text).toContain(line);
    expect(mail!.html).toContain('Tax at 19% on $11.34: $2.16');

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
    const body = { showtimeId: show.showtimeId, seatIds: [seat(3, 1), seat(3, 2)], paymentMethod: 'cash' };
    // The counter's basket asks first (staff may): the fee as its own line, the total the sale will charge.
    const staff = await signedInStaff(t.app);
    const quote = await call('POST', '/api/admin/box-office/quote', staff, body);
    expect(quote.body).toEqual({
      totalCents: 2650,
      taxCents: 178,
      taxMode: 'inclusive',
      fees: [{ per: 'ORDER', quantity: 1, totalCents: 50 }],
      currency: 'USD',
    });
    expect((await call('POST', '/api/admin/box-office/quote', await signedInUser(t.app), body)).status).toBe(
      403,
    );
    const sale = await call('POST', '/api/admin/box-office/sales', admin, body);
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const order = sale.body as StaffOrder;
    expect(order.lines.map((l) => [l.kind, l.quantity, l.totalCents, l.taxCents])).toEqual([
      ['TICKET', 1, 1300, 85],
      ['TICKET', 1, 1300, 85],
      ['FEE', 1, 50, 8], // 50 × 19/119 = 7.98
    ]);
    expect(order).toMatchObject({ totalCents: 2650, taxCents: 178 });
    // A ticket moved is a new sale of a seat: taxed at today's ticket rate (the other line keeps its 7%).
    await setTaxes({ mode: 'inclusive', rates: [...RATES.slice(1), { kind: 'TICKET', ratePercent: 10 }] });
    const moved = await call('POST', `/api/admin/orders/${order.ref}/exchange`, admin, {
      moves: [{ bookingId: order.lines[0]!.bookingId, seatId: seat(4, 1) }],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const after = (await call('GET', `/api/admin/orders/${order.ref}`, admin)).body as StaffOrder;
    expect(after.lines.map((l) => [l.kind, l.taxRate, l.taxCents, l.totalCents])).toEqual([
      ['TICKET', 7, 85, 1300],
      ['TICKET', 10, 118, 1300], // 1300 × 10/110 = 118.18
      ['FEE', 19, 8, 50],
    ]);
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

  it('reports gross, tax and net of the tickets kept, and the booking fees and food apart, as JSON and CSV', async () => {
    await setTaxes({ mode: 'inclusive', rates: RATES });
    const fee = { perTicketCents: 100, perOrderCents: 0, exemptTicketTypeIds: [], refundable: false };
    await call('PUT', '/api/admin/fees', admin, { online: fee, counter: fee });
    const startsAt = new Date(Date.now() + 3 * 86_400_000);
    const later = await createShowtimeFixture(t.app.database.db, { rows: 2, cols: 4, startsAt });
    const customer = await signedInUser(t.app);
    const held = await holdSeats(t.app, customer, later.showtimeId, later.seatIds[0]!.slice(0, 2));
    const { sessionId, orderRef } = await checkOut(t.app, customer, held, {
      products: [{ productId: cola.id, quantity: 2 }],
    });
    await pay(sessionId);
    // One ticket refunded: the fee stays (not refundable, a ticket still stands).
    const refund = await call('POST', `/api/admin/orders/${orderRef}/refund`, admin, {
      bookingIds: [held[0]],
    });
    expect(refund.body.refundedCents).toBe(1300);

    const day = startsAt.toISOString().slice(0, 10);
    const url = `/api/admin/reports/sales?from=${day}&to=${day}&groupBy=showtime`;
    for (const attempt of ['computed', 'kept']) {
      const report = (await call('GET', url, admin)).body;
      const row = report.rows.find((r: { key: string }) => r.key === later.showtimeId);
      expect(row, attempt).toMatchObject({
        admits: 1,
        grossCents: 2600,
        refundCents: 1300,
        netCents: 1300,
        taxCents: 85, // the ticket still standing: 1300 × 7/107
        netOfTaxCents: 1215,
        feeCents: 200,
        feeTaxCents: 32,
        concessionCents: 700,
        concessionTaxCents: 112,
      });
      expect(row.admitsByType.map((a: { ticketType: string }) => a.ticketType)).not.toContain('Unspecified');
    }
    const csv = await t.app.inject({ method: 'GET', url, headers: { ...admin.headers, accept: 'text/csv' } });
    const [header, ...rows] = csv.body.split('\r\n');
    const columns = header!.split(',');
    // The day holds this showtime alone (the others start tomorrow): its totals are its own.
    const mine = rows.find((r) => r.startsWith('Total,'))!.split(',');
    expect(columns.slice(-5)).toEqual([
      'Tax',
      'Net of tax',
      'Booking fees',
      'Booking fee tax',
      'Concessions tax',
    ]);
    expect(mine.slice(-5)).toEqual(['0.85', '12.15', '2.00', '0.32', '1.12']);
  });
});

// The receipts an accountant expects (decision 047): each line taxed on its own and rounded once in the currency's
// minor unit, the receipt adding up what the lines were charged. Two tickets and a popcorn sold at the counter.
describe('receipts an accountant expects', () => {
  const CASES = [
    {
      currency: 'USD',
      mode: 'exclusive',
      ticket: 1299, // $12.99 + 7.25% = 94.18 → $0.94 a ticket
      popcorn: 450, // $4.50 + 7.25% = 32.63 → $0.33
      rates: { ticket: 7.25, product: 7.25 },
      lines: [
        [1393, 94],
        [1393, 94],
        [483, 33],
      ],
      receipt: ['Net $30.48', 'Tax at 7.25% on $30.48 $2.21', 'Tax $2.21', 'Total $32.69'],
    },
    {
      currency: 'EUR',
      mode: 'inclusive',
      ticket: 950, // €9.50 with 7% in it: 62.15 → €0.62
      popcorn: 500, // €5.00 with 19% in it: 79.83 → €0.80
      rates: { ticket: 7, product: 19 },
      lines: [
        [950, 62],
        [950, 62],
        [500, 80],
      ],
      receipt: [
        'Net €21.96',
        'Tax at 7% on €17.76 €1.24',
        'Tax at 19% on €4.20 €0.80',
        'Tax €2.04',
        'Total €24.00',
      ],
    },
    {
      currency: 'JPY',
      mode: 'inclusive',
      ticket: 1800, // ¥1,800 with 10% in it: 163.6 → ¥164
      popcorn: 500, // ¥500 with 10% in it: 45.5 → ¥45
      rates: { ticket: 10, product: 10 },
      lines: [
        [1800, 164],
        [1800, 164],
        [500, 45],
      ],
      receipt: ['Net ¥3,727', 'Tax at 10% on ¥3,727 ¥373', 'Tax ¥373', 'Total ¥4,100'],
    },
    {
      currency: 'JPY',
      mode: 'exclusive',
      ticket: 1800, // ¥1,800 + 10% = ¥180
      popcorn: 455, // ¥455 + 10% = 45.5 → ¥46 (half up)
      rates: { ticket: 10, product: 10 },
      lines: [
        [1980, 180],
        [1980, 180],
        [501, 46],
      ],
      receipt: ['Net ¥4,055', 'Tax at 10% on ¥4,055 ¥406', 'Tax ¥406', 'Total ¥4,461'],
    },
  ] as const;

  it.each(CASES)('$currency, prices $mode of tax', async (c) => {
    const t = await createTestApp('pglite', { CURRENCY: c.currency, TAX_MODE: c.mode, RATE_LIMIT: 'off' });
    try {
      const call = caller(() => t.app);
      const admin = await signedInAdmin(t.app);
      const show = await createShowtimeFixture(t.app.database.db, { rows: 1, cols: 4, priceCents: c.ticket });
      const popcorn = await call('POST', '/api/admin/products', admin, {
        name: 'Popcorn',
        category: 'Popcorn',
        priceCents: c.popcorn,
      });
      expect(popcorn.status).toBe(201);
      const taxes = await call('PUT', '/api/admin/taxes', admin, {
        rates: [
          { kind: 'TICKET', ratePercent: c.rates.ticket },
          { kind: 'PRODUCT', ratePercent: c.rates.product },
        ],
      });
      expect(taxes.body).toMatchObject({ mode: c.mode, modeFrom: 'environment' });
      const sale = await call('POST', '/api/admin/box-office/sales', admin, {
        showtimeId: show.showtimeId,
        seatIds: show.seatIds[0]!.slice(0, 2),
        products: [{ productId: popcorn.body.id, quantity: 1 }],
        paymentMethod: 'cash',
      });
      expect(sale.status, JSON.stringify(sale.body)).toBe(200);
      const order = sale.body as StaffOrder;
      expect([...order.lines, ...order.products!].map((l) => [l.priceCents, l.taxCents])).toEqual(c.lines);
      const gross = c.lines.reduce((sum, [price]) => sum + price, 0);
      expect(order).toMatchObject({
        totalCents: gross,
        taxCents: c.lines.reduce((sum, [, tax]) => sum + tax, 0),
      });
      const pdf = await t.app.inject({
        method: 'GET',
        url: `/api/admin/orders/${order.ref}/receipt.pdf`,
        headers: admin.headers,
      });
      expect(pdf.statusCode).toBe(200);
      if (hasPoppler) {
        const text = readPdf(pdf.rawPayload).text.join('\n').replace(/ +/g, ' ');
        for (const line of c.receipt) expect(text).toContain(line);
      }
    } finally {
      await t.close();
    }
  });
});
