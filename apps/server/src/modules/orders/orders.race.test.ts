import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookings, orderLines, orderPayments, orderRefunds, orders } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, postgresUrl, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

if (!postgresUrl)
  console.warn('orders.race.test.ts skipped: races need a real PostgreSQL (set TEST_DATABASE_URL).');

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };
const PRICE = 1200;

// Orders under races (decision 039): markPaid and refundLines, through real requests at once against PostgreSQL.
describe.skipIf(!postgresUrl)('order races on real PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  let admin: SignedIn;
  let staff: SignedIn;
  let admin2: SignedIn;
  let show: ShowtimeFixture;
  let other: ShowtimeFixture;

  /** Over a real port, so requests really run at once, each on its own pool connection. */
  const post = async (path: string, body: unknown, who: SignedIn = admin) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const pay = (sessionId: string) =>
    fetch(`${base}/api/pay/local/${sessionId}/pay`, { method: 'POST', redirect: 'manual' }).then(
      (r) => r.status,
    );

  async function checkout(who: SignedIn, showtimeId: string, seatIds: string[]) {
    const held = await post(`/api/showtimes/${showtimeId}/hold`, { seatIds }, who);
    expect(held.status).toBe(201);
    const started = await post('/api/pay/checkout', { bookingIds: held.body.bookingIds }, who);
    expect(started.status).toBe(200);
    return {
      sessionId: String(started.body.sessionId),
      ref: String(started.body.orderRef),
      bookingIds: held.body.bookingIds as string[],
    };
  }
  const orderRow = async (id: string) =>
    (await t.app.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const paymentsOf = (id: string) =>
    t.app.database.db.select().from(orderPayments).where(eq(orderPayments.orderId, id));
  const refundsOf = (id: string) =>
    t.app.database.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, id));
  const liveOn = async (showtimeId: string, seatId: string) =>
    t.app.database.db
      .select()
      .from(bookings)
      .where(
        and(
          eq(bookings.showtimeId, showtimeId),
          eq(bookings.seatId, seatId),
          inArray(bookings.status, ['HELD', 'CONFIRMED']),
        ),
      );

  beforeAll(async () => {
    t = await createTestApp('postgres', QUIET);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedInUser(t.app, { role: 'ADMIN' });
    staff = await signedInUser(t.app, { role: 'STAFF', name: 'Counter two' });
    admin2 = await signedInUser(t.app, { role: 'ADMIN', name: 'Second manager' });
    show = await createShowtimeFixture(t.app.database.db, { priceCents: PRICE, rows: 6, cols: 10 });
    other = await createShowtimeFixture(t.app.database.db, { priceCents: 800, rows: 2, cols: 6 });
  });
  afterAll(() => t.close());

  it('a refund racing the payment of the same order: paid once, each ticket refunded at most once, never more than paid', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = await signedInUser(t.app, { name: `Payer ${round}` });
      const { sessionId, ref, bookingIds } = await checkout(
        customer,
        show.showtimeId,
        show.seatIds[round]!.slice(0, 2),
      );
      // Three payment confirmations (the Pay button twice and the success page's lookup) against six refunds.
      const [payments, refunds] = await Promise.all([
        Promise.all([
          pay(sessionId),
          pay(sessionId),
          fetch(`${base}/api/pay/lookup?session_id=${sessionId}`, { headers: customer.headers }).then(
            (r) => r.status,
          ),
        ]),
        Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            post(`/api/admin/orders/${ref}/refund`, i % 2 ? { bookingIds: [bookingIds[i % 2]] } : {}),
          ),
        ),
      ]);
      expect(payments[0]).toBe(303);
      expect(payments[1]).toBe(303);
      expect(payments[2]).toBe(200);
      // A refund that came before the payment found no order to refund (staff see paid orders only).
      for (const r of refunds) expect([200, 404]).toContain(r.status);
      const paid = await paymentsOf(sessionId);
      expect(paid).toHaveLength(1);
      expect(paid[0]).toMatchObject({ method: 'CARD', status: 'PAID', amountCents: 2 * PRICE });
      const given = await refundsOf(sessionId);
      expect(new Set(given.map((g) => g.lineId)).size).toBe(given.length);
      expect(paid[0]!.refundedCents).toBe(given.reduce((sum, g) => sum + g.amountCents, 0));
      expect(paid[0]!.refundedCents).toBeLessThanOrEqual(2 * PRICE);
      const refunded = refunds.some((r) => r.status === 200 && Number(r.body.refundedCents) > 0);
      const row = await orderRow(sessionId);
      expect(row.paidAt).not.toBeNull();
      expect(row.status).toBe(
        given.length === 0 ? 'PAID' : given.length === 2 ? 'REFUNDED' : 'PARTLY_REFUNDED',
      );
      expect(refunded).toBe(given.length > 0);
      // A ticket whose line was refunded has its seat on sale again; the others are sold.
      const own = await t.app.database.db.select().from(orderLines).where(eq(orderLines.orderId, sessionId));
      for (const line of own) {
        const [b] = await t.app.database.db.select().from(bookings).where(eq(bookings.id, line.bookingId!));
        const back = given.some((g) => g.lineId === line.id);
        expect(line.result).toBe(back ? 'refunded' : 'confirmed');
        expect(b!.status).toBe(back ? 'REFUNDED' : 'CONFIRMED');
      }
      expect(own.map((l) => l.bookingId).sort()).toEqual([...bookingIds].sort());
    }
  });

  it('two counter sales and an online payment of one seat at once: one of them has it, the others are told', async () => {
    for (let round = 0; round < 5; round++) {
      const seatId = show.seatIds[5]![round]!;
      const customer = await signedInUser(t.app, { name: `Late payer ${round}` });
      const { sessionId } = await checkout(customer, show.showtimeId, [seatId]);
      // The customer's hold ran out while they were on the provider's page.
      await t.app.database.db
        .update(bookings)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(bookings.checkoutSessionId, sessionId));
      const sale = { showtimeId: show.showtimeId, seatIds: [seatId], paymentMethod: 'cash' };
      const [a, b, online] = await Promise.all([
        post('/api/admin/box-office/sales', sale, admin),
        post('/api/admin/box-office/sales', sale, staff),
        pay(sessionId),
      ]);
      expect(online).toBe(303);
      const live = await liveOn(show.showtimeId, seatId);
      expect(live).toHaveLength(1);
      expect(live[0]!.status).toBe('CONFIRMED');
      const sold = [a, b].filter((r) => r.status === 200);
      for (const r of [a, b]) expect([200, 409]).toContain(r.status);
      const order = await orderRow(sessionId);
      if (live[0]!.checkoutSessionId === sessionId) {
        // The online payment kept its seat: both counter sales were refused.
        expect(sold).toHaveLength(0);
        expect(order.status).toBe('PAID');
      } else {
        // A counter sale had it: the online payment is refunded in full, at once.
        expect(sold).toHaveLength(1);
        expect(order.status).toBe('REFUNDED');
        const given = await refundsOf(sessionId);
        expect(given).toMatchObject([{ kind: 'lost_seat', amountCents: PRICE }]);
        expect((await paymentsOf(sessionId))[0]).toMatchObject({ amountCents: PRICE, refundedCents: PRICE });
      }
    }
  });

  it('an exchange racing a refund of the same ticket: one wins whole, and money never goes back twice', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = await signedInUser(t.app, { name: `Mover ${round}` });
      const { sessionId, ref, bookingIds } = await checkout(customer, show.showtimeId, [
        show.seatIds[5]![5 + round]!,
      ]);
      expect(await pay(sessionId)).toBe(303);
      const target = other.seatIds[round % 2]![Math.floor(round / 2)]!;
      const [moved, refunded] = await Promise.all([
        post(`/api/admin/orders/${ref}/exchange`, {
          moves: [{ bookingId: bookingIds[0], showtimeId: other.showtimeId, seatId: target }],
        }),
        post(`/api/admin/orders/${ref}/refund`, { bookingIds }, admin2),
      ]);
      expect(refunded.status).toBe(200);
      const [line] = await t.app.database.db
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, sessionId));
      const given = await refundsOf(sessionId);
      const [payment] = await paymentsOf(sessionId);
      expect(payment!.refundedCents).toBe(given.reduce((sum, g) => sum + g.amountCents, 0));
      // Everything the customer paid came back, once: by the refund alone, or by the exchange's difference and then
      // the refund of what the cheaper seat cost.
      expect(payment!.refundedCents).toBe(PRICE);
      expect(line!.result).toBe('refunded');
      const [booking] = await t.app.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.id, bookingIds[0]!));
      expect(booking!.status).toBe('REFUNDED');
      expect(await liveOn(other.showtimeId, target)).toHaveLength(0);
      if (moved.status === 200) {
        expect(given.map((g) => g.kind).sort()).toEqual(['exchange', 'staff']);
      } else {
        // The refund came first: the ticket was no longer there to move.
        expect(moved.status).toBe(409);
        expect(given.map((g) => g.kind)).toEqual(['staff']);
      }
    }
  });
});
