import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  addDays,
  filmWeek,
  localDate,
  localTime,
  taxOn,
  type FilmHireReport,
  type GiftCardLedger,
  type GiftCardLiability,
  type Kitchen,
  type StaffGiftCard,
} from '@cinema/contract';
import { orderLines } from '../../db/schema/index.ts';
import { bootstrap } from '../../bootstrap.ts';
import { createTestApp, engines, signedInAdmin, type TestApp } from '../../test/helpers.ts';
import { ensureDefaultHalls } from '../halls/halls.service.ts';
import { seedDemo } from './demo.service.ts';
import { DEMO_CUSTOMERS, DEMO_GIFT_RECIPIENT } from './demo-online.ts';

/** The demo is planned on the cinema's clocks, here far from the server's (the tests run in UTC). */
const CINEMA_ZONE = 'Pacific/Auckland';

describe.each(engines)('demo catalogue on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
    await ensureDefaultHalls(t.database.db);
  });
  afterAll(() => t.close());

  it('seeds movies with generated posters and a week of showtimes in every hall, once', async () => {
    const now = new Date();
    const report = await seedDemo(t.database.db, CINEMA_ZONE, now);
    expect(report!.movies).toBe(6);
    expect(report!.showtimes).toBeGreaterThan(40);

    const movies = (await t.app.inject({ method: 'GET', url: '/api/movies' })).json();
    expect(movies).toHaveLength(6);
    for (const movie of movies) {
      expect(movie).toMatchObject({
        title: expect.any(String),
        durationMinutes: expect.any(Number),
        rating: expect.any(String),
        director: expect.any(String),
        releaseDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        trailerUrl: expect.stringMatching(/^https:\/\//),
      });
      expect(movie.genres.length).toBeGreaterThan(0);
      expect(movie.cast.length).toBeGreaterThan(1);
      // Certified in the cinema's system (MPAA by default): the R film has its age rule.
      expect(movie.minAge).toBe(movie.rating === 'R' ? 17 : null);
      // Painted as a 300 × 450 PNG and stored as an upload is: WebP, at 160 and 300 pixels wide.
      expect(movie.posterSrcSet).toBe(`${movie.posterUrl}?w=160 160w, ${movie.posterUrl} 300w`);
      const poster = await t.app.inject({ method: 'GET', url: movie.posterUrl });
      expect(poster.statusCode).toBe(200);
      expect(poster.headers['content-type']).toBe('image/webp');
      const { width, height } = await (await import('sharp')).default(poster.rawPayload).metadata();
      expect([width, height]).toEqual([300, 450]);

      const showtimes = (
        await t.app.inject({ method: 'GET', url: `/api/movies/${movie.id}/showtimes` })
      ).json();
      expect(showtimes.length).toBeGreaterThan(0);
    }

    const admin = await signedInAdmin(t.app);
    const all = (
      await t.app.inject({ method: 'GET', url: '/api/admin/showtimes', headers: admin.headers })
    ).json();
    expect(all).toHaveLength(report!.showtimes);
    expect(new Set(all.map((s: { Auditorium: { name: string } }) => s.Auditorium.name))).toEqual(
      new Set(['Hall 1', 'Hall 2', 'Hall 3']),
    );
    const inAWeek = now.getTime() + 8 * 24 * 3600_000;
    for (const s of all) {
      expect(Date.parse(s.startsAt)).toBeGreaterThan(now.getTime());
      expect(Date.parse(s.startsAt)).toBeLessThan(inAWeek);
      expect(s.priceCents).toBeGreaterThanOrEqual(1200);
      expect(s.priceCents).toBeLessThanOrEqual(1800);
      // From 11:00 until the last start before 22:00 in Auckland, matinees before 17:00 there cheaper.
      const time = localTime(s.startsAt, CINEMA_ZONE);
      expect(time >= '11:00' && time < '22:00', `${s.startsAt} is ${time} in Auckland`).toBe(true);
      const hallExtra = s.Auditorium.name === 'Hall 3' ? 300 : 0;
      expect(s.priceCents - hallExtra).toBe(time < '17:00' ? 1200 : 1500);
    }

    expect(await seedDemo(t.database.db, CINEMA_ZONE, now)).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/movies' })).json()).toHaveLength(6);
  });
});

describe.each(engines)('start-up bootstrap on %s', (engine) => {
  it('creates the halls and the demo catalogue on an empty database and says so', async () => {
    const t = await createTestApp(engine, {
      SEED_DEMO: '1',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'Popcorn#2026',
    });
    try {
      const { messages } = await bootstrap(t.app);
      expect(messages).toContain('Halls created: Hall 1, Hall 2, Hall 3');
      expect(messages.find((m) => m.startsWith('Demo catalogue: 6 movies, '))).toBeDefined();
      expect((await t.app.inject({ method: 'GET', url: '/api/movies' })).json()).toHaveLength(6);
      // Counter sales show on the schedule: one showtime sold out, one selling fast.
      expect(messages.find((m) => /^Demo sales: \d+ tickets sold at the box office$/.test(m))).toBeDefined();
      const schedule = await t.app.inject({ method: 'GET', url: '/api/schedule' });
      const days = (schedule.json() as { days: { date: string }[] }).days;
      const availability = [];
      for (const { date } of days.slice(0, 3)) {
        const day = await t.app.inject({ method: 'GET', url: `/api/schedule?date=${date}` });
        availability.push(
          ...(day.json() as { showtimes: { availability: string }[] }).showtimes.map((s) => s.availability),
        );
      }
      expect(availability).toEqual(expect.arrayContaining(['SOLD_OUT', 'SELLING_FAST', 'AVAILABLE']));
      // One of them with food and drink, handed over at the counter: on the kitchen's last column. Two paid online
      // orders wait to be prepared, the soonest due first: one to collect at the bar, one brought to its seat during the
      // showtime.
      const admin = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'boss@example.com', password: 'Popcorn#2026' },
      });
      const bossHeaders = { authorization: `Bearer ${(admin.json() as { token: string }).token}` };
      expect(messages).toContain('Demo gift cards: 3; online orders for the kitchen to prepare: 2');
      const kitchen = (
        await t.app.inject({ method: 'GET', url: '/api/admin/kitchen', headers: bossHeaders })
      ).json() as Kitchen;
      const toPrepare = kitchen.orders.filter((o) => o.status === 'preparing');
      expect(toPrepare).toEqual([
        expect.objectContaining({
          fulfilment: 'PICKUP',
          items: [
            expect.objectContaining({ name: 'Nachos', quantity: 1 }),
            expect.objectContaining({ name: 'Still water', quantity: 1 }),
          ],
        }),
        expect.objectContaining({
          fulfilment: 'SEAT',
          seat: expect.objectContaining({ row: expect.any(Number), number: expect.any(Number) }),
          movie: expect.any(String),
          checkId: false,
          items: [
            expect.objectContaining({ name: 'Cola', options: ['Medium'], quantity: 2 }),
            expect.objectContaining({ name: 'Popcorn', options: ['Large', 'Salted'], quantity: 1 }),
          ],
        }),
      ]);
      const seatOrder = toPrepare[1]!;
      expect(Date.parse(seatOrder.deliverAt!)).toBe(Date.parse(seatOrder.startsAt!) + 20 * 60_000);
      expect(kitchen.orders.filter((o) => o.status !== 'preparing')).toEqual([
        expect.objectContaining({
          status: 'collected',
          checkId: true,
          items: [
            expect.objectContaining({ name: 'Cola', options: ['Large'], quantity: 1 }),
            expect.objectContaining({ name: 'Craft beer', quantity: 1 }),
            expect.objectContaining({ name: 'Popcorn', options: ['Large', 'Sweet'], quantity: 2 }),
          ],
        }),
      ]);
      // Gift cards staff find by email: Maya's for Sam (sold online), Leo's from the counter and Leo's own, partly
      // spent on his order for the bar; their ledgers and the liability report agree.
      const find = async (q: string) =>
        (
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/admin/gift-cards?q=${encodeURIComponent(q)}`,
              headers: bossHeaders,
            })
          ).json() as { cards: StaffGiftCard[] }
        ).cards;
      const ledger = async (code: string) =>
        (
          await t.app.inject({ method: 'GET', url: `/api/admin/gift-cards/${code}`, headers: bossHeaders })
        ).json() as GiftCardLedger;
      const forSam = await find(DEMO_GIFT_RECIPIENT);
      expect(forSam).toEqual([
        expect.objectContaining({ initialCents: 5000, balanceCents: 5000, status: 'active' }),
      ]);
      expect(await find(DEMO_CUSTOMERS.maya.email)).toEqual(forSam);
      expect((await ledger(forSam[0]!.code)).entries.map((e) => [e.kind, e.amountCents])).toEqual([
        ['SOLD', 5000],
      ]);
      const leos = await find(DEMO_CUSTOMERS.leo.email);
      expect(leos.map((c) => c.initialCents).sort()).toEqual([2500, 4000]);
      const atCounter = leos.find((c) => c.initialCents === 2500)!;
      expect(atCounter.balanceCents).toBe(2500);
      const spent = leos.find((c) => c.initialCents === 4000)!;
      expect(spent.balanceCents).toBeGreaterThan(0);
      expect(spent.balanceCents).toBeLessThan(4000);
      const entries = (await ledger(spent.code)).entries;
      expect(entries.map((e) => e.kind)).toEqual(['SOLD', 'REDEEMED']);
      expect(entries.map((e) => e.balanceAfterCents)).toEqual([4000, spent.balanceCents]);
      expect(entries[1]!.amountCents).toBe(spent.balanceCents - 4000);
      const liability = (
        await t.app.inject({
          method: 'GET',
          url: `/api/admin/gift-cards/liability?date=${localDate(new Date(), t.app.config.timeZone)}`,
          headers: bossHeaders,
        })
      ).json() as GiftCardLiability;
      expect(liability.outstandingCents).toBe(5000 + 2500 + spent.balanceCents);
      // Taxes a new cinema sees at once (DESIGN §7.4): rates, an online booking fee, and the demo's sales taxed.
      expect(messages).toContain('Taxes: tickets 7%, food and drink 8%, fees 7%; an online booking fee');
      const fees = await t.app.inject({ method: 'GET', url: '/api/admin/fees', headers: bossHeaders });
      expect(fees.json()).toMatchObject({ online: { perTicketCents: 75, refundable: false } });
      const taxed = await t.app.database.db
        .select({ rate: orderLines.taxRateBp, tax: orderLines.taxCents, price: orderLines.priceCents })
        .from(orderLines)
        .where(eq(orderLines.kind, 'TICKET'))
        .limit(1);
      expect(taxed[0]).toEqual({
        rate: 700,
        tax: taxOn(taxed[0]!.price, 700, 'inclusive').taxCents,
        price: taxed[0]!.price,
      });
      expect(taxed[0]!.tax).toBeGreaterThan(0);
      // The demo movies are hired from two distributors: this film week and the next show rental due, and the sales.
      const zone = t.app.config.timeZone;
      const thisWeek = filmWeek(localDate(new Date(), zone), zone).first;
      const weeks = await Promise.all(
        [thisWeek, addDays(thisWeek, 7)].map(
          async (week) =>
            (
              await t.app.inject({
                method: 'GET',
                url: `/api/admin/reports/film-hire?week=${week}`,
                headers: bossHeaders,
              })
            ).json() as FilmHireReport,
        ),
      );
      expect(new Set(weeks.flatMap((w) => w.distributors.map((d) => d.name)))).toEqual(
        new Set(['Harbour Light Films', 'Lanternfish Pictures']),
      );
      expect(weeks.reduce((n, w) => n + w.totals.admissions, 0)).toBeGreaterThan(0);
      expect(weeks.reduce((n, w) => n + w.totals.rentalCents, 0)).toBeGreaterThan(0);
      // The tickets are taxed: the report's net is the gross without it.
      expect(weeks.reduce((n, w) => n + w.totals.taxCents, 0)).toBeGreaterThan(0);
      for (const w of weeks) expect(w.totals.netCents).toBe(w.totals.grossCents - w.totals.taxCents);
      // A restart changes nothing.
      const again = await bootstrap(t.app);
      expect(again.messages.some((m) => m.startsWith('Halls') || m.startsWith('Demo'))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('creates the halls but no movies with SEED_DEMO=0', async () => {
    const t = await createTestApp(engine, {
      SEED_DEMO: '0',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'Popcorn#2026',
    });
    try {
      const { messages } = await bootstrap(t.app);
      expect(messages).toContain('Halls created: Hall 1, Hall 2, Hall 3');
      expect((await t.app.inject({ method: 'GET', url: '/api/movies' })).json()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
