import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { OutboxResponse } from '@cinema/contract';
import { mailOutbox, movies, showtimes } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
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
import { deliverDueMail, settleMail } from './outbox.service.ts';
import { sendRefundNotice } from './messages.ts';

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', PUBLIC_URL: 'https://cinema.test' };

/** A local port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.each(engines)('email through a real SMTP server on %s', (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let app: FastifyInstance;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp(engine, {
      ...QUIET,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Cinema <tickets@cinema.test>',
    });
    app = t.app;
    show = await createShowtimeFixture(app.database.db, { rows: 3, cols: 6, priceCents: 1250 });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends the order confirmation with each ticket’s QR code inline and the showing as an .ics event', async () => {
    const cathy = await signedInUser(app, { name: 'Cathy' });
    const before = smtp.received.length;
    const { bookingIds, orderRef } = await buySeats(app, cathy, show.showtimeId, [
      show.seatIds[1]![2]!,
      show.seatIds[1]![3]!,
    ]);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.subject).toBe(`Your tickets: order ${orderRef}`);
    expect(mail!.from!.text).toBe('"Cinema" <tickets@cinema.test>');
    expect(mail!.to).toMatchObject({ text: cathy.email });
    expect(mail!.text).toContain('Fixture Movie');
    expect(mail!.text).toContain('Row B, Seat 3');
    expect(mail!.text).toContain('Row B, Seat 4');
    expect(mail!.text).toContain('Total paid: $25.00');
    expect(mail!.text).toContain('Your tickets (and a PDF to print): https://cinema.test/tickets');

    const images = mail!.attachments.filter((a) => a.contentType === 'image/png');
    expect(images).toHaveLength(2);
    // Inline: the HTML shows each image by its content id.
    for (const image of images) {
      expect(image.contentDisposition).toBe('inline');
      expect(image.cid).toBeTruthy();
      expect(mail!.html).toContain(`cid:${image.cid}`);
    }
    expect(images.map((i) => decodeQr(i.content)).sort()).toEqual([...bookingIds].sort());

    const ics = mail!.attachments.find((a) => a.contentType === 'text/calendar');
    expect(ics?.filename).toBe('showtime.ics');
    const calendar = ics!.content.toString('utf8');
    const [showing] = await app.database.db
      .select({ startsAt: showtimes.startsAt })
      .from(showtimes)
      .where(eq(showtimes.id, show.showtimeId));
    const utc = showing!.startsAt
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    expect(calendar).toContain('BEGIN:VEVENT');
    expect(calendar).toContain(`DTSTART:${utc}`);
    expect(calendar).toContain('SUMMARY:Fixture Movie');
    expect(calendar).toMatch(/DESCRIPTION:Row B\\, Seat 3\\, Row B\\, Seat 4/);

    await settleMail();
    const [row] = await app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'order_confirmation'));
    expect(row).toMatchObject({ status: 'sent', to: cathy.email, attempts: 1 });
    expect(row!.sentAt).toBeInstanceOf(Date);
    // Sent: the outbox keeps what the message was, not a second copy of every QR code.
    expect(row!.attachments).toEqual([
      { filename: 'ticket-1.png', contentType: 'image/png', cid: images[0]!.cid },
      { filename: 'ticket-2.png', contentType: 'image/png', cid: images[1]!.cid },
      { filename: 'showtime.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
    ]);
  });

  it('writes a title with a bare CR (kept from before one-line texts were checked) as one escaped SUMMARY line', async () => {
    const legacy = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2, priceCents: 900 });
    await app.database.db
      .update(movies)
      .set({ title: 'Night\rShift\r\nPart\nTwo\u0007' })
      .where(eq(movies.id, legacy.movieId));
    const dee = await signedInUser(app, { name: 'Dee' });
    const before = smtp.received.length;
    await buySeats(app, dee, legacy.showtimeId, [legacy.seatIds[0]![0]!]);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const calendar = mail!.attachments
      .find((a) => a.contentType === 'text/calendar')!
      .content.toString('utf8');
    // Every line of the file ends in CRLF: no CR or LF stands alone to start a line of its own.
    expect(calendar).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    const unfolded = calendar.replace(/\r\n /g, '');
    expect(unfolded.split('\r\n').filter((l) => l.startsWith('SUMMARY:'))).toEqual([
      'SUMMARY:Night\\nShift\\nPart\\nTwo',
    ]);
    expect(unfolded).not.toMatch(/^Shift/m);
  });

  it('keeps a payment working when the SMTP server is down and sends the email once it is back', async () => {
    const port = await deadPort();
    const down = await createTestApp(engine, {
      ...QUIET,
      SMTP_URL: `smtp://cinema:${encodeURIComponent('s3cret pass')}@127.0.0.1:${port}`,
    });
    try {
      const fixture = await createShowtimeFixture(down.app.database.db, { rows: 1, cols: 2 });
      const fay = await signedInUser(down.app, { name: 'Fay' });
      const { orderRef, bookingIds } = await buySeats(down.app, fay, fixture.showtimeId, [
        fixture.allSeatIds[0]!,
      ]);
      const tickets = await down.app.inject({ method: 'GET', url: '/api/me/tickets', headers: fay.headers });
      expect((tickets.json() as { tickets: unknown[] }).tickets).toHaveLength(1);
      await settleMail();
      const [pending] = await down.app.database.db.select().from(mailOutbox);
      expect(pending).toMatchObject({
        status: 'pending',
        attempts: 1,
        subject: `Your tickets: order ${orderRef}`,
      });
      expect(pending!.lastError).toBeTruthy();
      expect(pending!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

      // The SMTP server comes back on that port; once the pause is over the retry sends it.
      const back = await startTestSmtp(port);
      try {
        expect(await deliverDueMail(down.app.deps)).toBe(0);
        await down.app.database.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` });
        expect(await deliverDueMail(down.app.deps)).toBe(1);
        const [mail] = await back.waitFor(1);
        expect(mail!.subject).toBe(`Your tickets: order ${orderRef}`);
        // The ticket's QR code waited with the message: the retry carries it.
        const [qr] = mail!.attachments.filter((a) => a.contentType === 'image/png');
        expect(decodeQr(qr!.content)).toBe(bookingIds[0]);
        const [sent] = await down.app.database.db.select().from(mailOutbox);
        expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
        // Sent once: nothing is due any more.
        expect(await deliverDueMail(down.app.deps)).toBe(0);
      } finally {
        await back.close();
      }
    } finally {
      await down.close();
    }
  });
});

describe.each(engines)('the outbox without SMTP_URL on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let show: ShowtimeFixture;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    admin = await signedInAdmin(app);
    show = await createShowtimeFixture(app.database.db, { rows: 2, cols: 4, priceCents: 1000 });
  });
  afterAll(() => t.close());

  it('keeps every email for admins at /api/admin/outbox, newest first', async () => {
    const gus = await signedInUser(app, { name: 'Gus' });
    const first = await buySeats(app, gus, show.showtimeId, [show.seatIds[0]![0]!]);
    const second = await buySeats(app, gus, show.showtimeId, [show.seatIds[0]![1]!]);
    await settleMail();

    const res = await app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const { messages, nextPage } = res.json() as OutboxResponse;
    expect(nextPage).toBeNull();
    expect(messages.map((m) => m.subject)).toEqual([
      `Your tickets: order ${second.orderRef}`,
      `Your tickets: order ${first.orderRef}`,
    ]);
    expect(messages[0]).toMatchObject({ to: gus.email, status: 'stored', sentAt: null, attempts: 0 });
    expect(messages[0]!.text).toContain('Row A, Seat 2');
    expect(messages[0]!.html).toContain('<img src="cid:ticket-1"');
    expect(messages[0]!.attachments).toEqual([
      { filename: 'ticket-1.png', contentType: 'image/png' },
      { filename: 'showtime.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
    ]);
    // Never sent, so no bytes kept: the tickets stay in My Tickets and their PDF.
    const rows = await app.database.db.select({ attachments: mailOutbox.attachments }).from(mailOutbox);
    expect(rows.flatMap((r) => r.attachments).filter((a) => 'content' in a)).toEqual([]);

    // A replayed fulfilment (the success page's lookup) writes no second confirmation.
    await app.inject({
      method: 'GET',
      url: `/api/pay/lookup?session_id=${first.sessionId}`,
      headers: gus.headers,
    });
    await settleMail();
    const again = (
      await app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.headers })
    ).json();
    expect((again as OutboxResponse).messages).toHaveLength(2);

    expect(
      (await app.inject({ method: 'GET', url: '/api/admin/outbox', headers: gus.headers })).statusCode,
    ).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/admin/outbox' })).statusCode).toBe(401);
  });

  it('writes a refund notice for an order with a refund, once per refund', async () => {
    const hal = await signedInUser(app, { name: 'Hal' });
    const { orderRef, sessionId } = await buySeats(app, hal, show.showtimeId, [show.seatIds[1]![0]!]);
    expect(await sendRefundNotice(app.deps, orderRef)).toBeNull(); // nothing refunded yet
    // A refund as the box office records one (staff refund of the whole seat).
    await app.database.db.execute(sql`
      insert into order_refunds (order_id, line_id, payment_id, amount_cents, kind, status)
      select l.order_id, l.id, p.id, l.price_cents, 'staff', 'succeeded'
        from order_lines l join order_payments p on p.order_id = l.order_id where l.order_id = ${sessionId}`);
    await app.database.db.execute(
      sql`update order_lines set result = 'refunded' where order_id = ${sessionId}`,
    );
    const id = await sendRefundNotice(app.deps, orderRef.toLowerCase());
    expect(id).toBeTruthy();
    expect(await sendRefundNotice(app.deps, orderRef)).toBeNull(); // the same refund: no second notice
    const { messages } = (
      await app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.headers })
    ).json() as OutboxResponse;
    const notice = messages.find((m) => m.id === id)!;
    expect(notice).toMatchObject({
      kind: 'refund_notice',
      to: hal.email,
      subject: `Refund for order ${orderRef}`,
    });
    expect(notice.text).toContain(`We refunded $10.00 of your order ${orderRef}.`);
    expect(notice.text).toContain('Row B, Seat 1');
  });
});
