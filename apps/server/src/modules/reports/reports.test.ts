import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SalesReportSchema, type SalesReport } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import {
  bookings,
  orderLines,
  orders,
  halls,
  movies,
  orderPayments,
  orderRefunds,
  salesReportChanges,
  salesReportShowtimes,
  seats,
  showtimes,
  ticketTypes,
} from '../../db/schema/index.ts';
import { createShowtimeFixture } from '../../test/fixtures.ts';
import { setUpPrices } from '../../test/prices.ts';
import { checkOut, holdSeats } from '../../test/purchase.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

// The cinema is in Berlin; its clocks jump from 02:00 to 03:00 on Sunday 2026-03-29 (a 23-hour day).
const TZ = 'Europe/Berlin';
const STRIPE = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_reports',
  STRIPE_WEBHOOK_SECRET: 'whsec_reports',
  STRIPE_API_URL: 'http://127.0.0.1:9',
};

interface Line {
  type: string | null;
  list: number;
  discount?: number;
  status?: 'CONFIRMED' | 'REFUNDED' | 'EXPIRED';
  checkedIn?: boolean;
  /** After an exchange to a dearer ticket: what is still to collect (the list price is the new ticket's). */
  due?: number;
  refunds?: { kind: 'staff' | 'exchange' | 'lost_seat'; amount: number }[];
}

/**
 * A hall of 4 seats on sale, one blocked and one retired; Alpha at 00:30 (CET) and 00:30 the next night (CEST), Beta
 * at 20:00 on the DST day and at 13:00 the day before; orders by Stripe, at the counter, in test mode and unpaid.
 */
async function seedCinema(db: Queryable, customer: string) {
  const [hall] = await db
    .insert(halls)
    .values({ name: 'Hall 1', rows: 1, cols: 6, rowLabels: ['A'] })
    .returning();
  const seatRows = await db
    .insert(seats)
    .values(
      Array.from({ length: 6 }, (_, i) => ({
        hallId: hall!.id,
        row: 1,
        number: i + 1,
        col: i,
        rowLabel: 'A',
        blocked: i === 4,
        retiredAt: i === 5 ? new Date('2026-01-01T00:00:00Z') : null,
      })),
    )
    .returning();
  const seatIds = seatRows.sort((a, b) => a.number - b.number).map((s) => s.id);
  await db.insert(ticketTypes).values([
    { name: 'Adult', position: 0 },
    { name: 'Child', position: 1 },
    { name: 'Senior', position: 2 },
  ]);
  const [alpha, beta] = await db
    .insert(movies)
    .values([{ title: 'Alpha' }, { title: 'Beta' }])
    .returning();
  const show = async (movieId: string, startsAt: string) => {
    const at = new Date(startsAt);
    const [row] = await db
      .insert(showtimes)
      .values({
        movieId,
        hallId: hall!.id,
        startsAt: at,
        endsAt: new Date(at.getTime() + 135 * 60_000),
        priceCents: 1000,
      })
      .returning();
    return row!.id;
  };
  const s1 = await show(alpha!.id, '2026-03-28T23:30:00Z'); // 00:30 CET on 29 March (23:30 on the 28th in UTC)
  const s2 = await show(alpha!.id, '2026-03-29T22:30:00Z'); // 00:30 CEST on 30 March (still the 29th in UTC)
  const s3 = await show(beta!.id, '2026-03-29T18:00:00Z'); // 20:00 CEST on 29 March
  const s4 = await show(beta!.id, '2026-03-28T12:00:00Z'); // 13:00 CET on 28 March: before the span

  const order = async (
    showtimeId: string,
    provider: 'stripe' | 'box_office' | 'local',
    status: 'paid' | 'refunded' | 'expired',
    firstSeat: number,
    lines: Line[],
  ) => {
    const amount = lines.reduce((n, l) => n + l.list - (l.discount ?? 0), 0);
    const [session] = await db
      .insert(orders)
      .values({
        userId: customer,
        provider,
        status: status === 'paid' ? 'PAID' : status === 'refunded' ? 'REFUNDED' : 'EXPIRED',
        amountCents: amount,
        subtotalCents: lines.reduce((n, l) => n + l.list, 0),
        discountCents: lines.reduce((n, l) => n + (l.discount ?? 0), 0),
        expiresAt: new Date('2026-03-20T00:00:00Z'),
        paidAt: status === 'expired' ? null : new Date('2026-03-15T10:00:00Z'),
        paymentMethod: provider === 'box_office' ? 'cash' : null,
        ref: randomUUID().slice(0, 8),
      })
      .returning();
    const [payment] =
      status === 'expired'
        ? []
        : await db
            .insert(orderPayments)
            .values({
              orderId: session!.id,
              method: provider === 'box_office' ? 'CASH' : 'CARD',
              amountCents: amount,
              paidAt: new Date('2026-03-15T10:00:00Z'),
            })
            .returning();
    for (const [i, l] of lines.entries()) {
      const [booking] = await db
        .insert(bookings)
        .values({
          showtimeId,
          seatId: seatIds[firstSeat + i]!,
          userId: customer,
          status: l.status ?? 'CONFIRMED',
          priceCents: l.list - (l.discount ?? 0),
          checkoutSessionId: session!.id,
          confirmedAt: new Date('2026-03-15T10:00:00Z'),
          checkedInAt: l.checkedIn ? new Date(showtimeId === s1 ? '2026-03-28T23:20:00Z' : Date.now()) : null,
        })
        .returning();
      const [line] = await db
        .insert(orderLines)
        .values({
          orderId: session!.id,
          bookingId: booking!.id,
          seatRow: 1,
          seatNumber: firstSeat + i + 1,
          unitPriceCents: l.list,
          priceCents: l.list - (l.discount ?? 0),
          listPriceCents: l.list,
          discountCents: l.discount ?? 0,
          dueCents: l.due ?? 0,
          ticketTypeName: l.type,
          result: status === 'expired' ? null : l.status === 'REFUNDED' ? 'refunded' : 'confirmed',
        })
        .returning();
      for (const r of l.refunds ?? [])
        await db.insert(orderRefunds).values({
          orderId: session!.id,
          lineId: line!.id,
          paymentId: payment!.id,
          amountCents: r.amount,
          kind: r.kind,
          status: 'succeeded',
        });
    }
  };
  // 29 March (local): Alpha 00:30 — two tickets with a 10% code, the adult checked in; a counter sale refunded whole.
  await order(s1, 'stripe', 'paid', 0, [
    { type: 'Adult', list: 1000, discount: 100, checkedIn: true },
    { type: 'Child', list: 600, discount: 60 },
  ]);
  await order(s1, 'box_office', 'refunded', 2, [
    { type: 'Adult', list: 1000, status: 'REFUNDED', refunds: [{ kind: 'staff', amount: 1000 }] },
  ]);
  // Beta 20:00 — a ticket sold before ticket types at 800, exchanged for a cheaper seat (now 650, 150 given back);
  // a test-mode sale; an abandoned checkout.
  await order(s3, 'stripe', 'paid', 0, [
    { type: null, list: 650, refunds: [{ kind: 'exchange', amount: 150 }] },
  ]);
  await order(s3, 'local', 'paid', 1, [{ type: 'Adult', list: 1000 }]);
  await order(s3, 'stripe', 'expired', 2, [{ type: 'Adult', list: 1000, status: 'EXPIRED' }]);
  // 30 March (local, still the 29th in UTC): Alpha — one adult at 1000, exchanged for a 1200 seat, 200 to collect.
  await order(s2, 'stripe', 'paid', 0, [{ type: 'Adult', list: 1200, due: 200 }]);
  // 28 March: Beta at 13:00 — outside the span.
  await order(s4, 'stripe', 'paid', 0, [{ type: 'Adult', list: 1000 }]);
  return { s1, s2, s3, s4, alpha: alpha!.id, beta: beta!.id, order, show };
}

const figures = (r: SalesReport['totals']) => ({
  admits: r.admits,
  byType: Object.fromEntries(r.admitsByType.map((t) => [t.ticketType, t.admits])),
  gross: r.grossCents,
  discounts: r.discountCents,
  refunds: r.refundCents,
  due: r.dueCents,
  net: r.netCents,
  sellable: r.sellableSeats,
  occupancy: r.occupancy,
  checkedIn: r.checkedIn,
  checkInRate: r.checkInRate,
  showtimes: r.showtimes,
});

describe.each(engines)('sales reports (%s)', (engine) => {
  let t: TestApp;
  let testMode: TestApp;
  let admin: SignedIn;
  let testAdmin: SignedIn;
  let ids: Awaited<ReturnType<typeof seedCinema>>;

  beforeAll(async () => {
    [t, testMode] = await Promise.all([
      createTestApp(engine, { CINEMA_TIME_ZONE: TZ, ...STRIPE }),
      createTestApp(engine, { CINEMA_TIME_ZONE: TZ }),
    ]);
    admin = await signedInUser(t.app, { role: 'ADMIN' });
    testAdmin = await signedInUser(testMode.app, { role: 'ADMIN' });
    const customer = await signedInUser(t.app);
    const testCustomer = await signedInUser(testMode.app);
    ids = await seedCinema(t.app.database.db, customer.id);
    await seedCinema(testMode.app.database.db, testCustomer.id);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), testMode?.close()]);
  });

  const report = async (query: string, who = admin, app = t) => {
    const res = await app.app.inject({
      method: 'GET',
      url: `/api/admin/reports/sales?${query}`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return SalesReportSchema.parse(res.json());
  };

  it('sums each local day, counting a sale on its showtime day across the DST change, without test sales', async () => {
    const r = await report('from=2026-03-29&to=2026-03-30&groupBy=day');
    expect(r.testSales).toBe('excluded');
    expect(r.timeZone).toBe(TZ);
    expect(r.rows.map((x) => x.key)).toEqual(['2026-03-29', '2026-03-30']);
    // 29 March: Alpha 00:30 (1000 − 100, 600 − 60, and 1000 refunded whole) and Beta 20:00 (800, 150 back).
    expect(figures(r.rows[0]!)).toEqual({
      admits: 3,
      byType: { Adult: 1, Child: 1, Unspecified: 1 },
      gross: 3250,
      discounts: 160,
      refunds: 1000,
      due: 0,
      net: 2090,
      sellable: 8,
      occupancy: 3 / 8,
      checkedIn: 1,
      checkInRate: 1 / 3,
      showtimes: 2,
    });
    expect(figures(r.rows[1]!)).toEqual({
      admits: 1,
      byType: { Adult: 1, Child: 0, Unspecified: 0 },
      gross: 1200,
      discounts: 0,
      refunds: 0,
      due: 200,
      net: 1000,
      sellable: 4,
      occupancy: 0.25,
      checkedIn: 0,
      checkInRate: 0,
      showtimes: 1,
    });
    expect(figures(r.totals)).toEqual({
      admits: 4,
      byType: { Adult: 2, Child: 1, Unspecified: 1 },
      gross: 4450,
      discounts: 160,
      refunds: 1000,
      due: 200,
      net: 3090,
      sellable: 12,
      occupancy: 4 / 12,
      checkedIn: 1,
      checkInRate: 0.25,
      showtimes: 3,
    });
  });

  it('the day before holds only what starts on it on the cinema clocks', async () => {
    // 28 March: Beta at 13:00; Alpha's 23:30 UTC showtime is 00:30 on the 29th in Berlin.
    const r = await report('from=2026-03-28&to=2026-03-28');
    expect(r.groupBy).toBe('day');
    expect(r.rows.map((x) => [x.key, x.showtimes, x.grossCents])).toEqual([['2026-03-28', 1, 1000]]);
  });

  it('groups by movie and by showtime', async () => {
    const byMovie = await report('from=2026-03-29&to=2026-03-30&groupBy=movie');
    expect(byMovie.rows.map((x) => [x.label, x.key])).toEqual([
      ['Alpha', ids.alpha],
      ['Beta', ids.beta],
    ]);
    expect(figures(byMovie.rows[0]!)).toMatchObject({
      admits: 3,
      byType: { Adult: 2, Child: 1, Unspecified: 0 },
      gross: 3800,
      discounts: 160,
      refunds: 1000,
      due: 200,
      net: 2440,
      sellable: 8,
      showtimes: 2,
    });
    expect(figures(byMovie.rows[1]!)).toMatchObject({
      admits: 1,
      gross: 650,
      refunds: 0,
      due: 0,
      net: 650,
      showtimes: 1,
    });
    expect(figures(byMovie.totals)).toEqual(figures((await report('from=2026-03-29&to=2026-03-30')).totals));

    const byShowtime = await report('from=2026-03-29&to=2026-03-30&groupBy=showtime');
    expect(byShowtime.rows.map((x) => [x.key, x.label])).toEqual([
      [ids.s1, 'Alpha · 2026-03-29 00:30 · Hall 1'],
      [ids.s3, 'Beta · 2026-03-29 20:00 · Hall 1'],
      [ids.s2, 'Alpha · 2026-03-30 00:30 · Hall 1'],
    ]);
    expect(byShowtime.rows.map((x) => [x.netCents, x.occupancy, x.checkInRate])).toEqual([
      [2440 - 1000, 0.5, 0.5],
      [650, 0.25, 0],
      [1000, 0.25, 0],
    ]);
  });

  it('counts test-mode sales while the server runs in test mode, and says so', async () => {
    const r = await report('from=2026-03-29&to=2026-03-29', testAdmin, testMode);
    expect(r.testSales).toBe('included');
    expect(figures(r.totals)).toMatchObject({
      admits: 4,
      byType: { Adult: 2, Child: 1, Unspecified: 1 },
      gross: 4250,
      net: 3090,
      occupancy: 0.5,
    });
  });

  it('answers a CSV file with a header row and a totals row, for Accept: text/csv or format=csv', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-03-29&to=2026-03-30&groupBy=movie',
      headers: { ...admin.headers, accept: 'text/csv' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="sales-2026-03-29-to-2026-03-30-by-movie.csv"',
    );
    expect(res.body.split('\r\n')).toEqual([
      'Movie,Showtimes,Admits: Adult,Admits: Child,Admits: Unspecified,Admits,Gross,Discounts,Refunds,To collect,Net,' +
        'Sellable seats,Occupancy %,Checked in,Check-in rate %,Items sold,Concessions,Concessions per admit,' +
        'Tax,Net of tax,Booking fees,Booking fee tax,Concessions tax',
      'Alpha,2,2,1,0,3,38.00,1.60,10.00,2.00,24.40,8,37.5,1,33.3,0,0.00,0.00,0.00,24.40,0.00,0.00,0.00',
      'Beta,1,0,0,1,1,6.50,0.00,0.00,0.00,6.50,4,25.0,0,0.0,0,0.00,0.00,0.00,6.50,0.00,0.00,0.00',
      'Total,3,2,1,1,4,44.50,1.60,10.00,2.00,30.90,12,33.3,1,25.0,0,0.00,0.00,0.00,30.90,0.00,0.00,0.00',
      '',
    ]);
    const byQuery = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-03-29&to=2026-03-30&groupBy=movie&format=csv',
      headers: admin.headers,
    });
    expect(byQuery.body).toBe(res.body);
  });

  it('refuses bad spans and groupings with 400, and non-admins', async () => {
    for (const query of [
      'from=2026-03-30&to=2026-03-29',
      'from=2026-02-30&to=2026-03-01',
      'from=2025-01-01&to=2026-01-02',
      'from=2026-03-01',
      'from=2026-03-01&to=2026-03-02&groupBy=hall',
      'from=2026-03-01&to=2026-03-02&format=xml',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/reports/sales?${query}`,
        headers: admin.headers,
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toBeTruthy();
    }
    const customer = await signedInUser(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-03-29&to=2026-03-30',
      headers: customer.headers,
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers a report for the last days of the year 9999 with a 400 naming the days it covers, never a 500', async () => {
    const ask = (query: string, language = 'en') =>
      t.app.inject({
        method: 'GET',
        url: `/api/admin/reports/sales?${query}`,
        headers: { ...admin.headers, 'accept-language': language },
      });
    for (const query of ['from=9999-12-25&to=9999-12-31', 'from=0001-01-01&to=0001-01-02']) {
      const res = await ask(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({
        error: expect.stringContaining('Choose a day from 1900-01-01 to 9999-12-30'),
        code: 'bad_request',
      });
    }
    expect((await ask('from=9999-12-25&to=9999-12-31', 'de')).json().error).toContain('Wähle einen Tag');
    // The last day it takes still answers.
    const last = await ask('from=9999-12-25&to=9999-12-30');
    expect(last.statusCode, last.body).toBe(200);
    expect((last.json() as SalesReport).totals.admits).toBe(0);
  });

  it('sums a showtime still on sale from its lines, and keeps its figures too', async () => {
    const starts = new Date(Date.now() + 2 * 86_400_000);
    starts.setUTCHours(12, 0, 0, 0);
    const upcoming = await ids.show(ids.beta, starts.toISOString());
    await ids.order(upcoming, 'box_office', 'paid', 0, [{ type: 'Child', list: 700, discount: 70 }]);
    const day = starts.toISOString().slice(0, 10);
    const r = await report(`from=${day}&to=${day}&groupBy=showtime`);
    expect(r.rows.map((x) => [x.key, x.admits, x.grossCents, x.discountCents, x.netCents])).toEqual([
      [upcoming, 1, 700, 70, 630],
    ]);
    const kept = await t.app.database.db.select().from(salesReportShowtimes);
    expect(kept.map((k) => k.showtimeId)).toContain(upcoming);
  });

  it('keeps the figures of showtimes that are over, and sees a refund and a check-in made after they were kept', async () => {
    const db = t.app.database.db;
    await report('from=2026-03-29&to=2026-03-30');
    const kept = await db.select().from(salesReportShowtimes);
    expect(kept.map((k) => k.showtimeId)).toEqual(expect.arrayContaining([ids.s1, ids.s2, ids.s3]));
    // Staff refund the child's ticket of the first order (540 paid), and check the 30 March adult in.
    const [child] = await db.select().from(orderLines).where(eq(orderLines.ticketTypeName, 'Child'));
    await db.transaction(async (tx) => {
      await tx.update(bookings).set({ status: 'REFUNDED' }).where(eq(bookings.id, child!.bookingId!));
      await tx.update(orderLines).set({ result: 'refunded' }).where(eq(orderLines.id, child!.id));
      await tx.insert(orderRefunds).values({
        orderId: child!.orderId,
        lineId: child!.id,
        paymentId: (
          await tx.select().from(orderPayments).where(eq(orderPayments.orderId, child!.orderId))
        )[0]!.id,
        amountCents: 540,
        kind: 'staff',
        status: 'succeeded',
      });
    });
    await db.update(bookings).set({ checkedInAt: new Date() }).where(eq(bookings.showtimeId, ids.s2));
    const r = await report('from=2026-03-29&to=2026-03-30');
    expect(figures(r.rows[0]!)).toMatchObject({
      admits: 2,
      byType: { Adult: 1, Child: 0, Unspecified: 1 },
      gross: 3250,
      refunds: 1000 + 540,
      net: 2090 - 540,
      checkedIn: 1,
      checkInRate: 0.5,
    });
    expect(figures(r.rows[1]!)).toMatchObject({ admits: 1, checkedIn: 1, checkInRate: 1 });
    // Kept again, with the changes they have now seen forgotten.
    expect((await db.select().from(salesReportShowtimes)).map((k) => k.showtimeId)).toEqual(
      expect.arrayContaining([ids.s1, ids.s2, ids.s3]),
    );
    expect(await db.select().from(salesReportChanges)).toEqual([]);
  });
});

describe.skipIf(!postgresUrl)('kept report figures and a change in flight (postgres)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let ids: Awaited<ReturnType<typeof seedCinema>>;

  beforeAll(async () => {
    t = await createTestApp('postgres', { CINEMA_TIME_ZONE: TZ, ...STRIPE });
    admin = await signedInUser(t.app, { role: 'ADMIN' });
    ids = await seedCinema(t.app.database.db, (await signedInUser(t.app)).id);
  });
  afterAll(() => t?.close());

  const admits = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-03-29&to=2026-03-29&groupBy=showtime',
      headers: admin.headers,
    });
    return SalesReportSchema.parse(res.json()).rows.map((r) => [r.key, r.admits]);
  };

  it('a refund that commits after a report kept the figures it could not see makes them stale', async () => {
    const [child] = await t.app.database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.ticketTypeName, 'Child'));
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`update bookings set status = 'REFUNDED' where id = $1`, [child!.bookingId]);
      // The report computes and keeps the showtime's figures while the refund is uncommitted: it sees 2 admits.
      expect(await admits()).toEqual([
        [ids.s1, 2],
        [ids.s3, 1],
      ]);
      expect((await t.app.database.db.select().from(salesReportShowtimes)).length).toBe(2);
      await other.query('commit');
    } finally {
      await other.end();
    }
    // The kept figures did not see the refund's transaction: they are computed again.
    expect(await admits()).toEqual([
      [ids.s1, 1],
      [ids.s3, 1],
    ]);
  });
});

/** Two showtimes on sale on the same day (Berlin) three days from now, in halls of their own; their day. */
async function showtimesOnSale(db: Queryable) {
  const starts = new Date(Date.now() + 3 * 86_400_000);
  starts.setUTCHours(10, 0, 0, 0);
  const later = new Date(starts.getTime() + 4 * 3_600_000);
  const a = await createShowtimeFixture(db, { startsAt: starts, rows: 2, cols: 10 });
  const b = await createShowtimeFixture(db, { startsAt: later, rows: 2, cols: 10 });
  return { a, b, day: starts.toISOString().slice(0, 10) };
}

/** The report of one day by showtime, as the admin reads it. */
async function dayReport(t: TestApp, admin: SignedIn, day: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/admin/reports/sales?from=${day}&to=${day}&groupBy=showtime`,
    headers: admin.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return SalesReportSchema.parse(res.json());
}

const pay = (t: TestApp, sessionId: string) =>
  t.app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });

describe.each(engines)('the report of showtimes on sale, kept and up to date at once (%s)', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let shows: Awaited<ReturnType<typeof showtimesOnSale>>;
  let types: Awaited<ReturnType<typeof setUpPrices>>;

  beforeAll(async () => {
    // The built-in test checkout: its sales count in the report.
    t = await createTestApp(engine, { CINEMA_TIME_ZONE: TZ, RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    admin = await signedInAdmin(t.app);
    alice = await signedInUser(t.app);
    bob = await signedInUser(t.app);
    types = await setUpPrices(t.app, admin);
    const promo = await post(admin, '/api/admin/promo-codes', { code: 'TENOFF', percentOff: 10 });
    expect(promo.statusCode, promo.body).toBe(201);
    shows = await showtimesOnSale(t.app.database.db);
  });
  afterAll(() => t?.close());

  const post = (who: SignedIn, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, payload });

  /** Each showtime's [admits, admits by type, gross, discounts, refunds, net] in the day's report. */
  const read = async () =>
    (await dayReport(t, admin, shows.day)).rows.map((r) => {
      const f = figures(r);
      return [f.admits, f.byType, f.gross, f.discounts, f.refunds, f.net];
    });
  /** The report right after a change, from the figures kept before it; then the same from scratch. */
  const readKeptAndFresh = async () => {
    const kept = await t.app.database.db.select().from(salesReportShowtimes);
    expect(kept.map((k) => k.showtimeId)).toEqual(
      expect.arrayContaining([shows.a.showtimeId, shows.b.showtimeId]),
    );
    const seen = await read();
    await t.app.database.db.delete(salesReportShowtimes);
    expect(await read()).toEqual(seen);
    return seen;
  };

  it('shows a sale, a ticket type, a promo, a counter sale, a refund and an exchange the moment they happen', async () => {
    // Nothing sold yet: no ticket type has a column.
    expect(await read()).toEqual([
      [0, {}, 0, 0, 0, 0],
      [0, {}, 0, 0, 0, 0],
    ]);

    // Alice buys an adult and a child ticket for the first showtime with 10% off.
    const [adultSeat, childSeat] = [shows.a.seatIds[0]![0]!, shows.a.seatIds[0]![1]!];
    const held = await holdSeats(t.app, alice, shows.a.showtimeId, [adultSeat, childSeat]);
    const heldRows = await t.app.database.db.select().from(bookings).where(inArray(bookings.id, held));
    const bookingOf = (seatId: string) => heldRows.find((b) => b.seatId === seatId)!.id;
    const { sessionId, orderRef } = await checkOut(t.app, alice, held, {
      tickets: [{ bookingId: bookingOf(childSeat), ticketTypeId: types.child }],
      promoCode: 'TENOFF',
    });
    expect((await pay(t, sessionId)).statusCode).toBe(303);
    expect(await readKeptAndFresh()).toEqual([
      [2, { Adult: 1, Child: 1 }, 2100, 210, 0, 1890],
      [0, { Adult: 0, Child: 0 }, 0, 0, 0, 0],
    ]);

    // Bob buys one at the counter for the second showtime.
    const counter = await post(admin, '/api/admin/box-office/sales', {
      showtimeId: shows.b.showtimeId,
      seatIds: [shows.b.seatIds[1]![0]!],
      paymentMethod: 'cash',
      customerEmail: bob.email,
    });
    expect(counter.statusCode, counter.body).toBe(200);
    expect(await readKeptAndFresh()).toEqual([
      [2, { Adult: 1, Child: 1 }, 2100, 210, 0, 1890],
      [1, { Adult: 1, Child: 0 }, 1300, 0, 0, 1300],
    ]);

    // Staff refund Alice's child ticket (720 paid).
    const refund = await post(admin, `/api/admin/orders/${orderRef}/refund`, {
      bookingIds: [bookingOf(childSeat)],
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await readKeptAndFresh()).toEqual([
      [1, { Adult: 1, Child: 0 }, 2100, 210, 720, 1170],
      [1, { Adult: 1, Child: 0 }, 1300, 0, 0, 1300],
    ]);

    // Staff move Alice's adult ticket to the second showtime: its admit goes with it.
    const exchange = await post(admin, `/api/admin/orders/${orderRef}/exchange`, {
      moves: [
        { bookingId: bookingOf(adultSeat), showtimeId: shows.b.showtimeId, seatId: shows.b.seatIds[0]![0]! },
      ],
    });
    expect(exchange.statusCode, exchange.body).toBe(200);
    expect(await readKeptAndFresh()).toEqual([
      [0, { Adult: 0, Child: 0 }, 800, 80, 720, 0],
      [2, { Adult: 2, Child: 0 }, 2600, 130, 0, 2470],
    ]);
  });
});

describe.skipIf(!postgresUrl)(
  'the kept figures of a showtime on sale while 20 orders are paid at once (postgres)',
  () => {
    let t: TestApp;
    let admin: SignedIn;
    let shows: Awaited<ReturnType<typeof showtimesOnSale>>;

    beforeAll(async () => {
      t = await createTestApp('postgres', { CINEMA_TIME_ZONE: TZ, RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
      admin = await signedInAdmin(t.app);
      shows = await showtimesOnSale(t.app.database.db);
    });
    afterAll(() => t?.close());

    const totals = async () => figures((await dayReport(t, admin, shows.day)).totals);

    it('equals the figures summed from scratch once every payment and report has finished', async () => {
      const customers = await Promise.all(Array.from({ length: 20 }, () => signedInUser(t.app)));
      const sessions = await Promise.all(
        customers.map(async (c, i) => {
          const seat = shows.a.seatIds[i % 2]![Math.floor(i / 2)]!;
          return (await checkOut(t.app, c, await holdSeats(t.app, c, shows.a.showtimeId, [seat]))).sessionId;
        }),
      );
      await totals();
      // The 20 payments at once, with 10 reports among them keeping the figures as the payments commit.
      const [paid] = await Promise.all([
        Promise.all(sessions.map((id) => pay(t, id))),
        Promise.all(Array.from({ length: 10 }, () => totals())),
      ]);
      expect(paid.map((r) => r.statusCode)).toEqual(Array(20).fill(303));
      const kept = await totals();
      expect(kept).toMatchObject({ admits: 20, gross: 20 * 1200 });
      await t.app.database.db.delete(salesReportShowtimes);
      expect(await totals()).toEqual(kept);
    });
  },
);

describe.each(engines)('sales reports in a currency without cents (%s)', (engine) => {
  let t: TestApp;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(engine, { CINEMA_TIME_ZONE: TZ, CURRENCY: 'JPY', ...STRIPE });
    admin = await signedInUser(t.app, { role: 'ADMIN' });
    await seedCinema(t.app.database.db, (await signedInUser(t.app)).id);
  });
  afterAll(() => t?.close());

  it('says yen in the report and writes whole yen in the CSV, never hundredths of them', async () => {
    const json = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-03-29&to=2026-03-30&groupBy=movie',
      headers: admin.headers,
    });
    const report = SalesReportSchema.parse(json.json());
    expect(report.currency).toBe('JPY');
    // The same sales as above, now in yen: ¥3,800 gross for Alpha, ¥4,450 in all.
    expect(report.rows.map((r) => [r.label, r.grossCents, r.netCents])).toEqual([
      ['Alpha', 3800, 2440],
      ['Beta', 650, 650],
    ]);
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-03-29&to=2026-03-30&groupBy=movie&format=csv',
      headers: admin.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').slice(1)).toEqual([
      'Alpha,2,2,1,0,3,3800,160,1000,200,2440,8,37.5,1,33.3,0,0,0,0,2440,0,0,0',
      'Beta,1,0,0,1,1,650,0,0,0,650,4,25.0,0,0.0,0,0,0,0,650,0,0,0',
      'Total,3,2,1,1,4,4450,160,1000,200,3090,12,33.3,1,25.0,0,0,0,0,3090,0,0,0',
      '',
    ]);
  });
});
