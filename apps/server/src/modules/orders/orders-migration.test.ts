import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.ts';
import { serverRoot } from '../../paths.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { buySeats, checkOut, holdSeats, payForHolds } from '../../test/purchase.ts';

// Migration 0028 moved every sale into orders (decision 039). This test sells every kind of order there was through
// the API (paid online in test mode, refunded in part, exchanged to a cheaper and to a dearer seat, sold at the
// counter in cash and on the card terminal, refunded whole, replaced, cancelled, free by a promo code), reads every
// figure a person sees (the sales report and its CSV, My Orders, the booked lists, the lookup, the staff's orders),
// puts the tables back as they were before 0028 (checkout_sessions, checkout_session_bookings, payment_refunds; no
// payments), runs 0028's SQL on them, drops the report's kept figures so they are computed from the migrated tables,
// and reads every figure again: each must be unchanged.

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };

/** The tables as migration 0027 left them: the reverse of 0028, for this test only. */
const BEFORE_0028 = `
DROP TRIGGER sales_report_order_update ON orders;--> statement-breakpoint
DROP TRIGGER sales_report_line_change ON order_lines;--> statement-breakpoint
DROP TRIGGER sales_report_refund_change ON order_refunds;--> statement-breakpoint
DROP INDEX order_refunds_whole_line_unique;--> statement-breakpoint
ALTER TABLE order_refunds DROP CONSTRAINT order_refunds_payment_id_order_payments_id_fk;--> statement-breakpoint
ALTER TABLE order_refunds DROP COLUMN payment_id;--> statement-breakpoint
DROP TABLE order_payments;--> statement-breakpoint
ALTER TABLE order_refunds RENAME COLUMN line_id TO session_booking_id;--> statement-breakpoint
ALTER TABLE order_refunds RENAME COLUMN order_id TO session_id;--> statement-breakpoint
CREATE UNIQUE INDEX payment_refunds_whole_seat_unique ON order_refunds (session_booking_id) WHERE kind <> 'exchange';--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_pkey TO payment_refunds_pkey;--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_status_check TO payment_refunds_status_check;--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_kind_check TO payment_refunds_kind_check;--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_amount_check TO payment_refunds_amount_check;--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_order_id_orders_id_fk TO payment_refunds_session_id_checkout_sessions_id_fk;--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_line_id_order_lines_id_fk TO payment_refunds_session_booking_id_checkout_session_bookings_id_fk;--> statement-breakpoint
ALTER TABLE order_refunds RENAME CONSTRAINT order_refunds_created_by_users_id_fk TO payment_refunds_created_by_users_id_fk;--> statement-breakpoint
ALTER INDEX order_refunds_order_idx RENAME TO payment_refunds_session_idx;--> statement-breakpoint
ALTER INDEX order_refunds_line_idx RENAME TO payment_refunds_line_idx;--> statement-breakpoint
ALTER INDEX order_refunds_pending_idx RENAME TO payment_refunds_pending_idx;--> statement-breakpoint
ALTER TABLE order_refunds RENAME TO payment_refunds;--> statement-breakpoint

ALTER TABLE order_lines DROP CONSTRAINT order_lines_kind_check;--> statement-breakpoint
ALTER TABLE order_lines DROP CONSTRAINT order_lines_ticket_check;--> statement-breakpoint
ALTER TABLE order_lines DROP CONSTRAINT order_lines_booking_check;--> statement-breakpoint
ALTER TABLE order_lines DROP CONSTRAINT order_lines_amounts_check;--> statement-breakpoint
DROP INDEX order_lines_order_idx;--> statement-breakpoint
ALTER TABLE order_lines DROP COLUMN kind;--> statement-breakpoint
ALTER TABLE order_lines DROP COLUMN description;--> statement-breakpoint
ALTER TABLE order_lines DROP COLUMN quantity;--> statement-breakpoint
ALTER TABLE order_lines DROP COLUMN unit_price_cents;--> statement-breakpoint
ALTER TABLE order_lines DROP COLUMN tax_rate_bp;--> statement-breakpoint
ALTER TABLE order_lines DROP COLUMN tax_cents;--> statement-breakpoint
ALTER TABLE order_lines ALTER COLUMN seat_row SET NOT NULL;--> statement-breakpoint
ALTER TABLE order_lines ALTER COLUMN seat_number SET NOT NULL;--> statement-breakpoint
ALTER TABLE order_lines RENAME COLUMN order_id TO session_id;--> statement-breakpoint
ALTER TABLE order_lines RENAME CONSTRAINT order_lines_pkey TO checkout_session_bookings_pkey;--> statement-breakpoint
ALTER TABLE order_lines RENAME CONSTRAINT order_lines_result_check TO checkout_session_bookings_result_check;--> statement-breakpoint
ALTER TABLE order_lines RENAME CONSTRAINT order_lines_order_id_orders_id_fk TO checkout_session_bookings_session_id_checkout_sessions_id_fk;--> statement-breakpoint
ALTER TABLE order_lines RENAME CONSTRAINT order_lines_booking_id_bookings_id_fk TO checkout_session_bookings_booking_id_bookings_id_fk;--> statement-breakpoint
ALTER INDEX order_lines_order_booking_unique RENAME TO checkout_session_bookings_session_booking_unique;--> statement-breakpoint
ALTER INDEX order_lines_booking_idx RENAME TO checkout_session_bookings_booking_idx;--> statement-breakpoint
ALTER TABLE order_lines RENAME TO checkout_session_bookings;--> statement-breakpoint

ALTER TABLE orders DROP CONSTRAINT orders_status_check;--> statement-breakpoint
UPDATE orders SET status = CASE status WHEN 'PARTLY_REFUNDED' THEN 'partially_refunded' ELSE lower(status) END;--> statement-breakpoint
ALTER TABLE orders ALTER COLUMN status SET DEFAULT 'open';--> statement-breakpoint
ALTER TABLE orders ADD CONSTRAINT checkout_sessions_status_check CHECK (status in ('open', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded', 'superseded'));--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_pkey TO checkout_sessions_pkey;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_provider_check TO checkout_sessions_provider_check;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_payment_method_check TO checkout_sessions_payment_method_check;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_amount_check TO checkout_sessions_amount_check;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_provider_session_unique TO checkout_sessions_provider_session_unique;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_ref_unique TO checkout_sessions_ref_unique;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_guest_token_hash_unique TO checkout_sessions_guest_token_hash_unique;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_user_id_users_id_fk TO checkout_sessions_user_id_users_id_fk;--> statement-breakpoint
ALTER TABLE orders RENAME CONSTRAINT orders_sold_by_users_id_fk TO checkout_sessions_sold_by_users_id_fk;--> statement-breakpoint
ALTER INDEX orders_user_idx RENAME TO checkout_sessions_user_idx;--> statement-breakpoint
ALTER TABLE orders RENAME TO checkout_sessions;--> statement-breakpoint

CREATE OR REPLACE FUNCTION sales_report_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM checkout_sessions cs WHERE cs.id = NEW.session_id AND cs.paid_at IS NOT NULL) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM sales_report_changed(b.showtime_id) FROM bookings b WHERE b.id = OLD.booking_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM sales_report_changed(b.showtime_id) FROM bookings b WHERE b.id = NEW.booking_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_line_change AFTER INSERT OR UPDATE OR DELETE ON checkout_session_bookings FOR EACH ROW
  EXECUTE FUNCTION sales_report_line_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_report_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM checkout_session_bookings l JOIN bookings b ON b.id = l.booking_id WHERE l.session_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_order_update AFTER UPDATE ON checkout_sessions FOR EACH ROW
  WHEN ((OLD.paid_at IS NOT NULL OR NEW.paid_at IS NOT NULL) AND (OLD.status IS DISTINCT FROM NEW.status
    OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.provider IS DISTINCT FROM NEW.provider))
  EXECUTE FUNCTION sales_report_order_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_report_refund_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM checkout_session_bookings l JOIN bookings b ON b.id = l.booking_id
  WHERE l.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.session_booking_id ELSE NEW.session_booking_id END;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_refund_change AFTER INSERT OR UPDATE OR DELETE ON payment_refunds FOR EACH ROW
  EXECUTE FUNCTION sales_report_refund_changed();--> statement-breakpoint
`;

/** The statements of a SQL text, between drizzle's breakpoints. */
const statements = (text: string) => text.split('--> statement-breakpoint');

describe.each(engines)('migration 0028 (orders) on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let cheap: ShowtimeFixture;
  const customers: SignedIn[] = [];
  /** Online orders (their session ids) and who bought each. */
  const online: { id: string; who: SignedIn }[] = [];
  const refs: string[] = [];

  const get = async (url: string, who: SignedIn = admin) => {
    const res = await app.inject({ method: 'GET', url, headers: who.headers });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
  };
  const post = async (url: string, payload: object, who: SignedIn = admin) => {
    const res = await app.inject({ method: 'POST', url, headers: who.headers, payload });
    expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const run = async (text: string) => {
    for (const statement of statements(text)) {
      if (statement.trim()) await app.database.db.execute(sql.raw(statement));
    }
  };

  /** Every figure people see of these sales. */
  const figures = async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = `/api/admin/reports/sales?from=${day(-2)}&to=${day(4)}`;
    return {
      report: await get(`${report}&groupBy=showtime`),
      byDay: await get(`${report}&groupBy=day`),
      csv: await get(`${report}&groupBy=movie&format=csv`),
      myOrders: await Promise.all(customers.map((c) => get('/api/me/orders', c))),
      booked: await Promise.all([show, cheap].map((s) => get(`/api/admin/showtimes/${s.showtimeId}/booked`))),
      lookups: await Promise.all(online.map(({ id, who }) => get(`/api/pay/lookup?session_id=${id}`, who))),
      staff: await Promise.all(refs.map((ref) => get(`/api/admin/orders/${ref}`))),
    };
  };

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    admin = await signedInAdmin(app);
    for (const name of ['Alice', 'Bob', 'Carol', 'Dave', 'Erin'])
      customers.push(await signedInUser(app, { name }));
    const startsAt = new Date(Date.now() + 26 * 3_600_000);
    show = await createShowtimeFixture(app.database.db, { priceCents: 1200, rows: 4, cols: 6, startsAt });
    cheap = await createShowtimeFixture(app.database.db, { priceCents: 800, rows: 2, cols: 4, startsAt });
    const [alice, bob, carol, dave, erin] = customers as [SignedIn, SignedIn, SignedIn, SignedIn, SignedIn];
    const seat = (s: ShowtimeFixture, row: number, n: number) => s.seatIds[row - 1]![n - 1]!;
    const bought = async (who: SignedIn, s: ShowtimeFixture, seats: string[]) => {
      const order = await buySeats(app, who, s.showtimeId, seats);
      online.push({ id: order.sessionId, who });
      refs.push(order.orderRef);
      return order;
    };

    // Paid online (test mode), then one of its two tickets refunded by staff: refunded in part.
    const a = await bought(alice, show, [seat(show, 1, 1), seat(show, 1, 2)]);
    await post(`/api/admin/orders/${a.orderRef}/refund`, {
      bookingIds: [a.bookingIds[0]],
      reason: 'Cannot come',
    });
    // Exchanged to a cheaper showtime (the difference given back), and one to a dearer seat (the difference due).
    const b = await bought(bob, show, [seat(show, 2, 1)]);
    await post(`/api/admin/orders/${b.orderRef}/exchange`, {
      moves: [{ bookingId: b.bookingIds[0], showtimeId: cheap.showtimeId, seatId: seat(cheap, 1, 1) }],
    });
    const c = await bought(carol, cheap, [seat(cheap, 2, 2)]);
    await post(`/api/admin/orders/${c.orderRef}/exchange`, {
      moves: [{ bookingId: c.bookingIds[0], showtimeId: show.showtimeId, seatId: seat(show, 3, 3) }],
    });
    // Sold at the counter, in cash and on the card terminal; the card sale refunded whole.
    const cash = await post('/api/admin/box-office/sales', {
      showtimeId: show.showtimeId,
      seatIds: [seat(show, 4, 1), seat(show, 4, 2)],
      paymentMethod: 'cash',
    });
    refs.push(cash.ref);
    const card = await post('/api/admin/box-office/sales', {
      showtimeId: cheap.showtimeId,
      seatIds: [seat(cheap, 2, 4)],
      paymentMethod: 'card',
      customerName: 'Walk-in Wendy',
    });
    refs.push(card.ref);
    await post(`/api/admin/orders/${card.ref}/refund`, {});
    // A checkout replaced by a newer one of the same holds, which the customer cancels: neither ever paid.
    const held = await holdSeats(app, dave, show.showtimeId, [seat(show, 2, 5)]);
    await checkOut(app, dave, held);
    const second = await checkOut(app, dave, held);
    online.push({ id: second.sessionId, who: dave });
    expect(
      (await app.inject({ method: 'POST', url: `/api/pay/local/${second.sessionId}/cancel` })).statusCode,
    ).toBe(303);
    // Free, by a promo code that takes all of it off.
    await post('/api/admin/promo-codes', { code: 'ONTHEHOUSE', percentOff: 100 });
    const free = await checkOut(
      app,
      erin,
      await holdSeats(app, erin, cheap.showtimeId, [seat(cheap, 1, 3)]),
      {
        promoCode: 'ONTHEHOUSE',
      },
    );
    online.push({ id: free.sessionId, who: erin });
    refs.push(free.orderRef);
    // A checkout still open when the migration ran.
    const open = await checkOut(app, erin, await holdSeats(app, erin, show.showtimeId, [seat(show, 1, 6)]));
    online.push({ id: open.sessionId, who: erin });
    // One more paid order, untouched since.
    await payForHolds(app, bob, await holdSeats(app, bob, show.showtimeId, [seat(show, 3, 5)])).then((o) => {
      online.push({ id: o.sessionId, who: bob });
      refs.push(o.orderRef);
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('finds every figure of every kind of order unchanged after moving the old tables into orders', async () => {
    const before = await figures();
    // Each kind is there to be moved (a figure of nothing proves nothing).
    const statuses = await queryRows<{ status: string; provider: string; n: number }>(
      app.database.db,
      sql`select status, provider, count(*)::int n from orders group by 1, 2 order by 1, 2`,
    );
    expect(statuses).toEqual(
      expect.arrayContaining([
        { status: 'PARTLY_REFUNDED', provider: 'local', n: 1 },
        { status: 'REFUNDED', provider: 'box_office', n: 1 },
        { status: 'PAID', provider: 'box_office', n: 1 },
        { status: 'SUPERSEDED', provider: 'local', n: 1 },
        { status: 'CANCELLED', provider: 'local', n: 1 },
        { status: 'PAID', provider: 'none', n: 1 },
        { status: 'OPEN', provider: 'local', n: 1 },
      ]),
    );
    const kinds = await queryRows<{ kind: string }>(
      app.database.db,
      sql`select distinct kind from order_refunds`,
    );
    expect(kinds.map((k) => k.kind).sort()).toEqual(['exchange', 'staff']);

    // Tables made after 0028 (gift cards, concessions) point at the order tables: their foreign keys are set aside
    // while the order tables are put back and migrated again (they hold no rows here), then restored.
    const later = await queryRows<{ tbl: string; name: string; def: string }>(
      app.database.db,
      sql`select c.conrelid::regclass::text as tbl, c.conname as name, pg_get_constraintdef(c.oid) as def
          from pg_constraint c
          where c.contype = 'f'
            and c.confrelid::regclass::text in ('orders', 'order_lines', 'order_payments', 'order_refunds')
            and c.conrelid::regclass::text not in ('orders', 'order_lines', 'order_payments', 'order_refunds')`,
    );
    for (const fk of later)
      await app.database.db.execute(sql.raw(`alter table ${fk.tbl} drop constraint ${fk.name}`));
    await run(BEFORE_0028);
    // The old tables are back as 0027 left them, with their lower-case statuses and no payments.
    const old = await queryRows<{ status: string }>(
      app.database.db,
      sql.raw(`select distinct status from checkout_sessions order by 1`),
    );
    expect(old.map((o) => o.status)).toEqual([
      'cancelled',
      'open',
      'paid',
      'partially_refunded',
      'refunded',
      'superseded',
    ]);

    await run(readFileSync(path.join(serverRoot, 'drizzle/0028_orders.sql'), 'utf8'));
    for (const fk of later) {
      await app.database.db.execute(sql.raw(`alter table ${fk.tbl} add constraint ${fk.name} ${fk.def}`));
    }
    await app.database.db.execute(sql`delete from sales_report_showtimes`);
    const after = await figures();
    expect(after).toEqual(before);

    // Every paid order has the payment that paid it, and every refund points at it.
    const payments = await queryRows<{ method: string; amount: number; refunded: number }>(
      app.database.db,
      sql`select p.method, p.amount_cents amount, p.refunded_cents refunded from order_payments p
          join orders o on o.id = p.order_id order by o.created_at`,
    );
    expect(payments).toEqual([
      { method: 'CARD', amount: 2400, refunded: 1200 },
      { method: 'CARD', amount: 1200, refunded: 400 },
      { method: 'CARD', amount: 800, refunded: 0 },
      { method: 'CASH', amount: 2400, refunded: 0 },
      { method: 'CARD_TERMINAL', amount: 800, refunded: 800 },
      { method: 'FREE', amount: 0, refunded: 0 },
      { method: 'CARD', amount: 1200, refunded: 0 },
    ]);
  });
});
