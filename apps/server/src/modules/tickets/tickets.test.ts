import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { BookedSeat, ShowtimeTicket, Ticket } from '@cinema/contract';
import { bookings, type BookingStatus } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

const HOUR = 3600_000;

async function book(
  app: FastifyInstance,
  who: SignedIn,
  show: ShowtimeFixture,
  seat: [row: number, number: number],
  status: BookingStatus = 'CONFIRMED',
  checkedIn = false,
) {
  const [row] = await app.database.db
    .insert(bookings)
    .values({
      showtimeId: show.showtimeId,
      seatId: show.seatIds[seat[0] - 1]![seat[1] - 1]!,
      userId: who.id,
      status,
      expiresAt: status === 'HELD' ? sql`now() + interval '10 minutes'` : null,
      priceCents: 1200,
      confirmedAt: status === 'CONFIRMED' ? sql`now()` : null,
      checkedInAt: checkedIn ? sql`now()` : null,
    })
    .returning({ id: bookings.id });
  return row!.id;
}

describe.each(engines)('tickets on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: SignedIn;
  let bob: SignedIn;
  let admin: SignedIn;
  let tomorrow: ShowtimeFixture;
  let nextWeek: ShowtimeFixture;
  let lastWeek: ShowtimeFixture;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    alice = await signedInUser(app, { name: 'Alice Buyer' });
    bob = await signedInUser(app, { name: 'Bob Buyer' });
    admin = await signedInAdmin(app);
    const db = app.database.db;
    nextWeek = await createShowtimeFixture(db, { startsAt: new Date(Date.now() + 7 * 24 * HOUR) });
    lastWeek = await createShowtimeFixture(db, { startsAt: new Date(Date.now() - 7 * 24 * HOUR) });
    tomorrow = await createShowtimeFixture(db, { startsAt: new Date(Date.now() + 24 * HOUR) });

    ids.nextWeek = await book(app, alice, nextWeek, [1, 1]);
    ids.lastWeek = await book(app, alice, lastWeek, [2, 2], 'CONFIRMED', true);
    ids.tomorrowB3 = await book(app, alice, tomorrow, [2, 3]);
    ids.tomorrowA5 = await book(app, alice, tomorrow, [1, 5]);
    ids.bobs = await book(app, bob, tomorrow, [3, 1], 'CONFIRMED', true);
    // Not tickets: a live hold, a released hold, a refunded seat.
    ids.held = await book(app, alice, tomorrow, [4, 1], 'HELD');
    ids.expired = await book(app, alice, tomorrow, [4, 2], 'EXPIRED');
    ids.refunded = await book(app, alice, tomorrow, [4, 3], 'REFUNDED');
  });
  afterAll(() => t.close());

  it('lists my paid tickets only, upcoming first (soonest first), then past ones', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: alice.headers });
    expect(res.statusCode).toBe(200);
    const { tickets } = res.json() as { tickets: Ticket[] };
    expect(tickets.map((x) => x.bookingId)).toEqual([
      ids.tomorrowA5,
      ids.tomorrowB3,
      ids.nextWeek,
      ids.lastWeek,
    ]);
    expect(tickets[0]).toEqual({
      bookingId: ids.tomorrowA5,
      movie: { title: 'Fixture Movie', rating: 'PG', durationMinutes: 100 },
      auditorium: expect.stringMatching(/^Fixture hall/),
      seat: { row: 1, number: 5, rowLabel: 'A', type: 'STANDARD' },
      startsAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      checkedInAt: null,
      attributes: [],
      // Written straight into the database: no test checkout paid for it.
      testMode: false,
    });
    expect(tickets[3]!.checkedInAt).toEqual(expect.any(String));
  });

  it('gives a customer with no tickets an empty list and a visitor a 401', async () => {
    const nobody = await signedInUser(app);
    const empty = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: nobody.headers });
    expect(empty.json()).toEqual({ tickets: [] });
    const visitor = await app.inject({ method: 'GET', url: '/api/me/tickets' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ error: expect.any(String), code: 'unauthorized' });
  });

  it('shows an admin the booked seats of a showtime with their buyers, in seat order', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/admin/showtimes/${tomorrow.showtimeId}/booked`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const booked = res.json() as BookedSeat[];
    expect(booked.map((b) => b.bookingId)).toEqual([ids.tomorrowA5, ids.tomorrowB3, ids.bobs]);
    expect(booked[2]).toEqual({
      bookingId: ids.bobs,
      user: { email: bob.email, name: 'Bob Buyer' },
      seat: { row: 3, number: 1, rowLabel: 'C', type: 'STANDARD' },
      movie: 'Fixture Movie',
      startsAt: expect.any(String),
      auditorium: expect.stringMatching(/^Fixture hall/),
      checkedInAt: expect.any(String),
      attributes: [],
      minAge: null,
    });
    expect(booked[0]!.checkedInAt).toBeNull();
  });

  it('gives an admin the tickets of a showtime for printing', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/admin/showtimes/${tomorrow.showtimeId}/tickets`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const tickets = res.json() as ShowtimeTicket[];
    expect(tickets.map((x) => [x.bookingId, x.seat])).toEqual([
      [ids.tomorrowA5, { row: 1, number: 5, rowLabel: 'A', type: 'STANDARD' }],
      [ids.tomorrowB3, { row: 2, number: 3, rowLabel: 'B', type: 'STANDARD' }],
      [ids.bobs, { row: 3, number: 1, rowLabel: 'C', type: 'STANDARD' }],
    ]);
    expect(Object.keys(tickets[0]!).sort()).toEqual(['auditorium', 'bookingId', 'movie', 'seat', 'startsAt']);
  });

  it('keeps the admin lists to admins: 401 visitor, 403 customer, 404 unknown showtime, 400 bad id', async () => {
    for (const list of ['booked', 'tickets']) {
      const url = `/api/admin/showtimes/${tomorrow.showtimeId}/${list}`;
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
      const customer = await app.inject({ method: 'GET', url, headers: alice.headers });
      expect(customer.statusCode).toBe(403);
      expect(customer.json()).toMatchObject({ code: 'forbidden' });
      const unknown = await app.inject({
        method: 'GET',
        url: `/api/admin/showtimes/00000000-0000-4000-8000-000000000000/${list}`,
        headers: admin.headers,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ error: 'Showtime not found', code: 'not_found' });
      const bad = await app.inject({
        method: 'GET',
        url: `/api/admin/showtimes/nope/${list}`,
        headers: admin.headers,
      });
      expect(bad.statusCode).toBe(400);
    }
    const empty = await app.inject({
      method: 'GET',
      url: `/api/admin/showtimes/${nextWeek.showtimeId}/booked`,
      headers: admin.headers,
    });
    expect((empty.json() as BookedSeat[]).map((b) => b.bookingId)).toEqual([ids.nextWeek]);
  });
});
