import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { bookings, orders, orderRefunds } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, postgresUrl, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

if (!postgresUrl)
  console.warn('box-office.race.test.ts skipped: races need a real PostgreSQL (set TEST_DATABASE_URL).');

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };
const PRICE = 1200;

describe.skipIf(!postgresUrl)('box office races on real PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  let admin: SignedIn;
  let show: ShowtimeFixture;

  /** Over a real port, so requests really run at once, each on its own pool connection. */
  const post = async (path: string, body: unknown, who: SignedIn = admin) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  async function buy(who: SignedIn, seatIds: string[]) {
    const held = await post(`/api/showtimes/${show.showtimeId}/hold`, { seatIds }, who);
    expect(held.status).toBe(201);
    const checkout = await post('/api/pay/checkout', { bookingIds: held.body.bookingIds }, who);
    expect(checkout.status).toBe(200);
    const paid = await fetch(`${base}/api/pay/local/${String(checkout.body.sessionId)}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    return { ref: String(checkout.body.orderRef), bookingIds: held.body.bookingIds as string[] };
  }

  beforeAll(async () => {
    t = await createTestApp('postgres', QUIET);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedInUser(t.app, { role: 'ADMIN' });
    show = await createShowtimeFixture(t.app.database.db, { priceCents: PRICE, rows: 6, cols: 10 });
  });
  afterAll(() => t.close());

  it('20 refunds of one order at once (whole and by ticket): each ticket is refunded once, for what was paid', async () => {
    const customer = await signedInUser(t.app, { name: 'Refund racer' });
    const { ref, bookingIds } = await buy(customer, show.seatIds[0]!.slice(0, 3));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(`/api/admin/orders/${ref}/refund`, i % 2 === 0 ? {} : { bookingIds: [bookingIds[i % 3]] }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const refunded = results.reduce((sum, r) => sum + Number(r.body.refundedCents), 0);
    expect(refunded).toBe(3 * PRICE);
    const [session] = await t.app.database.db.select().from(orders).where(eq(orders.ref, ref));
    const rows = await t.app.database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, session!.id));
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.lineId)).size).toBe(3);
    expect(session!.status).toBe('REFUNDED');
    const after = await t.app.database.db.select().from(bookings).where(inArray(bookings.id, bookingIds));
    expect(after.map((b) => b.status)).toEqual(['REFUNDED', 'REFUNDED', 'REFUNDED']);
  });

  it('30 counter sales of the same seats at once, with a customer holding online in the middle: one sale, never two', async () => {
    const seatIds = [show.seatIds[1]![0]!, show.seatIds[1]![1]!];
    const online = await signedInUser(t.app, { name: 'Online racer' });
    const results = await Promise.all([
      ...Array.from({ length: 30 }, () =>
        post('/api/admin/box-office/sales', { showtimeId: show.showtimeId, seatIds, paymentMethod: 'cash' }),
      ),
      post(`/api/showtimes/${show.showtimeId}/hold`, { seatIds }, online),
    ]);
    const wins = results.filter((r) => r.status === 200 || r.status === 201);
    expect(wins).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200 && x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('seat_unavailable');
    }
    const live = await t.app.database.db
      .select()
      .from(bookings)
      .where(
        and(
          eq(bookings.showtimeId, show.showtimeId),
          inArray(bookings.seatId, seatIds),
          inArray(bookings.status, ['HELD', 'CONFIRMED']),
        ),
      );
    expect(live).toHaveLength(2);
    expect(new Set(live.map((b) => b.userId)).size).toBe(1);
  });

  it('one counter sale sent 15 times at once (a double click, retries): one order, the same answer to each', async () => {
    const requestId = '7a0b1c2d-3e4f-4a5b-8c6d-000000000042';
    const seatIds = [show.seatIds[2]![4]!];
    const results = await Promise.all(
      Array.from({ length: 15 }, () =>
        post('/api/admin/box-office/sales', {
          showtimeId: show.showtimeId,
          seatIds,
          paymentMethod: 'card',
          requestId,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(15).fill(200));
    expect(new Set(results.map((r) => r.body.ref)).size).toBe(1);
    const sessions = await t.app.database.db.select().from(orders).where(eq(orders.id, requestId));
    expect(sessions).toHaveLength(1);
    const sold = await t.app.database.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.showtimeId, show.showtimeId), eq(bookings.seatId, seatIds[0]!)));
    expect(sold).toHaveLength(1);
  });

  it('two orders moved onto the same seat at once, against a counter sale of it: one gets it', async () => {
    const a = await buy(await signedInUser(t.app, { name: 'Mover A' }), [show.seatIds[3]![0]!]);
    const b = await buy(await signedInUser(t.app, { name: 'Mover B' }), [show.seatIds[3]![1]!]);
    const target = show.seatIds[4]![5]!;
    const results = await Promise.all([
      post(`/api/admin/orders/${a.ref}/exchange`, {
        moves: [{ bookingId: a.bookingIds[0], seatId: target }],
      }),
      post(`/api/admin/orders/${b.ref}/exchange`, {
        moves: [{ bookingId: b.bookingIds[0], seatId: target }],
      }),
      post('/api/admin/box-office/sales', {
        showtimeId: show.showtimeId,
        seatIds: [target],
        paymentMethod: 'cash',
      }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    const live = await t.app.database.db
      .select()
      .from(bookings)
      .where(
        and(
          eq(bookings.showtimeId, show.showtimeId),
          eq(bookings.seatId, target),
          eq(bookings.status, 'CONFIRMED'),
        ),
      );
    expect(live).toHaveLength(1);
    // The losers keep their own seats.
    const own = await t.app.database.db
      .select()
      .from(bookings)
      .where(inArray(bookings.id, [...a.bookingIds, ...b.bookingIds]));
    expect(own.every((x) => x.status === 'CONFIRMED')).toBe(true);
  });
});
