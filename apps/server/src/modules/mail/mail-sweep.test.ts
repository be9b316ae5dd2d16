import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { StaffOrder } from '@cinema/contract';
import { bookings, mailOutbox, orders, waitlistOffers } from '../../db/schema/index.ts';
import { createShowtimeFixture, sellSeatsDirectly, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { buySeats } from '../../test/purchase.ts';
import { decodeQr, startTestSmtp, type TestSmtp } from '../../test/smtp.ts';
import { findMissingMail, sweepMissingMail, writeMissingMail } from './mail-sweep.ts';
import { sendOrderConfirmation } from './messages.ts';
import { inBackground, settleMail } from './outbox.service.ts';

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', PUBLIC_URL: 'https://cinema.test' };

describe.each(engines)('the mail sweep on %s', (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp(engine, { ...QUIET, SMTP_URL: smtp.url });
    app = t.app;
    admin = await signedInAdmin(app);
    show = await createShowtimeFixture(app.database.db, { rows: 4, cols: 8, priceCents: 1200 });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /**
   * The database refuses to write the outbox while `work` runs, as a full disk refuses any write: the payments and
   * refunds in it commit, the emails they write after commit fail.
   */
  async function withOutboxRefused<T>(work: () => Promise<T>): Promise<T> {
    const db = app.database.db;
    await db.execute(sql`create or replace function test_refuse_mail() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`);
    await db.execute(sql`create trigger test_refuse_mail before insert on mail_outbox
      for each row execute function test_refuse_mail()`);
    try {
      const result = await work();
      await settleMail();
      return result;
    } finally {
      await db.execute(sql`drop trigger test_refuse_mail on mail_outbox`);
      await db.execute(sql`drop function test_refuse_mail()`);
    }
  }
  /** Time passes: the orders were paid (their gift cards sold, their refunds made) two minutes ago, past the grace. */
  async function twoMinutesLater(orderIds: string[]) {
    const ids = sql.join(
      orderIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const db = app.database.db;
    await db.execute(sql`update orders set paid_at = paid_at - interval '2 minutes' where id in (${ids})`);
    await db.execute(
      sql`update gift_cards set created_at = created_at - interval '2 minutes' where order_id in (${ids})`,
    );
    await db.execute(
      sql`update order_refunds set created_at = created_at - interval '2 minutes' where order_id in (${ids})`,
    );
  }
  const outboxOf = (key: string) =>
    app.database.db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, key));
  const orderIdOf = async (ref: string) =>
    (await app.database.db.select({ id: orders.id }).from(orders).where(eq(orders.ref, ref)))[0]!.id;
  /** Every message the SMTP server got for this order reference (by subject), once the mail work settled. */
  const arrived = async (subject: string) => {
    await settleMail();
    // Anything sent late would have arrived by now (the test SMTP server is local).
    await new Promise((r) => setTimeout(r, 200));
    return smtp.received.filter((m) => m.subject === subject);
  };
  const counterSale = async (payload: object) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/box-office/sales',
      headers: admin.headers,
      payload: { showtimeId: show.showtimeId, paymentMethod: 'cash', ...payload },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as StaffOrder;
  };

  it('writes the confirmation a payment never wrote (the database refused it), once, after the grace period', async () => {
    const cathy = await signedInUser(app, { name: 'Cathy' });
    const seatIds = [show.seatIds[0]![0]!, show.seatIds[0]![1]!];
    const { sessionId, orderRef, bookingIds } = await withOutboxRefused(() =>
      buySeats(app, cathy, show.showtimeId, seatIds),
    );
    const subject = `Your tickets: order ${orderRef}`;
    // Paid, the tickets are Cathy's, and the confirmation is nowhere: not written, not sent.
    const tickets = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: cathy.headers });
    expect((tickets.json() as { tickets: unknown[] }).tickets).toHaveLength(2);
    expect(await outboxOf(`order_confirmation:${sessionId}`)).toEqual([]);
    expect(await arrived(subject)).toEqual([]);

    // Within the grace period the sweep leaves it to the after-commit path.
    await sweepMissingMail(app.deps);
    expect(await outboxOf(`order_confirmation:${sessionId}`)).toEqual([]);

    await twoMinutesLater([sessionId]);
    expect(await sweepMissingMail(app.deps)).toBeGreaterThanOrEqual(1);
    const [mail] = await smtp.waitFor(1).then(() => arrived(subject));
    expect(mail!.to).toMatchObject({ text: cathy.email });
    expect(mail!.text).toContain('Row A, Seat 1');
    expect(mail!.text).toContain('Row A, Seat 2');
    expect(mail!.text).toContain('https://cinema.test/tickets');
    const qrs = mail!.attachments.filter((a) => a.contentType === 'image/png');
    expect(qrs.map((q) => decodeQr(q.content)).sort()).toEqual([...bookingIds].sort());

    // Written once: the next passes find nothing, and Cathy got one email.
    expect(await sweepMissingMail(app.deps)).toBe(0);
    expect(await sweepMissingMail(app.deps)).toBe(0);
    expect(await arrived(subject)).toHaveLength(1);
    expect(await outboxOf(`order_confirmation:${sessionId}`)).toMatchObject([{ status: 'sent' }]);
  });

  it('sends no email for a counter sale to nobody, and a guest order’s email with a link that opens it', async () => {
    const [nobody, guest] = await withOutboxRefused(async () => [
      await counterSale({ seatIds: [show.seatIds[1]![0]!] }),
      await counterSale({
        seatIds: [show.seatIds[1]![1]!],
        customerEmail: 'gina.guest@example.com',
        customerName: 'Gina',
      }),
    ]);
    const ids = [await orderIdOf(nobody.ref), await orderIdOf(guest.ref)];
    await twoMinutesLater(ids);
    await sweepMissingMail(app.deps);
    await sweepMissingMail(app.deps);

    // The walk-in sale had nobody to tell: nothing is written for it, however often the sweep passes.
    expect(await outboxOf(`order_confirmation:${ids[0]}`)).toEqual([]);
    expect(await arrived(`Your tickets: order ${nobody.ref}`)).toEqual([]);

    // The guest's link was only ever in the memory of the sale: the email the sweep writes carries a new one, which
    // opens the order without signing in.
    const [mail, ...more] = await arrived(`Your tickets: order ${guest.ref}`);
    expect(more).toEqual([]);
    expect(mail!.to).toMatchObject({ text: 'gina.guest@example.com' });
    const token = /\/guest-order\?token=([\w-]+)/.exec(mail!.text ?? '')?.[1];
    expect(token).toBeTruthy();
    const opened = await app.inject({ method: 'GET', url: `/api/guest-order?token=${token}` });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ order: { ref: guest.ref }, claimed: false });
  });

  it('writes the gift cards and the refund notice a payment and a refund never wrote', async () => {
    const dee = await signedInUser(app, { name: 'Dee' });
    const { orderRef, sessionId } = await withOutboxRefused(async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: dee.headers,
        payload: { bookingIds: [], giftCards: [{ amountCents: 2500, recipientEmail: 'eve@example.com' }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const started = res.json() as { sessionId: string; orderRef: string };
      const pay = await app.inject({ method: 'POST', url: `/api/pay/local/${started.sessionId}/pay` });
      expect(pay.statusCode).toBe(303);
      return started;
    });
    const bought = await buySeats(app, dee, show.showtimeId, [show.seatIds[2]![0]!, show.seatIds[2]![1]!]);
    await settleMail();
    const [first] = await app.database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(eq(bookings.checkoutSessionId, bought.sessionId), eq(bookings.seatId, show.seatIds[2]![0]!)),
      );
    await withOutboxRefused(async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/admin/orders/${bought.orderRef}/refund`,
        headers: admin.headers,
        payload: { bookingIds: [first!.id], reason: 'Could not come' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    const cardSubject = (m: { to?: unknown }) => JSON.stringify(m.to).includes('eve@example.com');
    expect(smtp.received.filter(cardSubject)).toEqual([]);
    expect(await arrived(`Refund for order ${bought.orderRef}`)).toEqual([]);

    await twoMinutesLater([sessionId, bought.sessionId]);
    await sweepMissingMail(app.deps);
    await sweepMissingMail(app.deps);
    const notices = await arrived(`Refund for order ${bought.orderRef}`);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain('We refunded $12.00');
    expect(notices[0]!.text).toContain('Row C, Seat 1');
    const cards = smtp.received.filter(cardSubject);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.subject).toContain('$25.00');
    expect(cards[0]!.attachments.map((a) => a.contentType).sort()).toEqual(['application/pdf', 'image/png']);
    // The order that sold the card confirmed no ticket or item: it gets no confirmation, now or later.
    expect(await outboxOf(`order_confirmation:${sessionId}`)).toEqual([]);
    expect(orderRef).toBeTruthy();
  });

  it('writes a waiting list offer the offering never wrote, while it is open', async () => {
    const small = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2 });
    const filler = await signedInUser(app, { name: 'Fiona Filler' });
    await sellSeatsDirectly(app.database.db, small.showtimeId, filler.id, small.allSeatIds);
    const ben = await signedInUser(app, { name: 'Ben' });
    const join = await app.inject({
      method: 'POST',
      url: `/api/showtimes/${small.showtimeId}/waitlist`,
      headers: ben.headers,
      payload: { count: 1 },
    });
    expect(join.statusCode, join.body).toBe(201);
    await withOutboxRefused(async () => {
      await app.database.db
        .update(bookings)
        .set({ status: 'REFUNDED' })
        .where(and(eq(bookings.showtimeId, small.showtimeId), eq(bookings.seatId, small.allSeatIds[0]!)));
      app.events.publish('seatsChanged', {
        showtimeId: small.showtimeId,
        seats: [{ id: small.allSeatIds[0]!, status: 'AVAILABLE' as const }],
      });
      await app.waitlist.settle();
    });
    const [offer] = await app.database.db
      .select()
      .from(waitlistOffers)
      .where(eq(waitlistOffers.showtimeId, small.showtimeId));
    expect(offer).toMatchObject({ status: 'open' });
    const subject = 'Seats are held for you: Fixture Movie';
    const toBen = () => smtp.received.filter((m) => JSON.stringify(m.to).includes(ben.email));
    expect(toBen()).toEqual([]);

    await app.database.db
      .update(waitlistOffers)
      .set({ createdAt: sql`created_at - interval '2 minutes'` })
      .where(eq(waitlistOffers.id, offer!.id));
    await sweepMissingMail(app.deps);
    await sweepMissingMail(app.deps);
    await arrived(subject);
    expect(toBen()).toHaveLength(1);
    expect(toBen()[0]!.text).toContain(`/showtimes/${small.showtimeId}/seats`);
  });

  it('never holds up a close behind a queue of mail work, and writes what it skipped on the next pass', async () => {
    const kim = await signedInUser(app, { name: 'Kim' });
    const { sessionId, orderRef } = await withOutboxRefused(() =>
      buySeats(app, kim, show.showtimeId, [show.seatIds[0]![6]!]),
    );
    await twoMinutesLater([sessionId]);
    // A rush's confirmations still queued in this process: the queue is busy until `release`.
    let release = () => {};
    const busy = new Promise<void>((resolve) => (release = resolve));
    inBackground(app.deps, 'a long piece of mail work', () => busy);
    const closing = new AbortController();
    const pass = sweepMissingMail(app.deps, closing.signal);
    await new Promise((r) => setTimeout(r, 100));
    closing.abort();
    expect(await pass).toBe(0);
    release();
    await settleMail();
    expect(await outboxOf(`order_confirmation:${sessionId}`)).toEqual([]);
    expect(await sweepMissingMail(app.deps)).toBe(1);
    expect(await arrived(`Your tickets: order ${orderRef}`)).toHaveLength(1);
  });

  it.runIf(engine === 'postgres')(
    'yields one email per order when the sweep races the after-commit path of another process',
    async () => {
      const customers = await Promise.all([0, 1, 2, 3].map((i) => signedInUser(app, { name: `Racer ${i}` })));
      // The guest links' tokens as the sales handed them to their after-commit path.
      const guestTokens = new Map<string, string>();
      app.events.subscribe('orderPaid', ({ sessionId, guestToken }) => {
        if (guestToken) guestTokens.set(sessionId, guestToken);
      });
      const paid = await withOutboxRefused(async () => {
        const online = await Promise.all(
          customers.map((c, i) => buySeats(app, c, show.showtimeId, [show.seatIds[3]![i]!])),
        );
        const guests = [];
        for (const i of [4, 5, 6]) {
          const sale = await counterSale({
            seatIds: [show.seatIds[3]![i]!],
            customerEmail: `gus-${i}.guest@example.com`,
          });
          guests.push({ id: await orderIdOf(sale.ref), ref: sale.ref, guest: true });
        }
        return [...online.map((o) => ({ id: o.sessionId, ref: o.orderRef, guest: false })), ...guests];
      });
      await twoMinutesLater(paid.map((o) => o.id));
      const missing = await findMissingMail(app.deps);
      expect(
        missing.filter((m) => m.kind === 'order_confirmation' && paid.some((o) => o.id === m.orderId)),
      ).toHaveLength(paid.length);

      // For each order at once: the sweep's writer in this process, and another process's after-commit path (a
      // guest's with the token of its sale), both past the check that nothing is written yet.
      const writers = await Promise.all(
        paid.flatMap((o) => [
          writeMissingMail(app.deps, { kind: 'order_confirmation', orderId: o.id, guest: o.guest }),
          sendOrderConfirmation(app.deps, o.id, o.guest ? { guestToken: guestTokens.get(o.id)! } : {}).then(
            (id) => (id ? 1 : 0),
          ),
        ]),
      );
      // One writer of each pair wrote it; the other found it written (its insert changed nothing).
      expect(writers.reduce((a, b) => a + b, 0)).toBe(paid.length);
      for (const o of paid) {
        expect(await arrived(`Your tickets: order ${o.ref}`), o.ref).toHaveLength(1);
      }
      const rows = await app.database.db
        .select({ key: mailOutbox.dedupeKey })
        .from(mailOutbox)
        .where(
          inArray(
            mailOutbox.dedupeKey,
            paid.map((o) => `order_confirmation:${o.id}`),
          ),
        );
      expect(rows).toHaveLength(paid.length);
      // Whichever writer won, each guest's email opens the guest's order.
      for (const o of paid.filter((p) => p.guest)) {
        const [mail] = await arrived(`Your tickets: order ${o.ref}`);
        const token = /\/guest-order\?token=([\w-]+)/.exec(mail!.text ?? '')?.[1];
        const opened = await app.inject({ method: 'GET', url: `/api/guest-order?token=${token}` });
        expect(opened.statusCode, opened.body).toBe(200);
        expect(opened.json()).toMatchObject({ order: { ref: o.ref } });
      }
      // And the sweep, after them, finds nothing left to write.
      expect(await sweepMissingMail(app.deps)).toBe(0);
    },
  );
});
