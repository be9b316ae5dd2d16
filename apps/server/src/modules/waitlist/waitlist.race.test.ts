import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, inArray, sql } from 'drizzle-orm';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { queryRows } from '../../db/database.ts';
import { bookings, waitlistEntries, waitlistOffers } from '../../db/schema/index.ts';
import { createShowtimeFixture, sellSeatsDirectly, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  postgresUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { buySeats, holdSeats } from '../../test/purchase.ts';
import { sweepExpiredHolds } from '../seating/sweeper.ts';
import { offerFreedSeats } from './waitlist.service.ts';

if (!postgresUrl)
  console.warn('waitlist.race.test.ts skipped: races need a real PostgreSQL (set TEST_DATABASE_URL).');

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };

describe.skipIf(!postgresUrl)('waiting list races on real PostgreSQL, two server processes', () => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let admin: SignedIn;
  let filler: SignedIn;

  beforeAll(async () => {
    t = await createTestApp('postgres', QUIET);
    a = t.app;
    // A second server process's worth of app on the same database: its own pool, events, runs and sweeper.
    b = await buildApp(testConfig({ DATABASE_URL: t.url!, DATA_DIR: 'memory://', ...QUIET }));
    await b.ready();
    admin = await signedInAdmin(a);
    filler = await signedInUser(a, { name: 'Fiona Filler' });
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const settleBoth = async () => {
    await Promise.all([a.waitlist.settle(), b.waitlist.settle()]);
  };

  const sellDirectly = (show: ShowtimeFixture, seatIds: string[]) =>
    sellSeatsDirectly(a.database.db, show.showtimeId, filler.id, seatIds);

  async function joinInOrder(show: ShowtimeFixture, n: number, count = 1) {
    const customers: SignedIn[] = [];
    for (let i = 0; i < n; i++) {
      const who = await signedInUser(a, { name: `Waiting ${i}` });
      const res = await (i % 2 ? b : a).inject({
        method: 'POST',
        url: `/api/showtimes/${show.showtimeId}/waitlist`,
        headers: who.headers,
        payload: { count },
      });
      expect(res.statusCode, res.body).toBe(201);
      customers.push(who);
    }
    return customers;
  }

  /** Each seat in one open offer at most, each held by a live booking of the offer's customer; offers per entry. */
  async function checkOffers(showtimeId: string) {
    const open = await a.database.db
      .select()
      .from(waitlistOffers)
      .where(sql`${waitlistOffers.showtimeId} = ${showtimeId} and ${waitlistOffers.status} = 'open'`);
    const openSeats = open.flatMap((o) => o.seatIds);
    expect(new Set(openSeats).size).toBe(openSeats.length);
    const held = open.length
      ? await a.database.db
          .select()
          .from(bookings)
          .where(
            inArray(
              bookings.id,
              open.flatMap((o) => o.bookingIds),
            ),
          )
      : [];
    for (const offer of open) {
      for (const id of offer.bookingIds) {
        const booking = held.find((h) => h.id === id)!;
        expect(booking).toMatchObject({ status: 'HELD', userId: offer.userId, showtimeId });
        expect(booking.expiresAt!.getTime()).toBeGreaterThan(Date.now());
      }
    }
    const perEntry = await queryRows<{ entry_id: string; offers: number; open: number }>(
      a.database.db,
      sql`select entry_id, count(*)::int as offers, count(*) filter (where status = 'open')::int as open
            from waitlist_offers where showtime_id = ${showtimeId} group by entry_id`,
    );
    for (const e of perEntry) expect(e.open).toBeLessThanOrEqual(1);
    return { open, perEntry };
  }

  const entryStatuses = async (showtimeId: string) =>
    (
      await a.database.db
        .select({ userId: waitlistEntries.userId, status: waitlistEntries.status })
        .from(waitlistEntries)
        .where(eq(waitlistEntries.showtimeId, showtimeId))
        .orderBy(waitlistEntries.joinedAt, waitlistEntries.id)
    ).map((e) => e.status);

  it('refunds in one process and expiries in the other free 20 seats at once: the first 20 in line get one each, then the lapsed offers pass on', async () => {
    const show = await createShowtimeFixture(a.database.db, { rows: 4, cols: 10 });
    const all = show.allSeatIds;
    // 10 single-seat orders (to refund), 10 holds (to expire), the other 20 seats sold.
    const buyer = await signedInUser(a, { verified: true });
    const orders = [];
    for (const seatId of all.slice(0, 10)) orders.push(await buySeats(a, buyer, show.showtimeId, [seatId]));
    const holders = await Promise.all(Array.from({ length: 10 }, () => signedInUser(a)));
    const held = [];
    for (let i = 0; i < 10; i++)
      held.push(...(await holdSeats(a, holders[i]!, show.showtimeId, [all[10 + i]!])));
    await sellDirectly(show, all.slice(20));
    const waiting = await joinInOrder(show, 30);
    expect(await entryStatuses(show.showtimeId)).toEqual(Array(30).fill('waiting'));

    // The holds run out (both processes sweep them), the orders are refunded (10 at once) and both processes run
    // their lists besides, all at the same moment.
    await a.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(inArray(bookings.id, held));
    const refunds = orders.map(({ orderRef }) =>
      a.inject({
        method: 'POST',
        url: `/api/admin/orders/${orderRef}/refund`,
        headers: admin.headers,
        payload: {},
      }),
    );
    const runs = Array.from({ length: 6 }, (_, i) => offerFreedSeats((i % 2 ? b : a).deps, show.showtimeId));
    const results = await Promise.all([
      ...refunds,
      sweepExpiredHolds(b.deps),
      sweepExpiredHolds(a.deps),
      ...runs,
    ]);
    for (const res of results.slice(0, 10)) expect((res as { statusCode: number }).statusCode).toBe(200);
    await settleBoth();

    const { open, perEntry } = await checkOffers(show.showtimeId);
    expect(open).toHaveLength(20);
    expect(perEntry.every((e) => e.offers === 1)).toBe(true);
    // In join order: the first 20 in line.
    expect(await entryStatuses(show.showtimeId)).toEqual([
      ...Array(20).fill('offered'),
      ...Array(10).fill('waiting'),
    ]);
    const offeredTo = new Set(open.map((o) => o.userId));
    expect(waiting.slice(0, 20).every((w) => offeredTo.has(w.id))).toBe(true);
    // Every freed seat went to an offer: none is left for sale.
    const map = (
      await a.inject({ method: 'GET', url: `/api/showtimes/${show.showtimeId}/seats` })
    ).json() as {
      seats: { status: string }[];
    };
    expect(map.seats.filter((s) => s.status === 'AVAILABLE')).toHaveLength(0);

    // The 20 offers run out; both processes sweep at once: the next 10 get one each, 10 seats go back on sale.
    await a.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(
        inArray(
          bookings.id,
          open.flatMap((o) => o.bookingIds),
        ),
      );
    await Promise.all([
      sweepExpiredHolds(a.deps),
      sweepExpiredHolds(b.deps),
      offerFreedSeats(a.deps, show.showtimeId),
      offerFreedSeats(b.deps, show.showtimeId),
    ]);
    await settleBoth();
    const after = await checkOffers(show.showtimeId);
    expect(after.open).toHaveLength(10);
    expect(await entryStatuses(show.showtimeId)).toEqual([
      ...Array(20).fill('passed'),
      ...Array(10).fill('offered'),
    ]);
    expect(after.perEntry.every((e) => e.offers === 1)).toBe(true);
  }, 180_000);

  it('one freed seat, five in line, twenty runs in two processes at once: exactly one offer', async () => {
    const show = await createShowtimeFixture(a.database.db, { rows: 1, cols: 6 });
    await sellDirectly(show, show.allSeatIds.slice(1));
    const hold = await holdSeats(a, filler, show.showtimeId, [show.allSeatIds[0]!]);
    const waiting = await joinInOrder(show, 5);
    await a.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(inArray(bookings.id, hold));
    const offered = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => offerFreedSeats((i % 2 ? b : a).deps, show.showtimeId)),
      sweepExpiredHolds(a.deps),
      sweepExpiredHolds(b.deps),
    ]);
    await settleBoth();
    // The runs asked for by the sweeps' events ran too: at most one of all of them offered the seat.
    expect(offered.slice(0, 20).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(1);
    const { open, perEntry } = await checkOffers(show.showtimeId);
    expect(perEntry).toHaveLength(1);
    expect(open).toHaveLength(1);
    expect(open[0]!.userId).toBe(waiting[0]!.id);
    expect(open[0]!.seatIds).toEqual([show.allSeatIds[0]]);
  });

  it('a customer racing the list for a freed seat: the seat is held once, by one of them', async () => {
    const show = await createShowtimeFixture(a.database.db, { rows: 1, cols: 4 });
    await sellDirectly(show, show.allSeatIds.slice(2));
    const holds = await holdSeats(a, filler, show.showtimeId, show.allSeatIds.slice(0, 2));
    await joinInOrder(show, 3);
    const racer = await signedInUser(a);
    await a.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(inArray(bookings.id, holds));
    const [hold] = await Promise.all([
      b.inject({
        method: 'POST',
        url: `/api/showtimes/${show.showtimeId}/hold`,
        headers: racer.headers,
        payload: { seatIds: [show.allSeatIds[0]] },
      }),
      offerFreedSeats(a.deps, show.showtimeId),
      offerFreedSeats(b.deps, show.showtimeId),
    ]);
    await settleBoth();
    const live = await queryRows<{ seat_id: string; n: number }>(
      a.database.db,
      sql`select seat_id, count(*)::int as n from bookings
           where showtime_id = ${show.showtimeId} and status in ('HELD', 'CONFIRMED') group by seat_id`,
    );
    expect(live.every((l) => l.n === 1)).toBe(true);
    const { open } = await checkOffers(show.showtimeId);
    // Two seats freed: the racer got one of them or none; the list got the rest, one per customer.
    const racerHeld = hold.statusCode === 201 ? 1 : 0;
    expect(open.reduce((sum, o) => sum + o.seatIds.length, 0)).toBe(2 - racerHeld);
  });
});
