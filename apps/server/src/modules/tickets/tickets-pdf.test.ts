import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { halls, movies } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type TestApp } from '../../test/helpers.ts';
import { buySeats } from '../../test/purchase.ts';
import { hasPoppler, readPdf } from '../../test/pdf.ts';

describe.each(engines)('tickets as a PDF on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      SWEEP_SECONDS: '3600',
      CINEMA_TIME_ZONE: 'Europe/Berlin',
    });
    app = t.app;
    show = await createShowtimeFixture(app.database.db, {
      rows: 3,
      cols: 5,
      startsAt: new Date('2031-03-14T18:30:00Z'),
    });
  });
  afterAll(() => t.close());

  it.skipIf(!hasPoppler)(
    'has one page per ticket with the QR code the door scans, the movie, start, hall and seat',
    async () => {
      const lea = await signedInUser(app, { name: 'Lea' });
      const { orderRef, bookingIds } = await buySeats(app, lea, show.showtimeId, [
        show.seatIds[1]![2]!,
        show.seatIds[2]![4]!,
      ]);
      const res = await app.inject({
        method: 'GET',
        url: `/api/me/orders/${orderRef.toLowerCase()}/tickets.pdf`,
        headers: lea.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="tickets-${orderRef}.pdf"`);
      const { pages, text } = readPdf(res.rawPayload);
      expect(pages).toHaveLength(2);
      const tickets = (
        await app.inject({ method: 'GET', url: '/api/me/tickets', headers: lea.headers })
      ).json() as { tickets: { bookingId: string; seat: { row: number; number: number } }[] };
      const byQr = pages.map((p) => tickets.tickets.find((t) => t.bookingId === p.qr));
      expect(byQr.map((t) => t && [t.seat.row, t.seat.number])).toEqual([
        [2, 3],
        [3, 5],
      ]);
      expect(pages.map((p) => p.qr).sort()).toEqual([...bookingIds].sort());
      for (const page of text.slice(0, 2)) {
        expect(page).toContain('Fixture Movie');
        // 18:30 UTC is 19:30 in Berlin in March.
        expect(page).toContain('Friday, March 14, 2031 at 7:30 PM');
        expect(page).toContain('Fixture hall');
      }
      expect(text[0]).toContain('Row B, Seat 3');
      expect(text[1]).toContain('Row C, Seat 5');
      expect(text[0]).toContain(`Ticket 1 of 2 · order ${orderRef}`);
    },
  );

  it.skipIf(!hasPoppler)(
    'keeps each ticket on one page, its booking id under the QR code, whatever the length of the title and hall',
    async () => {
      const long = await createShowtimeFixture(app.database.db, {
        rows: 1,
        cols: 3,
        startsAt: new Date('2031-03-14T18:30:00Z'),
      });
      const title = 'The Extraordinarily Long and Winding Chronicle of a Ticket That Would Not Fit '.padEnd(
        128,
        'x',
      );
      const hall = `Auditorium ${'Grand'.repeat(18)}`.slice(0, 100);
      expect([title.length, hall.length]).toEqual([128, 100]);
      await app.database.db.update(movies).set({ title }).where(eq(movies.id, long.movieId));
      await app.database.db.update(halls).set({ name: hall }).where(eq(halls.id, long.hallId));
      const ona = await signedInUser(app, { name: 'Ona' });
      const { orderRef, bookingIds } = await buySeats(app, ona, long.showtimeId, [
        long.seatIds[0]![0]!,
        long.seatIds[0]![1]!,
      ]);
      const res = await app.inject({
        method: 'GET',
        url: `/api/me/orders/${orderRef}/tickets.pdf`,
        headers: ona.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const { pages, text } = readPdf(res.rawPayload);
      expect(pages).toHaveLength(2);
      expect(pages.map((p) => p.qr).sort()).toEqual([...bookingIds].sort());
      // Each page has its own booking id (the line under its QR code), the start of the title and the seat.
      for (const [i, page] of text.slice(0, 2).entries()) {
        expect(page).toContain(pages[i]!.qr!);
        expect(page).toContain('The Extraordinarily Long');
        expect(page).toContain(`Row A, Seat ${i + 1}`);
      }
    },
  );

  it("answers 404 for someone else's order and an unknown one, 401 for a visitor", async () => {
    const max = await signedInUser(app, { name: 'Max' });
    const nia = await signedInUser(app, { name: 'Nia' });
    const { orderRef } = await buySeats(app, max, show.showtimeId, [show.seatIds[0]![0]!]);
    const url = `/api/me/orders/${orderRef}/tickets.pdf`;
    const other = await app.inject({ method: 'GET', url, headers: nia.headers });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'not_found' });
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/api/me/orders/ZZZ-ZZZZ/tickets.pdf', headers: max.headers }))
        .statusCode,
    ).toBe(404);
  });
});
