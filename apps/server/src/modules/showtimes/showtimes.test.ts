import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, seats, showtimes } from '../../db/schema/index.ts';
import { minutesFromNow, postMovie, shift } from '../../test/catalogue.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { ensureDefaultHalls } from '../halls/halls.service.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const DAY = 24 * 60;

describe.each(engines)('showtimes on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let hall1: string;
  let hall2: string;
  let film: { id: string; title: string }; // 100 minutes long
  let unknownLength: { id: string; title: string };
  let dayOffset = 0;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    customer = await signedInUser(t.app);
    const halls = await ensureDefaultHalls(t.database.db);
    hall1 = halls[0]!.id;
    hall2 = halls[1]!.id;
    film = (await postMovie(t.app, admin.headers, { title: 'Heat Wave', durationMinutes: '100' })).json();
    unknownLength = (await postMovie(t.app, admin.headers, { title: 'Mystery Reel' })).json();
  });
  afterAll(() => t.close());

  /** A start time on a day of its own, so tests do not collide. */
  const freshDay = () => minutesFromNow(DAY * (2 + dayOffset++ * 2));

  const schedule = (payload: Record<string, unknown>, headers = admin.headers) =>
    t.app.inject({ method: 'POST', url: '/api/admin/showtimes', headers, payload });
  const scheduleFilm = (startsAt: string, auditoriumId = hall1, movieId = film.id, priceCents = 1200) =>
    schedule({ movieId, auditoriumId, startsAt, priceCents });

  it('schedules a showtime and lists it to customers with its hall and price', async () => {
    const startsAt = freshDay();
    const res = await scheduleFilm(startsAt, hall1, film.id, 1350);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(String),
      movieId: film.id,
      auditoriumId: hall1,
      auditorium: 'Hall 1',
      startsAt,
      priceCents: 1350,
      attributes: [],
    });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/movies/${film.id}/showtimes`,
      headers: customer.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(created);
  });

  it('allows back-to-back showtimes: the hall is free again after the movie plus 15 minutes of cleaning', async () => {
    const first = freshDay();
    expect((await scheduleFilm(first)).statusCode).toBe(201);
    // 100 minutes + 15 of cleaning: the next one may start exactly at +115 …
    expect((await scheduleFilm(shift(first, 115))).statusCode).toBe(201);
    // … and one may end (with its cleaning) exactly when the first starts.
    expect((await scheduleFilm(shift(first, -115))).statusCode).toBe(201);
  });

  it('refuses one minute of overlap with a 409 naming the clashing showtime', async () => {
    const first = freshDay();
    const existing = (await scheduleFilm(first)).json();
    for (const startsAt of [shift(first, 114), shift(first, -114), shift(first, 30)]) {
      const res = await scheduleFilm(startsAt);
      expect(res.statusCode).toBe(409);
      const body = res.json();
      expect(body.code).toBe('showtime_overlap');
      const utc = `${first.slice(0, 10)} ${first.slice(11, 16)} UTC`;
      expect(body.error).toContain('"Heat Wave"');
      expect(body.error).toContain('Hall 1');
      expect(body.error).toContain(utc);
      expect(body.clash).toEqual({
        id: existing.id,
        movie: 'Heat Wave',
        auditorium: 'Hall 1',
        startsAt: first,
        endsAt: shift(first, 115),
      });
    }
  });

  it('allows the same time in another hall', async () => {
    const startsAt = freshDay();
    expect((await scheduleFilm(startsAt, hall1)).statusCode).toBe(201);
    expect((await scheduleFilm(startsAt, hall2)).statusCode).toBe(201);
  });

  it('counts a movie of unknown length as 120 minutes (plus cleaning)', async () => {
    const first = freshDay();
    expect((await scheduleFilm(first, hall1, unknownLength.id)).statusCode).toBe(201);
    expect((await scheduleFilm(shift(first, 134))).statusCode).toBe(409);
    expect((await scheduleFilm(shift(first, 135))).statusCode).toBe(201);
  });

  it('keeps the database the judge when two overlapping showtimes are scheduled at once', async () => {
    const startsAt = freshDay();
    const results = await Promise.all([
      scheduleFilm(startsAt, hall2),
      scheduleFilm(shift(startsAt, 10), hall2),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('stores a start time given with a UTC offset as the right instant', async () => {
    // 20:30 at +05:30 is 15:00 UTC.
    const day = new Date(Date.now() + DAY * 60_000 * 200);
    const date = day.toISOString().slice(0, 10);
    const res = await scheduleFilm(`${date}T20:30:00+05:30`, hall2);
    expect(res.statusCode).toBe(201);
    expect(res.json().startsAt).toBe(`${date}T15:00:00.000Z`);
    const [row] = await t.database.db.select().from(showtimes).where(eq(showtimes.id, res.json().id));
    expect(row!.startsAt.toISOString()).toBe(`${date}T15:00:00.000Z`);
    expect(row!.endsAt.toISOString()).toBe(`${date}T16:55:00.000Z`);
  });

  it.each([
    ['a start in the past', { startsAt: minutesFromNow(-60) }, /past/],
    ['a start more than 730 days ahead', { startsAt: minutesFromNow(DAY * 731) }, /730 days/],
    ['a start in the year 9999', { startsAt: '9999-12-31T23:59:59Z' }, /730 days/],
    ['a start without a time zone', { startsAt: '2031-01-01T10:00:00' }, /startsAt/],
    ['a start that is not a date', { startsAt: 'tomorrow' }, /startsAt/],
    ['a price of 0', { priceCents: 0 }, /priceCents/],
    ['a price above 100000 cents', { priceCents: 100_001 }, /priceCents/],
    ['a fractional price', { priceCents: 12.5 }, /priceCents/],
    ['a malformed movie id', { movieId: 'abc' }, /movieId/],
    ['a missing hall', { auditoriumId: undefined }, /auditoriumId/],
  ])('answers %s with 400', async (_what, override, message) => {
    const res = await schedule({
      movieId: film.id,
      auditoriumId: hall1,
      startsAt: freshDay(),
      priceCents: 1200,
      ...override,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.stringMatching(message), code: 'bad_request' });
  });

  it('accepts the price limits 1 and 100000 cents', async () => {
    const startsAt = freshDay();
    expect((await scheduleFilm(startsAt, hall1, film.id, 1)).statusCode).toBe(201);
    expect((await scheduleFilm(startsAt, hall2, film.id, 100_000)).statusCode).toBe(201);
  });

  it('answers an unknown movie or hall with 404', async () => {
    const movie = await scheduleFilm(freshDay(), hall1, UNKNOWN_ID);
    expect(movie.statusCode).toBe(404);
    expect(movie.json()).toMatchObject({ error: 'Movie not found', code: 'not_found' });
    const hall = await scheduleFilm(freshDay(), UNKNOWN_ID);
    expect(hall.statusCode).toBe(404);
    expect(hall.json()).toMatchObject({ error: 'Hall not found', code: 'not_found' });
  });

  it("lists only a movie's upcoming showtimes, in start order", async () => {
    const movie = (
      await postMovie(t.app, admin.headers, { title: 'Ordering', durationMinutes: '60' })
    ).json();
    const later = (await scheduleFilm(minutesFromNow(DAY * 300), hall1, movie.id)).json();
    const sooner = (await scheduleFilm(minutesFromNow(DAY * 299), hall2, movie.id)).json();
    // One that already started, straight into the database (the API refuses the past).
    const past = new Date(Date.now() - 60 * 60_000);
    await t.database.db.insert(showtimes).values({
      movieId: movie.id,
      hallId: hall1,
      startsAt: past,
      endsAt: new Date(past.getTime() + 75 * 60_000),
      priceCents: 900,
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/movies/${movie.id}/showtimes` });
    expect(res.json().map((s: { id: string }) => s.id)).toEqual([sooner.id, later.id]);

    const admin404 = await t.app.inject({ method: 'GET', url: `/api/movies/${UNKNOWN_ID}/showtimes` });
    expect(admin404.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/movies/xyz/showtimes' })).statusCode).toBe(400);

    // Staff see every showtime, past ones too, with the movie title and hall name nested.
    const all = await t.app.inject({
      method: 'GET',
      url: `/api/admin/showtimes?movieId=${movie.id}`,
      headers: admin.headers,
    });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toHaveLength(3);
    expect(all.json()[1]).toEqual({
      id: sooner.id,
      movieId: movie.id,
      auditoriumId: hall2,
      startsAt: sooner.startsAt,
      priceCents: 1200,
      attributes: [],
      Movie: { title: 'Ordering' },
      Auditorium: { name: 'Hall 2' },
    });
    const everything = await t.app.inject({
      method: 'GET',
      url: '/api/admin/showtimes',
      headers: admin.headers,
    });
    expect(everything.json().length).toBeGreaterThan(3);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/showtimes?movieId=1',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  describe('with bookings', () => {
    let seatIds: string[];
    beforeAll(async () => {
      seatIds = (await t.database.db.select({ id: seats.id }).from(seats).where(eq(seats.hallId, hall1))).map(
        (s) => s.id,
      );
    });
    const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);
    async function book(showtimeId: string, seat: number, values: Partial<typeof bookings.$inferInsert>) {
      await t.database.db
        .insert(bookings)
        .values({ showtimeId, seatId: seatIds[seat]!, userId: customer.id, priceCents: 1200, ...values });
    }

    it('counts confirmed tickets and live holds only on the manage list', async () => {
      const st = (await scheduleFilm(freshDay())).json();
      await book(st.id, 0, { status: 'CONFIRMED', confirmedAt: new Date() });
      await book(st.id, 1, { status: 'CONFIRMED', confirmedAt: new Date() });
      await book(st.id, 2, { status: 'HELD', expiresAt: inMinutes(5) });
      await book(st.id, 3, { status: 'HELD', expiresAt: inMinutes(-1) }); // expired, not yet swept
      await book(st.id, 4, { status: 'CANCELLED' });
      await book(st.id, 5, { status: 'REFUNDED' });
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/showtimes/manage',
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      const row = res.json().find((s: { id: string }) => s.id === st.id);
      expect(row).toEqual({
        id: st.id,
        movie: 'Heat Wave',
        auditorium: 'Hall 1',
        startsAt: st.startsAt,
        priceCents: 1200,
        confirmed: 2,
        held: 1,
        movieId: film.id,
        auditoriumId: hall1,
        endsAt: new Date(Date.parse(st.startsAt) + 115 * 60_000).toISOString(),
        capacity: 92, // 96 seats, 4 of them house seats not for sale
        attributes: [],
      });
      const empty = res
        .json()
        .find((s: { confirmed: number; held: number }) => s.confirmed === 0 && s.held === 0);
      expect(empty).toBeDefined();
      const starts = res.json().map((s: { startsAt: string }) => s.startsAt);
      expect(starts).toEqual([...starts].sort());
    });

    it('deletes a showtime with only unpaid, expired or cancelled bookings', async () => {
      const st = (await scheduleFilm(freshDay())).json();
      await book(st.id, 0, { status: 'HELD', expiresAt: inMinutes(5) });
      await book(st.id, 1, {
        status: 'HELD',
        expiresAt: inMinutes(-5),
        checkoutSessionId: crypto.randomUUID(),
      });
      await book(st.id, 2, { status: 'EXPIRED' });
      await book(st.id, 3, { status: 'CANCELLED' });
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/showtimes/${st.id}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const list = await t.app.inject({ method: 'GET', url: `/api/movies/${film.id}/showtimes` });
      expect(list.json().map((s: { id: string }) => s.id)).not.toContain(st.id);
      expect(await t.database.db.select().from(bookings).where(eq(bookings.showtimeId, st.id))).toEqual([]);
      // The hall is free again at that time.
      expect((await scheduleFilm(st.startsAt)).statusCode).toBe(201);
    });

    it.each([
      ['a confirmed ticket', { status: 'CONFIRMED' as const, confirmedAt: new Date() }, /has sold tickets/],
      ['a refunded ticket', { status: 'REFUNDED' as const }, /has sold tickets/],
      [
        'a customer paying right now',
        {
          status: 'HELD' as const,
          expiresAt: new Date(Date.now() + 25 * 60_000),
          checkoutSessionId: crypto.randomUUID(),
        },
        /paying/,
      ],
    ])('refuses to delete a showtime with %s (409) and deletes nothing', async (_what, booking, message) => {
      const st = (await scheduleFilm(freshDay())).json();
      await book(st.id, 0, booking);
      await book(st.id, 1, { status: 'HELD', expiresAt: inMinutes(5) });
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/showtimes/${st.id}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: expect.stringMatching(message), code: 'has_sold_tickets' });
      const list = await t.app.inject({ method: 'GET', url: `/api/movies/${film.id}/showtimes` });
      expect(list.json().map((s: { id: string }) => s.id)).toContain(st.id);
      expect(await t.database.db.select().from(bookings).where(eq(bookings.showtimeId, st.id))).toHaveLength(
        2,
      );
    });
  });

  it('answers deleting an unknown showtime with 404 and a malformed id with 400', async () => {
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/showtimes/${UNKNOWN_ID}`,
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'Showtime not found', code: 'not_found' });
    const bad = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/showtimes/12',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'bad_request' });
  });

  it('keeps scheduling to admins: 401 for visitors, 403 for customers', async () => {
    const startsAt = freshDay();
    const requests = [
      { method: 'GET' as const, url: '/api/admin/showtimes' },
      { method: 'GET' as const, url: '/api/admin/showtimes/manage' },
      {
        method: 'POST' as const,
        url: '/api/admin/showtimes',
        payload: { movieId: film.id, auditoriumId: hall1, startsAt, priceCents: 1200 },
      },
      { method: 'DELETE' as const, url: `/api/admin/showtimes/${UNKNOWN_ID}` },
    ];
    for (const r of requests) {
      const visitor = await t.app.inject(r);
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toMatchObject({ code: 'unauthorized' });
      const user = await t.app.inject({ ...r, headers: customer.headers });
      expect(user.statusCode).toBe(403);
      expect(user.json()).toMatchObject({ code: 'forbidden' });
    }
    // Nothing was scheduled by them: the admin can still use that slot.
    expect((await scheduleFilm(startsAt)).statusCode).toBe(201);
  });
});
