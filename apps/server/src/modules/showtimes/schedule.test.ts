import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayStart, type Schedule } from '@cinema/contract';
import { seats } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type TestApp } from '../../test/helpers.ts';
import { buySeats, holdSeats } from '../../test/purchase.ts';

/** The calendar day of an instant on a time zone's clocks. */
const dayIn = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);

describe.each(engines)('the public schedule on %s', (engine) => {
  let t: TestApp;
  let show: ShowtimeFixture;
  let timeZone: string;
  const startsAt = new Date(Date.now() + 26 * 3600_000);

  beforeAll(async () => {
    t = await createTestApp(engine);
    show = await createShowtimeFixture(t.database.db, { rows: 2, cols: 5, startsAt });
    timeZone = t.app.config.timeZone;
  });
  afterAll(() => t.close());

  const schedule = async (date?: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/schedule${date ? `?date=${date}` : ''}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Schedule;
  };
  const ours = (s: Schedule) => s.showtimes.find((x) => x.id === show.showtimeId);

  it('offers visitors today and the next 13 days, each with the showtimes it has left', async () => {
    const today = await schedule();
    expect(today.date).toBe(dayIn(new Date(), timeZone));
    expect(today.days).toHaveLength(14);
    expect(today.days[0]!.date).toBe(today.date);
    const day = today.days.find((d) => d.date === dayIn(startsAt, timeZone));
    expect(day?.showtimes).toBeGreaterThanOrEqual(1);
  });

  it("lists a day's showtimes with their movie, hall, price and every seat for sale left", async () => {
    const day = await schedule(dayIn(startsAt, timeZone));
    expect(ours(day)).toMatchObject({
      movieId: show.movieId,
      startsAt: startsAt.toISOString(),
      priceCents: 1200,
      capacity: 10,
      seatsLeft: 10,
      availability: 'AVAILABLE',
    });
    expect(day.movies.map((m) => m.id)).toContain(show.movieId);
  });

  it('counts held and sold seats, says "selling fast" under a fifth left and "sold out" at none', async () => {
    const [a, b] = [await signedInUser(t.app), await signedInUser(t.app)];
    await holdSeats(t.app, a, show.showtimeId, show.allSeatIds.slice(0, 4));
    await buySeats(t.app, b, show.showtimeId, show.allSeatIds.slice(4, 8));
    const date = dayIn(startsAt, timeZone);
    expect(ours(await schedule(date))).toMatchObject({ seatsLeft: 2, availability: 'AVAILABLE' });

    await holdSeats(t.app, b, show.showtimeId, [show.allSeatIds[8]!]);
    expect(ours(await schedule(date))).toMatchObject({ seatsLeft: 1, availability: 'SELLING_FAST' });

    // A blocked seat is not for sale: the hall's last free seat blocked leaves nothing.
    await t.database.db.update(seats).set({ blocked: true }).where(eq(seats.id, show.allSeatIds[9]!));
    expect(ours(await schedule(date))).toMatchObject({ capacity: 9, seatsLeft: 0, availability: 'SOLD_OUT' });
  });

  it('leaves out showtimes that have started', async () => {
    const started = await createShowtimeFixture(t.database.db, {
      rows: 1,
      cols: 2,
      startsAt: new Date(Date.now() - 5 * 60_000),
    });
    const today = await schedule();
    expect(today.showtimes.map((s) => s.id)).not.toContain(started.showtimeId);
  });

  it('lists a showtime at midnight on its own day, as the day strip counts it', async () => {
    const twoDaysOn = dayIn(new Date(Date.now() + 2 * 86_400_000), timeZone);
    const midnight = dayStart(twoDaysOn, timeZone);
    const late = await createShowtimeFixture(t.database.db, { rows: 1, cols: 2, startsAt: midnight });
    const day = await schedule(twoDaysOn);
    expect(day.days.find((d) => d.date === twoDaysOn)?.showtimes).toBeGreaterThanOrEqual(1);
    expect(day.showtimes.map((s) => s.id)).toContain(late.showtimeId);
    const before = await schedule(dayIn(new Date(midnight.getTime() - 3600_000), timeZone));
    expect(before.showtimes.map((s) => s.id)).not.toContain(late.showtimeId);
  });

  it('refuses a day that is not a date, has passed or lies beyond two weeks, with a clear reason', async () => {
    const far = dayIn(new Date(Date.now() + 20 * 86_400_000), timeZone);
    const past = dayIn(new Date(Date.now() - 2 * 86_400_000), timeZone);
    for (const date of ['2026-13-40', 'tomorrow', far, past]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/schedule?date=${date}` });
      expect(res.statusCode, date).toBe(400);
      expect(res.json().error).toMatch(/date|Choose a day from/);
    }
  });
});
