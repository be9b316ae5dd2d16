import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type {
  MyWaitlistResponse,
  SeatMap,
  StaffWaitlist,
  WaitlistCounts,
  WaitlistEntry,
} from '@cinema/contract';
import { bookings, seats, showtimes, users } from '../../db/schema/index.ts';
import { createShowtimeFixture, sellSeatsDirectly, type ShowtimeFixture } from '../../test/fixtures.ts';
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
import { buySeats, holdSeats, payForHolds } from '../../test/purchase.ts';
import { sweepExpiredHolds } from '../seating/sweeper.ts';

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', METRICS: 'on' };

describe.each(engines)('the waiting list on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let filler: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    admin = await signedInAdmin(app);
    filler = await signedInUser(app, { name: 'Fiona Filler' });
  });
  afterAll(() => t.close());

  const join = (who: SignedIn | null, showtimeId: string, payload: object) =>
    app.inject({
      method: 'POST',
      url: `/api/showtimes/${showtimeId}/waitlist`,
      headers: who?.headers ?? {},
      payload,
    });
  const leave = (who: SignedIn, showtimeId: string) =>
    app.inject({ method: 'DELETE', url: `/api/showtimes/${showtimeId}/waitlist`, headers: who.headers });
  const mine = async (who: SignedIn) => {
    const res = await app.inject({ method: 'GET', url: '/api/me/waitlist', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as MyWaitlistResponse).entries;
  };
  const entryFor = async (who: SignedIn, showtimeId: string) =>
    (await mine(who)).find((e) => e.showtime.id === showtimeId);
  /** Lets the offering the events asked for finish (it runs in the background, as after any freed seat). */
  const settled = () => app.waitlist.settle();

  /** Every seat of the showtime sold (straight into the database), but those given. */
  const soldOut = (show: ShowtimeFixture, except: string[] = []) =>
    sellSeatsDirectly(
      app.database.db,
      show.showtimeId,
      filler.id,
      show.allSeatIds.filter((id) => !except.includes(id)),
    );

  /** A filler's confirmed booking of these seats is refunded straight in the database, then told as a refund is. */
  async function free(show: ShowtimeFixture, seatIds: string[]) {
    await app.database.db
      .update(bookings)
      .set({ status: 'REFUNDED' })
      .where(
        and(
          eq(bookings.showtimeId, show.showtimeId),
          inArray(bookings.seatId, seatIds),
          eq(bookings.userId, filler.id),
        ),
      );
    app.events.publish('seatsChanged', {
      showtimeId: show.showtimeId,
      seats: seatIds.map((id) => ({ id, status: 'AVAILABLE' as const })),
    });
    await settled();
  }

  it('asks visitors to sign in, refuses bad requests with clear 4xx, and keeps one entry per customer', async () => {
    const show = await createShowtimeFixture(app.database.db, { rows: 2, cols: 4 });
    await soldOut(show);
    const cathy = await signedInUser(app);
    expect((await join(null, show.showtimeId, { count: 2 })).statusCode).toBe(401);
    const bad = await join(cathy, show.showtimeId, { count: 11 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'count: At most 10 seats' });
    expect((await join(cathy, show.showtimeId, { count: 2, type: 'COMPANION' })).statusCode).toBe(400);
    expect((await join(cathy, show.showtimeId, {})).statusCode).toBe(400);
    const unknown = await join(cathy, '00000000-0000-4000-8000-000000000000', { count: 2 });
    expect(unknown.statusCode).toBe(404);

    const res = await join(cathy, show.showtimeId, { count: 2 });
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json() as WaitlistEntry;
    expect(entry).toMatchObject({
      count: 2,
      together: true,
      type: null,
      status: 'waiting',
      position: 1,
      offer: null,
    });

    const again = await join(cathy, show.showtimeId, { seats: 1, together: false });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'waitlist_joined' });
    // In the customer's language.
    const spanish = await app.inject({
      method: 'POST',
      url: `/api/showtimes/${show.showtimeId}/waitlist`,
      headers: { ...cathy.headers, 'accept-language': 'es' },
      payload: { count: 1 },
    });
    expect(spanish.json()).toMatchObject({ error: 'Ya estás en la lista de espera de esta sesión' });

    // A second customer is second in line; `seats` and `wheelchair` are read as count and type.
    const dan = await signedInUser(app);
    const second = await join(dan, show.showtimeId, { seats: 2, together: false, wheelchair: true });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({ count: 2, together: false, type: 'WHEELCHAIR', position: 2 });

    // Leaving moves the next one up; leaving twice leaves nothing.
    expect((await leave(cathy, show.showtimeId)).json()).toEqual({ ok: true, left: true });
    expect((await leave(cathy, show.showtimeId)).json()).toEqual({ ok: true, left: false });
    expect((await entryFor(dan, show.showtimeId))?.position).toBe(1);
    expect((await entryFor(cathy, show.showtimeId))?.status).toBe('left');
    // Once left, the customer may join again, at the back of the line.
    expect((await join(cathy, show.showtimeId, { count: 1 })).json()).toMatchObject({ position: 2 });
  });

  it('bounds the lists one customer is on', async () => {
    const eve = await signedInUser(app);
    for (let i = 0; i < 5; i++) {
      const show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2 });
      await soldOut(show);
      expect((await join(eve, show.showtimeId, { count: 1 })).statusCode).toBe(201);
    }
    const sixth = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2 });
    const res = await join(eve, sixth.showtimeId, { count: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'waitlist_limit',
      error: 'You can be on at most 5 waiting lists at a time',
    });
  });

  it('offers freed seats to the first in line they fit, held in their name, told by email in their language', async () => {
    const show = await createShowtimeFixture(app.database.db, { rows: 2, cols: 4 });
    await soldOut(show);
    const ana = await signedInUser(app, { name: 'Ana' });
    await app.database.db.update(users).set({ language: 'es' }).where(eq(users.id, ana.id));
    const ben = await signedInUser(app, { name: 'Ben' });
    const cleo = await signedInUser(app, { name: 'Cleo' });
    expect((await join(ana, show.showtimeId, { count: 2 })).statusCode).toBe(201); // together
    expect((await join(ben, show.showtimeId, { count: 1 })).statusCode).toBe(201);
    expect((await join(cleo, show.showtimeId, { count: 2, together: false })).statusCode).toBe(201);

    // A1 and A3 come free: not together, so Ana (first) is passed over; Ben gets the better one, Cleo none (one left).
    const [a1, , a3] = show.seatIds[0]!;
    await free(show, [a1!, a3!]);
    expect((await entryFor(ana, show.showtimeId))?.status).toBe('waiting');
    const bens = (await entryFor(ben, show.showtimeId))!;
    expect(bens.status).toBe('offered');
    expect(bens.offer).toMatchObject({ status: 'open' });
    expect(bens.offer!.seats).toHaveLength(1);
    const bensSeat = bens.offer!.seats[0]!.id;
    expect([a1, a3]).toContain(bensSeat);
    // Held for WAITLIST_OFFER_MINUTES (15) in Ben's name: his seat map shows it as his hold.
    const left = new Date(bens.offer!.expiresAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(14 * 60_000);
    expect(left).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const map = (
      await app.inject({
        method: 'GET',
        url: `/api/showtimes/${show.showtimeId}/seats`,
        headers: ben.headers,
      })
    ).json() as SeatMap;
    expect(map.seats.find((s) => s.id === bensSeat)).toMatchObject({ status: 'HELD', heldByMe: true });
    expect((await entryFor(cleo, show.showtimeId))?.status).toBe('waiting');
    expect((await entryFor(ana, show.showtimeId))?.position).toBe(1);

    const mail = await newestMail(app, ben.email, 'waitlist_offer');
    expect(mail?.subject).toBe('Seats are held for you: Fixture Movie');
    expect(mail?.text).toContain(`/showtimes/${show.showtimeId}/seats`);
    expect(mail?.text).toMatch(/held for you until \d{1,2}:\d{2}/);

    // A2 and A4 free up as well: now two together for Ana (A2 with A3 or A1), in Spanish.
    const [, a2, , a4] = show.seatIds[0]!;
    await free(show, [a2!, a4!]);
    const anas = (await entryFor(ana, show.showtimeId))!;
    expect(anas.status).toBe('offered');
    const anaSeats = anas.offer!.seats.map((s) => s.number).sort();
    expect(anaSeats[1]! - anaSeats[0]!).toBe(1);
    const anaMail = await newestMail(app, ana.email, 'waitlist_offer');
    expect(anaMail?.subject).toBe('Tienes butacas reservadas: Fixture Movie');
    // Cleo got the last free seat? No: she wants two and one is left.
    expect((await entryFor(cleo, show.showtimeId))?.status).toBe('waiting');

    // Ben pays for his offer as for any hold: taken.
    await payForHolds(
      app,
      ben,
      bens.offer!.seats.map((s) => s.bookingId),
    );
    await settled();
    expect(await entryFor(ben, show.showtimeId)).toMatchObject({
      status: 'taken',
      offer: { status: 'taken' },
    });

    // Ana declines (leaves): her two seats go on to Cleo, who takes any two (one more was free already).
    expect((await leave(ana, show.showtimeId)).json()).toEqual({ ok: true, left: true });
    await settled();
    expect(await entryFor(ana, show.showtimeId)).toMatchObject({
      status: 'left',
      offer: { status: 'declined' },
    });
    const cleos = (await entryFor(cleo, show.showtimeId))!;
    expect(cleos.status).toBe('offered');
    expect(cleos.offer!.seats).toHaveLength(2);

    // Cleo lets hers run out: they pass on (nobody else waits: the seats are for sale again).
    await app.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(
        inArray(
          bookings.id,
          cleos.offer!.seats.map((s) => s.bookingId),
        ),
      );
    await sweepExpiredHolds(app.deps);
    await settled();
    expect(await entryFor(cleo, show.showtimeId)).toMatchObject({
      status: 'passed',
      offer: { status: 'passed' },
    });

    // Staff see the list with emails for the door and every offer made; customers may not.
    const staff = await signedInStaff(app);
    const list = await app.inject({
      method: 'GET',
      url: `/api/admin/showtimes/${show.showtimeId}/waitlist`,
      headers: staff.headers,
    });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json() as StaffWaitlist;
    expect(body.entries.map((e) => [e.user.email, e.status])).toEqual([
      [ana.email, 'left'],
      [ben.email, 'taken'],
      [cleo.email, 'passed'],
    ]);
    expect(body.offers.map((o) => [o.user.email, o.status])).toEqual([
      [cleo.email, 'passed'],
      [ana.email, 'declined'],
      [ben.email, 'taken'],
    ]);
    const forbidden = await app.inject({
      method: 'GET',
      url: `/api/admin/showtimes/${show.showtimeId}/waitlist`,
      headers: ben.headers,
    });
    expect(forbidden.statusCode).toBe(403);

    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/cinema_waitlist_total\{step="offered"\} [3-9]/);
    expect(metrics).toMatch(/cinema_waitlist_total\{step="taken"\} [1-9]/);
    expect(metrics).toMatch(/cinema_waitlist_total\{step="passed"\} [2-9]/);
  });

  it('offers a seat a staff refund frees, and Manage Showtimes counts who waits', async () => {
    const show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 3 });
    const buyer = await signedInUser(app, { verified: true });
    const [s1, s2, s3] = show.allSeatIds;
    const { orderRef, bookingIds } = await buySeats(app, buyer, show.showtimeId, [s1!]);
    await soldOut(show, [s1!]);
    const gail = await signedInUser(app);
    await join(gail, show.showtimeId, { count: 1 });
    const counts = (
      await app.inject({ method: 'GET', url: '/api/admin/waitlist', headers: admin.headers })
    ).json() as WaitlistCounts;
    expect(counts.counts.find((c) => c.showtimeId === show.showtimeId)).toEqual({
      showtimeId: show.showtimeId,
      waiting: 1,
      openOffers: 0,
    });
    const refund = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderRef}/refund`,
      headers: admin.headers,
      payload: { bookingIds },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    await settled();
    const entry = (await entryFor(gail, show.showtimeId))!;
    expect(entry.status).toBe('offered');
    expect(entry.offer!.seats.map((s) => s.id)).toEqual([s1]);
    expect([s2, s3]).not.toContain(entry.offer!.seats[0]!.id);
  });

  it('keeps wheelchair requests to wheelchair spaces and ends the list when the showtime starts', async () => {
    const show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 4 });
    const [w1, c2, s3] = show.allSeatIds;
    await app.database.db.update(seats).set({ type: 'WHEELCHAIR' }).where(eq(seats.id, w1!));
    await app.database.db.update(seats).set({ type: 'COMPANION' }).where(eq(seats.id, c2!));
    await soldOut(show);
    const hal = await signedInUser(app);
    const ida = await signedInUser(app);
    await join(hal, show.showtimeId, { count: 2, type: 'WHEELCHAIR' });
    await join(ida, show.showtimeId, { count: 1 });
    // A plain seat frees: not for Hal; Ida, second in line, gets it.
    await free(show, [s3!]);
    expect((await entryFor(hal, show.showtimeId))?.status).toBe('waiting');
    expect((await entryFor(ida, show.showtimeId))?.offer?.seats.map((s) => s.id)).toEqual([s3]);
    // The space and its companion free: Hal's.
    await free(show, [w1!, c2!]);
    expect((await entryFor(hal, show.showtimeId))?.offer?.seats.map((s) => s.id).sort()).toEqual(
      [w1!, c2!].sort(),
    );

    // A showtime that starts ends its list.
    const later = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2 });
    await soldOut(later);
    const jo = await signedInUser(app);
    await join(jo, later.showtimeId, { count: 1 });
    await app.database.db
      .update(showtimes)
      .set({ startsAt: sql`now() - interval '1 minute'` })
      .where(eq(showtimes.id, later.showtimeId));
    await free(later, [later.allSeatIds[0]!]);
    expect(await entryFor(jo, later.showtimeId)).toMatchObject({
      status: 'ended',
      position: null,
      offer: null,
    });
    const late = await join(jo, later.showtimeId, { count: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'showtime_started' });
  });

  it('offers at once on joining when seats that fit are free', async () => {
    const show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 4 });
    const kim = await signedInUser(app);
    await holdSeats(app, filler, show.showtimeId, show.allSeatIds.slice(0, 2));
    expect((await join(kim, show.showtimeId, { count: 2 })).statusCode).toBe(201);
    await settled();
    expect((await entryFor(kim, show.showtimeId))?.offer?.seats.map((s) => s.id).sort()).toEqual(
      show.allSeatIds.slice(2).sort(),
    );
  });
});
