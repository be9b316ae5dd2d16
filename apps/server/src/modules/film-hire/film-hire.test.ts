import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BoxOfficeReturnsSchema,
  filmWeek,
  FilmHireReportSchema,
  localDate,
  type FilmHireReport,
} from '@cinema/contract';
import { testConfig } from '../../config.ts';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import {
  bookings,
  halls,
  movies,
  orderLines,
  orderPayments,
  orderRefunds,
  orders,
  seats,
  showtimes,
} from '../../db/schema/index.ts';
import { createShowtimeFixture } from '../../test/fixtures.ts';
import { buySeats } from '../../test/purchase.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

// The cinema is in Berlin (UTC+1 in March until the 29th); film weeks start on Fridays (the default). The week
// reported runs from Friday 20 to Thursday 26 March 2026: from 2026-03-19T23:00Z to 2026-03-26T23:00Z.
const TZ = 'Europe/Berlin';
const WEEK = '2026-03-20';

interface Ticket {
  /** What the line charged (tax included), its tax, and what is still to collect after an exchange. */
  price: number;
  tax: number;
  list?: number;
  due?: number;
  refunded?: boolean;
}

/** Movies, showtimes and paid orders written straight into the database, with taxes as the taxes engine will fill. */
async function seedWeek(db: Queryable, customer: string) {
  const hallRows = await db
    .insert(halls)
    .values([
      { name: 'Hall 1', rows: 1, cols: 8, rowLabels: ['A'] },
      { name: 'Hall 2', rows: 1, cols: 8, rowLabels: ['A'] },
    ])
    .returning();
  const seatsOf = new Map<string, string[]>();
  for (const hall of hallRows) {
    const rows = await db
      .insert(seats)
      .values(
        Array.from({ length: 8 }, (_, i) => ({
          hallId: hall.id,
          row: 1,
          number: i + 1,
          col: i,
          rowLabel: 'A',
        })),
      )
      .returning();
    seatsOf.set(
      hall.id,
      rows.sort((a, b) => a.number - b.number).map((s) => s.id),
    );
  }
  const [hall1, hall2] = hallRows.map((h) => h.id) as [string, string];
  const [alpha, beta, gamma, delta] = await db
    .insert(movies)
    .values(['Alpha', 'Beta', 'Gamma', 'Delta'].map((title) => ({ title, durationMinutes: 100 })))
    .returning();
  const show = async (movieId: string, hallId: string, startsAt: string) => {
    const at = new Date(startsAt);
    const [row] = await db
      .insert(showtimes)
      .values({
        movieId,
        hallId,
        startsAt: at,
        endsAt: new Date(at.getTime() + 115 * 60_000),
        priceCents: 1200,
      })
      .returning();
    return { id: row!.id, hallId, next: 0 };
  };
  const order = async (
    showtime: { id: string; hallId: string; next: number },
    tickets: Ticket[],
    opts: { status?: 'PAID' | 'EXPIRED'; fee?: boolean } = {},
  ) => {
    const paid = (opts.status ?? 'PAID') === 'PAID';
    const amount = tickets.reduce((n, l) => n + l.price, 0) + (opts.fee ? 150 : 0);
    const [o] = await db
      .insert(orders)
      .values({
        userId: customer,
        provider: 'box_office',
        status: opts.status ?? 'PAID',
        amountCents: amount,
        expiresAt: new Date('2026-03-01T00:00:00Z'),
        paidAt: paid ? new Date('2026-03-10T10:00:00Z') : null,
        ref: randomUUID().slice(0, 8),
      })
      .returning();
    const [payment] = await db
      .insert(orderPayments)
      .values({ orderId: o!.id, method: 'CASH', amountCents: amount, status: paid ? 'PAID' : 'VOIDED' })
      .returning();
    for (const t of tickets) {
      const seat = showtime.next++;
      const [booking] = await db
        .insert(bookings)
        .values({
          showtimeId: showtime.id,
          seatId: seatsOf.get(showtime.hallId)![seat]!,
          userId: customer,
          status: !paid ? 'EXPIRED' : t.refunded ? 'REFUNDED' : 'CONFIRMED',
          priceCents: t.price,
          checkoutSessionId: o!.id,
        })
        .returning();
      const [line] = await db
        .insert(orderLines)
        .values({
          orderId: o!.id,
          kind: 'TICKET',
          bookingId: booking!.id,
          seatRow: 1,
          seatNumber: seat + 1,
          unitPriceCents: t.list ?? t.price,
          listPriceCents: t.list ?? t.price,
          discountCents: (t.list ?? t.price) - t.price,
          priceCents: t.price,
          taxCents: t.tax,
          taxRateBp: 2000,
          dueCents: t.due ?? 0,
          result: paid ? (t.refunded ? 'refunded' : 'confirmed') : null,
        })
        .returning();
      if (t.refunded)
        await db.insert(orderRefunds).values({
          orderId: o!.id,
          lineId: line!.id,
          paymentId: payment!.id,
          amountCents: t.price,
          kind: 'staff',
          status: 'succeeded',
        });
    }
    // A booking fee (its own line, with its own tax): never box office.
    if (opts.fee)
      await db.insert(orderLines).values({
        orderId: o!.id,
        kind: 'FEE',
        description: 'Booking fee',
        unitPriceCents: 150,
        priceCents: 150,
        taxCents: 25,
        taxRateBp: 2000,
        result: 'confirmed',
      });
  };

  // Alpha opened the week before (its week 2 now): Friday 13 March.
  await show(alpha!.id, hall1, '2026-03-13T19:00:00Z');
  // Friday 20 March at 00:30 in Berlin, still Thursday in UTC: the week's first showtime.
  const a1 = await show(alpha!.id, hall1, '2026-03-19T23:30:00Z');
  const a2 = await show(alpha!.id, hall1, '2026-03-21T19:00:00Z'); // Saturday 20:00
  const b1 = await show(beta!.id, hall2, '2026-03-25T18:00:00Z'); // Wednesday 19:00: Beta opens this week
  const g1 = await show(gamma!.id, hall2, '2026-03-26T22:30:00Z'); // Thursday 23:30: the week's last evening
  const g2 = await show(gamma!.id, hall1, '2026-03-26T23:30:00Z'); // Friday 27 March 00:30: the next week
  const d1 = await show(delta!.id, hall2, '2026-03-22T15:00:00Z'); // Sunday 16:00, no terms
  const e1 = await show(alpha!.id, hall2, '2026-03-19T19:00:00Z'); // Thursday 19 March: the week before

  // Alpha: two tickets at 12.00 (2.00 tax each) and a booking fee; 10.00 refunded whole; 9.00 after a discount.
  await order(
    a1,
    [
      { price: 1200, tax: 200 },
      { price: 1200, tax: 200 },
    ],
    { fee: true },
  );
  await order(a1, [{ price: 1000, tax: 167, refunded: true }]);
  await order(a2, [{ price: 900, tax: 150, list: 1000 }]);
  await order(a2, [{ price: 1200, tax: 200 }], { status: 'EXPIRED' });
  // Beta: one ticket at 15.00 (2.50 tax).
  await order(b1, [{ price: 1500, tax: 250 }]);
  // Gamma: 11.00 (1.83 tax), and one exchanged for a 13.00 seat with 2.00 still to collect (2.17 tax on 13.00).
  await order(g1, [
    { price: 1100, tax: 183 },
    { price: 1300, tax: 217, due: 200 },
  ]);
  await order(g2, [{ price: 1000, tax: 167 }]);
  // Delta: 8.00 without tax.
  await order(d1, [{ price: 800, tax: 0 }]);
  await order(e1, [{ price: 1200, tax: 200 }]);
  return { alpha: alpha!.id, beta: beta!.id, gamma: gamma!.id, delta: delta!.id };
}

describe.each(engines)('film hire (%s)', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let ids: Awaited<ReturnType<typeof seedWeek>>;

  beforeAll(async () => {
    t = await createTestApp(engine, { CINEMA_TIME_ZONE: TZ, RATE_LIMIT: 'off' });
    admin = await signedInUser(t.app, { role: 'ADMIN' });
    customer = await signedInUser(t.app);
    ids = await seedWeek(t.app.database.db, customer.id);
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who = admin) =>
    t.app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload !== undefined && { payload: payload as object }),
    });

  const addDistributor = async (name: string) => {
    const res = await call('POST', '/api/admin/distributors', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; name: string };
  };

  it('keeps distributors: added, renamed, listed by name, names unique in any case, audited', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/distributors' })).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/distributors', { name: 'X' }, customer)).statusCode).toBe(403);

    const added = await addDistributor('Northwind Pctures');
    expect(added).toEqual({ id: expect.any(String), name: 'Northwind Pctures' });
    const renamed = await call('PUT', `/api/admin/distributors/${added.id}`, { name: 'Northwind Pictures' });
    expect(renamed.json()).toEqual({ id: added.id, name: 'Northwind Pictures' });
    await addDistributor('Southern Cross Films');

    const taken = await call('POST', '/api/admin/distributors', { name: ' northwind pictures ' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      error: 'A distributor "northwind pictures" already exists',
      code: 'conflict',
    });
    const list = await call('GET', '/api/admin/distributors');
    expect(list.json().map((d: { name: string }) => d.name)).toEqual([
      'Northwind Pictures',
      'Southern Cross Films',
    ]);

    const audit = await call('GET', '/api/admin/audit?action=distributor');
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual([
      'distributor.create',
      'distributor.rename',
      'distributor.create',
    ]);
    expect(audit.json().entries[1]).toMatchObject({
      before: { name: 'Northwind Pctures' },
      after: { name: 'Northwind Pictures' },
    });
  });

  it('refuses bad distributors with a 4xx JSON error', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/api/admin/distributors', { name: '' }, 400, 'Name is required'],
      ['POST', '/api/admin/distributors', { name: 'x'.repeat(81) }, 400, 'Name is too long'],
      [
        'POST',
        '/api/admin/distributors',
        { name: 'A\nB' },
        400,
        'Name must be one line, without control characters',
      ],
      ['POST', '/api/admin/distributors', {}, 400, 'name'],
      ['PUT', `/api/admin/distributors/${randomUUID()}`, { name: 'Nobody' }, 404, 'Distributor not found'],
      ['PUT', '/api/admin/distributors/not-an-id', { name: 'Nobody' }, 400, 'Invalid id'],
    ];
    for (const [method, url, body, status, error] of cases) {
      const res = await call(method as 'POST', url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json().error).toContain(error);
    }
  });

  it("sets a movie's terms (audited), lists them by movie, removes them", async () => {
    const [northwind, southern] = (await call('GET', '/api/admin/distributors')).json() as { id: string }[];
    const set = async (movieId: string, body: object) => {
      const res = await call('PUT', `/api/admin/movies/${movieId}/film-hire`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // Alpha: 50% in week 1, 40% from week 2, 35% from week 3 (given out of order).
    expect(
      await set(ids.alpha, {
        distributorId: northwind!.id,
        percent: 50,
        scale: [
          { fromWeek: 3, percent: 35 },
          { fromWeek: 2, percent: 40 },
        ],
      }),
    ).toEqual({
      movieId: ids.alpha,
      distributorId: northwind!.id,
      distributorName: 'Northwind Pictures',
      percent: 50,
      guaranteeCents: null,
      scale: [
        { fromWeek: 2, percent: 40 },
        { fromWeek: 3, percent: 35 },
      ],
    });
    // Beta: 35% with a guarantee of 500.00 a week; Gamma: 47.5%; Delta first given terms, then none.
    await set(ids.beta, { distributorId: northwind!.id, percent: 35, guaranteeCents: 50_000 });
    await set(ids.gamma, { distributorId: southern!.id, percent: 47.5 });
    await set(ids.delta, { distributorId: southern!.id, percent: 60 });
    const removed = await call('DELETE', `/api/admin/movies/${ids.delta}/film-hire`);
    expect(removed.json()).toEqual({ ok: true });
    expect((await call('DELETE', `/api/admin/movies/${ids.delta}/film-hire`)).statusCode).toBe(404);

    const list = (await call('GET', '/api/admin/film-hire/terms')).json() as {
      movieId: string;
      terms: { percent: number; guaranteeCents: number | null } | null;
    }[];
    const byMovie = new Map(list.map((m) => [m.movieId, m.terms]));
    expect(byMovie.get(ids.beta)).toMatchObject({ percent: 35, guaranteeCents: 50_000 });
    expect(byMovie.get(ids.gamma)).toMatchObject({ percent: 47.5, guaranteeCents: null });
    expect(byMovie.get(ids.delta)).toBeNull();

    const audit = (await call('GET', '/api/admin/audit?action=movie.film_hire')).json().entries;
    expect(audit[0]).toMatchObject({
      action: 'movie.film_hire',
      subjectId: ids.delta,
      after: { percent: 60 },
    });
    const gone = (await call('GET', '/api/admin/audit?action=movie.film_hire_remove')).json().entries;
    expect(gone[0]).toMatchObject({ subjectId: ids.delta, before: { percent: 60 } });
  });

  it('refuses bad terms with a 4xx JSON error', async () => {
    const [northwind] = (await call('GET', '/api/admin/distributors')).json() as { id: string }[];
    const ok = { distributorId: northwind!.id, percent: 40 };
    const url = `/api/admin/movies/${ids.alpha}/film-hire`;
    const cases: [string, unknown, number, string][] = [
      [url, { ...ok, percent: 101 }, 400, 'Percent must be a number from 0 to 100'],
      [url, { ...ok, percent: -1 }, 400, 'Percent must be a number from 0 to 100'],
      [url, { ...ok, percent: '40' }, 400, 'Percent must be a number from 0 to 100'],
      [url, { ...ok, percent: 47.555 }, 400, 'Percent has at most two decimals'],
      [url, { ...ok, guaranteeCents: -1 }, 400, 'A guarantee cannot be negative'],
      [url, { ...ok, guaranteeCents: 10.5 }, 400, 'A guarantee is a whole number of minor units'],
      [url, { ...ok, scale: [{ fromWeek: 1, percent: 30 }] }, 400, 'A sliding scale starts from week 2'],
      [url, { ...ok, scale: [{ fromWeek: 2.5, percent: 30 }] }, 400, 'Week of run must be a whole number'],
      [url, { ...ok, scale: [{ fromWeek: 521, percent: 30 }] }, 400, 'Week of run must be at most 520'],
      [
        url,
        {
          ...ok,
          scale: [
            { fromWeek: 2, percent: 30 },
            { fromWeek: 2, percent: 20 },
          ],
        },
        400,
        'Each week of run may start one step of the scale',
      ],
      [url, { ...ok, distributorId: randomUUID() }, 400, 'No such distributor'],
      [url, { ...ok, distributorId: 'nope' }, 400, 'Invalid id'],
      [`/api/admin/movies/${randomUUID()}/film-hire`, ok, 404, 'Movie not found'],
    ];
    for (const [where, body, status, error] of cases) {
      const res = await call('PUT', where, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toContain(error);
    }
    const notJson = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '{"percent": ',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toEqual(expect.any(String));
    // Nothing refused changed Alpha's terms.
    const terms = (await call('GET', '/api/admin/film-hire/terms')).json() as {
      movieId: string;
      terms: unknown;
    }[];
    expect(terms.find((m) => m.movieId === ids.alpha)!.terms).toMatchObject({ percent: 50 });
  });

  const filmHire = async (week = WEEK) => {
    const res = await call('GET', `/api/admin/reports/film-hire?week=${week}`);
    expect(res.statusCode, res.body).toBe(200);
    return FilmHireReportSchema.parse(res.json());
  };

  it('works out the rental due for the week as computed by hand', async () => {
    const r = await filmHire();
    expect(r).toMatchObject({
      week: WEEK,
      lastDay: '2026-03-26',
      timeZone: TZ,
      currency: 'USD',
      filmWeekStart: 5,
    });
    const film = (f: FilmHireReport['distributors'][number]['films'][number]) => [
      f.title,
      f.weekOfRun,
      f.admissions,
      f.grossCents,
      f.taxCents,
      f.netCents,
      f.percent,
      f.rentalCents,
      f.guaranteeApplied,
    ];
    expect(r.distributors.map((d) => [d.name, d.rentalCents, d.films.map(film)])).toEqual([
      [
        'Northwind Pictures',
        1100 + 50_000,
        [
          // Alpha, week 2 (40%): 12.00 + 12.00 + 9.00 kept (the 10.00 refunded, the fee and the expired order left
          // out), tax 2.00 + 2.00 + 1.50; net 27.50 × 40% = 11.00.
          ['Alpha', 2, 3, 3300, 550, 2750, 40, 1100, false],
          // Beta, week 1 (35%): net 12.50 × 35% = 4.375, rounded 4.38; the guarantee of 500.00 is more.
          ['Beta', 1, 1, 1500, 250, 1250, 35, 50_000, true],
        ],
      ],
      [
        'Southern Cross Films',
        871,
        [
          // Gamma (47.5%): 11.00 (1.83 tax) and 13.00 less 2.00 to collect = 11.00, its tax 2.17 × 11/13 = 1.836 →
          // 1.84; the showtime at 00:30 on Friday 27 March (Thursday in UTC) is the next week's. Net 22.00 − 3.67 =
          // 18.33 × 47.5% = 8.70675 → 8.71.
          ['Gamma', 1, 2, 2200, 367, 1833, 47.5, 871, false],
        ],
      ],
    ]);
    expect(r.withoutTerms).toEqual([
      { movieId: ids.delta, title: 'Delta', admissions: 1, grossCents: 800, taxCents: 0, netCents: 800 },
    ]);
    expect(r.totals).toEqual({
      admissions: 7,
      grossCents: 3300 + 1500 + 2200 + 800,
      taxCents: 550 + 250 + 367,
      netCents: 2750 + 1250 + 1833 + 800,
      rentalCents: 1100 + 50_000 + 871,
    });
  });

  it('moves along the sliding scale by week of run, and owes the guarantee for a week a film plays unsold', async () => {
    // The next week: Alpha has no showtime (not in the report), Gamma plays its week 2 (still 47.5%) and sold 10.00.
    const next = await filmHire('2026-03-27');
    expect(
      next.distributors.map((d) => d.films.map((f) => [f.title, f.weekOfRun, f.netCents, f.rentalCents])),
    ).toEqual([[['Gamma', 2, 833, 396]]]);
    // The week before: Alpha's first (50%) with one ticket of 12.00 on Thursday 19 March and one unsold showtime.
    const before = await filmHire('2026-03-13');
    expect(
      before.distributors[0]!.films.map((f) => [f.title, f.weekOfRun, f.percent, f.rentalCents]),
    ).toEqual([['Alpha', 1, 50, 500]]);
    // Beta in a week with a showtime and no sale: the guarantee.
    const [hall] = await t.app.database.db.select().from(halls).limit(1);
    await t.app.database.db.insert(showtimes).values({
      movieId: ids.beta,
      hallId: hall!.id,
      startsAt: new Date('2026-04-10T18:00:00Z'),
      endsAt: new Date('2026-04-10T20:00:00Z'),
      priceCents: 1200,
    });
    const later = await filmHire('2026-04-10');
    expect(later.distributors[0]!.films).toEqual([
      expect.objectContaining({
        title: 'Beta',
        weekOfRun: 4,
        admissions: 0,
        netCents: 0,
        rentalCents: 50_000,
      }),
    ]);
  });

  it('answers the report as CSV, by format=csv or Accept: text/csv', async () => {
    const res = await call('GET', `/api/admin/reports/film-hire?week=${WEEK}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="film-hire-2026-03-20.csv"');
    expect(res.body.split('\r\n')).toEqual([
      'Distributor,Film,Week of run,Admissions,Gross,Tax,Net,Percent,Guarantee,Rental due',
      'Northwind Pictures,Alpha,2,3,33.00,5.50,27.50,40,,11.00',
      'Northwind Pictures,Beta,1,1,15.00,2.50,12.50,35,500.00,500.00',
      'Northwind Pictures,Total,,4,48.00,8.00,40.00,,,511.00',
      'Southern Cross Films,Gamma,1,2,22.00,3.67,18.33,47.5,,8.71',
      'Southern Cross Films,Total,,2,22.00,3.67,18.33,,,8.71',
      ',Delta,,1,8.00,0.00,8.00,,,',
      'Total,,,7,78.00,11.67,66.33,,,519.71',
      '',
    ]);
    const accepted = await t.app.inject({
      method: 'GET',
      url: `/api/admin/reports/film-hire?week=${WEEK}`,
      headers: { ...admin.headers, accept: 'text/csv' },
    });
    expect(accepted.body).toBe(res.body);
  });

  it('gives the box-office returns per film, day and showtime, every showtime of the week, and as CSV', async () => {
    const res = await call('GET', `/api/admin/reports/box-office?week=${WEEK}`);
    expect(res.statusCode, res.body).toBe(200);
    const r = BoxOfficeReturnsSchema.parse(res.json());
    expect(r.totals).toEqual({ admissions: 7, grossCents: 7800 });
    const alpha = r.films.find((f) => f.title === 'Alpha')!;
    expect(alpha).toMatchObject({ distributor: 'Northwind Pictures', admissions: 3, grossCents: 3300 });
    expect(alpha.days).toEqual([
      { date: '2026-03-20', admissions: 2, grossCents: 2400 },
      { date: '2026-03-21', admissions: 1, grossCents: 900 },
    ]);
    expect(alpha.showtimes.map((s) => [s.date, s.time, s.hall, s.admissions, s.grossCents])).toEqual([
      ['2026-03-20', '00:30', 'Hall 1', 2, 2400],
      ['2026-03-21', '20:00', 'Hall 1', 1, 900],
    ]);

    const csv = await call('GET', `/api/admin/reports/box-office?week=${WEEK}&format=csv`);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="box-office-2026-03-20.csv"');
    expect(csv.body.split('\r\n')).toEqual([
      'Film,Distributor,Day,Time,Hall,Admissions,Gross',
      'Alpha,Northwind Pictures,2026-03-20,00:30,Hall 1,2,24.00',
      'Alpha,Northwind Pictures,2026-03-21,20:00,Hall 1,1,9.00',
      'Beta,Northwind Pictures,2026-03-25,19:00,Hall 2,1,15.00',
      'Delta,,2026-03-22,16:00,Hall 2,1,8.00',
      'Gamma,Southern Cross Films,2026-03-26,23:30,Hall 2,2,22.00',
      '',
      'Film,Day,Admissions,Gross',
      'Alpha,2026-03-20,2,24.00',
      'Alpha,2026-03-21,1,9.00',
      'Beta,2026-03-25,1,15.00',
      'Delta,2026-03-22,1,8.00',
      'Gamma,2026-03-26,2,22.00',
      '',
      'Film,Distributor,Admissions,Gross',
      'Alpha,Northwind Pictures,3,33.00',
      'Beta,Northwind Pictures,1,15.00',
      'Delta,,1,8.00',
      'Gamma,Southern Cross Films,2,22.00',
      'Total,,7,78.00',
      '',
    ]);
  });

  it('refuses a week that is no film week’s first day, or no date, with a clear 400 (in the client’s language too)', async () => {
    for (const path of ['film-hire', 'box-office']) {
      const thursday = await call('GET', `/api/admin/reports/${path}?week=2026-03-26`);
      expect(thursday.statusCode).toBe(400);
      expect(thursday.json()).toEqual({
        error:
          '2026-03-26 does not start a film week: the weeks around it start on 2026-03-20 and 2026-03-27',
        code: 'bad_request',
      });
      for (const week of ['', '2026-3-20', '2026-02-30', 'friday', '0001-01-05']) {
        const res = await call('GET', `/api/admin/reports/${path}?week=${week}`);
        expect(res.statusCode, week).toBe(400);
        expect(res.json().error).toEqual(expect.any(String));
      }
      const missing = await call('GET', `/api/admin/reports/${path}`);
      expect(missing.statusCode).toBe(400);
      expect(
        (await call('GET', `/api/admin/reports/${path}?week=${WEEK}`, undefined, customer)).statusCode,
      ).toBe(403);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/admin/reports/${path}?week=${WEEK}` })).statusCode,
      ).toBe(401);
    }
    const spanish = await t.app.inject({
      method: 'GET',
      url: '/api/admin/reports/film-hire?week=2026-03-26',
      headers: { ...admin.headers, 'accept-language': 'es' },
    });
    expect(spanish.json().error).toBe(
      '2026-03-26 no es el primer día de una semana de cine: las semanas de alrededor empiezan el 2026-03-20 y el 2026-03-27',
    );
  });

  it('counts tickets sold through checkout in the week of their showtime, without their tax and the booking fee', async () => {
    // Tickets taxed at 20% (prices include it) and an online fee of 1.00 a ticket, itself taxed.
    const taxes = await call('PUT', '/api/admin/taxes', {
      mode: 'inclusive',
      rates: [
        { kind: 'TICKET', ratePercent: 20 },
        { kind: 'FEE', ratePercent: 20 },
      ],
    });
    expect(taxes.statusCode, taxes.body).toBe(200);
    const noFee = { perTicketCents: 0, perOrderCents: 0, exemptTicketTypeIds: [], refundable: false };
    const fees = await call('PUT', '/api/admin/fees', {
      online: { ...noFee, perTicketCents: 100 },
      counter: noFee,
    });
    expect(fees.statusCode, fees.body).toBe(200);
    const fixture = await createShowtimeFixture(t.app.database.db, { priceCents: 1200 });
    await buySeats(t.app, customer, fixture.showtimeId, fixture.allSeatIds.slice(0, 2));
    const fee = await t.app.database.db.select().from(orderLines).where(eq(orderLines.kind, 'FEE'));
    expect(fee.map((l) => [l.priceCents, l.taxCents])).toContainEqual([200, 33]);
    const startsAt = (
      await t.app.inject({ method: 'GET', url: `/api/showtimes/${fixture.showtimeId}/seats` })
    ).json().showtime.startsAt as string;
    const week = filmWeek(localDate(startsAt, TZ), TZ).first;
    const r = (await call('GET', `/api/admin/reports/box-office?week=${week}`)).json();
    expect(r.films).toEqual([
      expect.objectContaining({ title: 'Fixture Movie', admissions: 2, grossCents: 2400, distributor: null }),
    ]);
    // 12.00 each with 2.00 of tax in it: net 20.00; the fees (2.00 with 0.33 of tax) are no box office.
    const hire = (await call('GET', `/api/admin/reports/film-hire?week=${week}`)).json();
    expect(hire.withoutTerms).toEqual([
      expect.objectContaining({ title: 'Fixture Movie', grossCents: 2400, taxCents: 400, netCents: 2000 }),
    ]);
  });
});

describe('FILM_WEEK_START', () => {
  it('must name a weekday', () => {
    expect(() => testConfig({ FILM_WEEK_START: 'fri' })).toThrow(/FILM_WEEK_START/);
    expect(testConfig({ FILM_WEEK_START: ' Sunday ' }).filmWeekStart).toBe(7);
    expect(testConfig().filmWeekStart).toBe(5);
  });

  it('starts film weeks on the day it names', async () => {
    const t = await createTestApp('pglite', { CINEMA_TIME_ZONE: TZ, FILM_WEEK_START: 'Monday' });
    try {
      const admin = await signedInUser(t.app, { role: 'ADMIN' });
      const settings = (await t.app.inject({ method: 'GET', url: '/api/settings' })).json();
      expect(settings.filmWeekStart).toBe(1);
      const friday = await t.app.inject({
        method: 'GET',
        url: '/api/admin/reports/film-hire?week=2026-03-20',
        headers: admin.headers,
      });
      expect(friday.json().error).toBe(
        '2026-03-20 does not start a film week: the weeks around it start on 2026-03-16 and 2026-03-23',
      );
      const monday = await t.app.inject({
        method: 'GET',
        url: '/api/admin/reports/film-hire?week=2026-03-16',
        headers: admin.headers,
      });
      expect(monday.json()).toMatchObject({ week: '2026-03-16', lastDay: '2026-03-22', filmWeekStart: 1 });
    } finally {
      await t.close();
    }
  });
});
