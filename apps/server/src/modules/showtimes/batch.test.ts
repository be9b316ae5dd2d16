import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchProblem, BatchShowtimesResponse, ManagedShowtime } from '@cinema/contract';
import { showtimes } from '../../db/schema/index.ts';
import { postMovie } from '../../test/catalogue.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  signedInAdmin,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { ensureDefaultHalls } from '../halls/halls.service.ts';
import { ensureDefaultTicketTypes } from '../pricing/default-prices.ts';

// DESIGN §6.4: recurring showtimes on the cinema's clocks, a plan that names every clash before anything is written,
// then all of them or none. The clock's own rules (a weekly 20:00 across a change of the clocks, skipped and doubled
// times) are tested with it, in packages/contract/src/cinema-clock.test.ts.

const BERLIN = 'Europe/Berlin';

describe.each(engines)('recurring showtimes on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let hall1: { id: string; name: string };
  let hall2: { id: string; name: string };
  let film: { id: string; title: string }; // 100 minutes, 115 with cleaning

  beforeAll(async () => {
    t = await createTestApp(engine, { CINEMA_TIME_ZONE: BERLIN });
    admin = await signedInAdmin(t.app);
    [hall1, hall2] = (await ensureDefaultHalls(t.database.db)).map(({ id, name }) => ({ id, name })) as [
      typeof hall1,
      typeof hall2,
    ];
    await ensureDefaultTicketTypes(t.database.db);
    film = (await postMovie(t.app, admin.headers, { title: 'Night Train', durationMinutes: '100' })).json();
  });
  afterAll(() => t.close());

  const batch = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/showtimes/batch',
      headers: admin.headers,
      payload: { movieId: film.id, ...body },
    });
  const countShowtimes = async () =>
    (await t.database.db.select({ n: count() }).from(showtimes).where(eq(showtimes.movieId, film.id)))[0]!.n;

  it('creates every showtime of the range on the chosen weekdays and times, at 20:00 local across the DST change', async () => {
    // Fridays and Saturdays from 2027-10-22 to 2027-11-06, without 2027-10-30, at 17:00 and 20:00, in one hall.
    const res = await batch({
      auditoriumIds: [hall1.id],
      from: '2027-10-22',
      to: '2027-11-06',
      weekdays: [5, 6],
      times: ['20:00', '17:00'],
      except: ['2027-10-30'],
      priceCents: 1100,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<BatchShowtimesResponse>();
    expect(body.created).toBe(true);
    expect(body.problems).toEqual([]);
    expect(body.showtimes.map((s) => `${s.localDate} ${s.localTime}`)).toEqual([
      '2027-10-22 17:00',
      '2027-10-22 20:00',
      '2027-10-23 17:00',
      '2027-10-23 20:00',
      '2027-10-29 17:00',
      '2027-10-29 20:00',
      '2027-11-05 17:00',
      '2027-11-05 20:00',
      '2027-11-06 17:00',
      '2027-11-06 20:00',
    ]);
    const at20 = body.showtimes.filter((s) => s.localTime === '20:00').map((s) => s.startsAt);
    expect(at20).toEqual([
      '2027-10-22T18:00:00.000Z',
      '2027-10-23T18:00:00.000Z',
      '2027-10-29T18:00:00.000Z',
      '2027-11-05T19:00:00.000Z', // winter time: still 20:00 in Berlin
      '2027-11-06T19:00:00.000Z',
    ]);
    expect(body.showtimes.every((s) => s.id && s.priceCents === 1100 && s.auditorium === hall1.name)).toBe(
      true,
    );
    expect(await countShowtimes()).toBe(10);

    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit?action=showtime.batch',
      headers: admin.headers,
    });
    expect(audit.json().entries[0]).toMatchObject({
      actor: admin.email,
      after: {
        created: 10,
        movie: 'Night Train',
        from: '2027-10-22',
        to: '2027-11-06',
        except: ['2027-10-30'],
      },
    });
  });

  it('lists every clash in a dry run and writes nothing; then refuses the whole batch with the same list', async () => {
    const before = await countShowtimes();
    const plan = {
      auditoriumIds: [hall1.id, hall2.id],
      from: '2027-10-22',
      to: '2027-10-24',
      weekdays: [5, 6, 7],
      // 21:00 overlaps this batch's own 20:00 (100 min + 15 min cleaning); 20:00 in Hall 1 overlaps the showtimes
      // created above on Friday and Saturday.
      times: ['20:00', '21:00'],
      priceCents: 1200,
    };
    const dry = await batch({ ...plan, dryRun: true });
    expect(dry.statusCode, dry.body).toBe(200);
    const preview = dry.json<BatchShowtimesResponse>();
    expect(preview.created).toBe(false);
    const described = (p: BatchProblem) => `${p.localDate} ${p.localTime} ${p.auditorium} ${p.reason}`;
    expect(preview.problems.map(described).sort()).toEqual(
      [
        `2027-10-22 20:00 ${hall1.name} overlap`,
        `2027-10-22 21:00 ${hall1.name} overlap`,
        `2027-10-22 21:00 ${hall2.name} overlaps_batch`,
        `2027-10-23 20:00 ${hall1.name} overlap`,
        `2027-10-23 21:00 ${hall1.name} overlap`,
        `2027-10-23 21:00 ${hall2.name} overlaps_batch`,
        `2027-10-24 21:00 ${hall1.name} overlaps_batch`,
        `2027-10-24 21:00 ${hall2.name} overlaps_batch`,
      ].sort(),
    );
    const clash = preview.problems.find((p) => p.reason === 'overlap')!;
    expect(clash.clash).toMatchObject({
      movie: 'Night Train',
      auditorium: hall1.name,
      id: expect.any(String),
    });
    expect(clash.message).toContain('overlaps “Night Train”');
    expect(preview.showtimes).toHaveLength(4);
    expect(await countShowtimes()).toBe(before);

    const refused = await batch(plan);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'batch_clashes',
      error: expect.stringContaining('8 of these'),
    });
    expect(refused.json().problems).toHaveLength(8);
    expect(await countShowtimes()).toBe(before);
  });

  it('names times the clocks skip, times past and showtimes without a price', async () => {
    const skipped = await batch({
      auditoriumIds: [hall2.id],
      from: '2027-03-28',
      to: '2027-03-28',
      weekdays: [7],
      times: ['02:30', '10:00'],
      priceCents: 900,
      dryRun: true,
    });
    expect(skipped.json().problems).toMatchObject([
      {
        localTime: '02:30',
        reason: 'skipped_by_clocks',
        message: '02:30 does not exist on 2027-03-28: the clocks skip it',
      },
    ]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const past = await batch({
      auditoriumIds: [hall2.id],
      from: yesterday,
      to: yesterday,
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      times: ['12:00'],
      priceCents: 900,
      dryRun: true,
    });
    expect(past.json().problems).toMatchObject([{ reason: 'in_the_past' }]);
    // No price given and no price card (this cinema has none): no price.
    const unpriced = await batch({
      auditoriumIds: [hall2.id],
      from: '2027-05-03',
      to: '2027-05-03',
      weekdays: [1],
      times: ['18:00'],
      dryRun: true,
    });
    expect(unpriced.json().problems).toMatchObject([
      { reason: 'no_price', message: 'No price card covers 2027-05-03 18:00: give a price or choose a card' },
    ]);
  });

  it('takes the lowest adult price of the chosen price card', async () => {
    const types = (
      await t.app.inject({ method: 'GET', url: '/api/admin/ticket-types', headers: admin.headers })
    ).json();
    const adult = types[0].id;
    const card = await t.app.inject({
      method: 'POST',
      url: '/api/admin/price-cards',
      headers: admin.headers,
      payload: {
        name: 'Late night',
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        from: '21:00',
        to: '24:00',
        prices: [
          { ticketTypeId: adult, seatType: 'STANDARD', priceCents: 800 },
          { ticketTypeId: adult, seatType: 'PREMIUM', priceCents: 1000 },
        ],
      },
    });
    expect(card.statusCode, card.body).toBe(201);
    const res = await batch({
      auditoriumIds: [hall2.id],
      from: '2027-06-01',
      to: '2027-06-02',
      weekdays: [2, 3],
      times: ['22:00'],
      priceCardId: card.json().id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().showtimes.map((s: { priceCents: number }) => s.priceCents)).toEqual([800, 800]);
  });

  it('refuses what it cannot plan with a clear reason', async () => {
    const base = { auditoriumIds: [hall1.id], weekdays: [1], times: ['18:00'], priceCents: 900 };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, from: '2027-02-10', to: '2027-02-01' }, 400, 'The last day must not be before the first'],
      [{ ...base, from: '2027-01-01', to: '2027-06-01' }, 400, 'A batch covers at most 92 days'],
      [{ ...base, from: '2027-02-01', to: '2027-02-01', weekdays: [2] }, 400, 'No day of that range falls'],
      [{ ...base, from: '2027-02-01', to: '2027-02-07', times: ['25:00'] }, 400, 'Use times as HH:MM'],
      [{ ...base, from: '2027-02-01', to: '2027-02-07', weekdays: [1, 1] }, 400, 'Each day once'],
      [{ ...base, from: '2027-02-01', to: '2027-02-07', auditoriumIds: [] }, 400, 'Choose at least one hall'],
      [
        {
          ...base,
          auditoriumIds: [hall1.id, hall2.id],
          from: '2027-01-01',
          to: '2027-03-31',
          weekdays: [1, 2, 3, 4, 5, 6, 7],
          times: ['10:00', '13:00', '16:00', '19:00'],
        },
        400,
        'a batch creates at most 600',
      ],
      [{ ...base, from: '2030-02-01', to: '2030-02-07' }, 400, 'at most 730 days from now'],
      [{ ...base, from: '2027-02-01', to: '2027-02-07', auditoriumIds: [film.id] }, 404, 'Hall not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await batch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toContain(message);
    }
  });

  it('filters the manage list by span, movie and hall, a page at a time with the total', async () => {
    const list = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/showtimes/manage?${query}`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return { rows: res.json<ManagedShowtime[]>(), total: Number(res.headers['x-total-count']) };
    };
    const friday = await list(`from=2027-10-22T00:00:00%2B02:00&to=2027-10-23T00:00:00%2B02:00`);
    expect(friday.rows.map((r) => r.startsAt)).toEqual([
      '2027-10-22T15:00:00.000Z',
      '2027-10-22T18:00:00.000Z',
    ]);
    expect(friday.rows[0]).toMatchObject({
      movie: 'Night Train',
      movieId: film.id,
      auditoriumId: hall1.id,
      endsAt: '2027-10-22T16:55:00.000Z',
      confirmed: 0,
      held: 0,
      capacity: expect.any(Number),
    });
    const inHall2 = await list(`auditoriumId=${hall2.id}&movieId=${film.id}`);
    expect(inHall2.rows).toHaveLength(2);
    const page1 = await list(`movieId=${film.id}&page=1`);
    expect(page1.total).toBe(12);
    expect(page1.rows).toHaveLength(12);
    const page2 = await list(`movieId=${film.id}&page=2`);
    expect(page2.rows).toEqual([]);
    expect(page2.total).toBe(12);
  });

  it.runIf(engine === 'postgres' && postgresUrl)(
    'lets one of two overlapping batches sent at once in, and names the other’s clash',
    async () => {
      const before = await countShowtimes();
      const body = {
        auditoriumIds: [hall1.id],
        from: '2027-08-02',
        to: '2027-08-08',
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        priceCents: 1000,
      };
      const results = await Promise.all(
        ['19:00', '19:30', '20:00', '20:30'].map((time) => batch({ ...body, times: [time] })),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      for (const r of results.filter((x) => x.statusCode === 409)) {
        expect(r.json().code).toBe('batch_clashes');
      }
      expect(await countShowtimes()).toBe(before + 7);
    },
  );
});
