import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Product } from '@cinema/contract';
import { mailOutbox, showtimes } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { addProduct, choiceId, POPCORN } from '../../test/menu.ts';
import { hasPoppler, readPdf } from '../../test/pdf.ts';
import { holdSeats } from '../../test/purchase.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { settleMail } from '../mail/outbox.service.ts';

// DESIGN §7.2: the confirmation email, the order page and the PDF list the items; the order's QR code (its
// reference) hands them over at the bar.

describe.each(engines)('items in the confirmation and the PDF (%s)', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let popcorn: Product;
  let beer: Product;

  const confirmation = async (ref: string) => {
    await settleMail();
    const rows = await app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `order_confirmation:${ref}`));
    return rows[0];
  };
  /** Pays with the local provider; the order's session id and reference. */
  const checkout = async (who: SignedIn, payload: object) => {
    const res = await app.inject({ method: 'POST', url: '/api/pay/checkout', headers: who.headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    const { sessionId, orderRef } = res.json() as { sessionId: string; orderRef: string };
    expect((await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` })).statusCode).toBe(
      303,
    );
    return { sessionId, ref: orderRef };
  };
  const pdf = async (who: SignedIn, ref: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/me/orders/${ref}/tickets.pdf`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      SWEEP_SECONDS: '3600',
      CINEMA_TIME_ZONE: 'Europe/Berlin',
    });
    app = t.app;
    admin = await signedInAdmin(app);
    show = await createShowtimeFixture(app.database.db, {
      rows: 1,
      cols: 4,
      startsAt: new Date('2031-03-14T18:30:00Z'),
    });
    popcorn = await addProduct(app, admin, POPCORN);
    beer = await addProduct(app, admin, {
      name: 'Craft beer',
      category: 'Bar',
      priceCents: 600,
      ageRestricted: true,
    });
  });
  afterAll(() => t.close());

  it('emails two seats and a large popcorn brought to the seat, with the order QR code and who must bring ID', async () => {
    const lea = await signedInUser(app, { name: 'Lea' });
    const bookingIds = await holdSeats(app, lea, show.showtimeId, show.allSeatIds.slice(0, 2));
    const [{ startsAt }] = (await app.database.db
      .select({ startsAt: showtimes.startsAt })
      .from(showtimes)
      .where(eq(showtimes.id, show.showtimeId))) as [{ startsAt: Date }];
    const { sessionId, ref } = await checkout(lea, {
      bookingIds,
      products: [
        { productId: popcorn.id, quantity: 1, options: [choiceId(popcorn, 'Size', 'Large')] },
        { productId: beer.id, quantity: 1 },
      ],
      // 19:45 in Berlin: a quarter of an hour after the start.
      fulfilment: {
        kind: 'SEAT',
        bookingId: bookingIds[0],
        at: new Date(startsAt.getTime() + 15 * 60_000).toISOString(),
      },
    });
    const mail = await confirmation(sessionId);
    expect(mail?.subject).toBe(`Your tickets: order ${ref}`);
    expect(mail!.text).toContain(
      'Food and drink\n- Craft beer, $6.00\n- Popcorn (Large), $6.50\nBrought to Row A, Seat',
    );
    expect(mail!.text).toMatch(
      new RegExp(`in Fixture hall \\w+ at 7:45 PM; the QR code of order ${ref} hands them over`),
    );
    expect(mail!.text).toContain('Staff check ID for Craft beer: bring yours.');
    expect(mail!.html).toContain('src="cid:order"');
    expect(mail!.attachments.map((a) => a.filename)).toEqual([
      'ticket-1.png',
      'ticket-2.png',
      'order.png',
      'showtime.ics',
    ]);

    if (hasPoppler) {
      const { pages, text } = readPdf(await pdf(lea, ref));
      // A page per ticket, then the items with the order's QR code.
      expect(pages).toHaveLength(3);
      expect(pages[2]!.qr).toBe(ref);
      expect(text[2]).toContain(`Order ${ref}`);
      expect(text[2]).toContain('Food and drink');
      expect(text[2]).toContain('1 × Popcorn (Large)');
      expect(text[2]).toContain('Staff check ID for age-restricted items.');
    }
  });

  it('confirms food alone by email, in the customer’s language, and prints it', async () => {
    const ana = await signedInUser(app, { name: 'Ana' });
    await app.database.db.execute(`update users set language = 'de' where id = '${ana.id}'`);
    const { sessionId, ref } = await checkout(ana, {
      bookingIds: [],
      products: [{ productId: beer.id, quantity: 2 }],
    });
    const mail = await confirmation(sessionId);
    expect(mail?.subject).toBe(`Ihre Bestellung ${ref}`);
    expect(mail!.text).toContain(`Abholung an der Theke: Bestellung ${ref} oder ihren QR-Code zeigen.`);
    expect(mail!.attachments.map((a) => a.filename)).toEqual(['order.png']);
    if (hasPoppler) {
      const { pages, text } = readPdf(await pdf(ana, ref));
      expect(pages.map((p) => p.qr)).toEqual([ref]);
      expect(text[0]).toContain('2 × Craft beer');
    }
  });
});
