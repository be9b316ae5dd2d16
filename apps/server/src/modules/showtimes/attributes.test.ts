import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  instantAt,
  localDate,
  type BatchShowtimesResponse,
  type BookedSeat,
  type Schedule,
  type SeatMap,
  type Showtime,
  type ShowtimePrices,
  type Ticket,
} from '@cinema/contract';
import { mailOutbox, movies } from '../../db/schema/index.ts';
import { insertPlainHall } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { setUpPrices } from '../../test/prices.ts';
import { buySeats } from '../../test/purchase.ts';
import { settleMail } from '../mail/outbox.service.ts';

// DESIGN §7.5: a showtime's format, language, accessibility and audience; the schedule filters by them; a price card
// for an attribute (3D, IMAX) prices the showtimes having it.

describe.each(engines)('showtime attributes on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let movieId: string;
  let hallIds: string[];
  let seatIds: string[];
  let date: string;
  let types: Awaited<ReturnType<typeof setUpPrices>>;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    types = await setUpPrices(t.app, admin);
    const [movie] = await t.database.db
      .insert(movies)
      .values({ title: 'Captioned Film', durationMinutes: 90 })
      .returning({ id: movies.id });
    movieId = movie!.id;
    hallIds = [];
    seatIds = [];
    for (let i = 0; i < 3; i++) {
      const { hall, seats } = await insertPlainHall(t.database.db, 1, 4);
      hallIds.push(hall.id);
      if (i === 0) seatIds = seats.map((s) => s.id);
    }
    date = addDays(localDate(new Date(), t.app.config.timeZone), 2);
  });
  afterAll(() => t.close());

  const at = (time: string) => instantAt(date, time, t.app.config.timeZone).at.toISOString();
  const schedule = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/schedule?date=${date}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Schedule;
  };
  const create = async (hallIndex: number, time: string, attributes?: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/showtimes',
      headers: admin.headers,
      payload: {
        movieId,
        auditoriumId: hallIds[hallIndex],
        startsAt: at(time),
        priceCents: 1000,
        ...(attributes && { attributes }),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Showtime;
  };

  let captioned: Showtime;
  let imaxCaptioned: Showtime;
  let plain: Showtime;

  it('takes attributes on a new showtime, each once and in badge order, and says them back', async () => {
    captioned = await create(0, '14:00', ['subtitles_de', 'CAPTIONED', 'ORIGINAL', 'captioned']);
    expect(captioned.attributes).toEqual(['ORIGINAL', 'SUBTITLES_DE', 'CAPTIONED']);
    imaxCaptioned = await create(1, '14:00', ['CAPTIONED', 'IMAX']);
    expect(imaxCaptioned.attributes).toEqual(['IMAX', 'CAPTIONED']);
    plain = await create(2, '14:00');
    expect(plain.attributes).toEqual([]);
  });

  it('refuses an attribute it does not know with a 400 naming the ones it does', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/showtimes',
      headers: admin.headers,
      payload: {
        movieId,
        auditoriumId: hallIds[2],
        startsAt: at('20:00'),
        priceCents: 1000,
        attributes: ['4K'],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request' });
    expect(res.json().error).toContain('An attribute is one of 2D, 3D, IMAX');
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/schedule?date=${date}&attributes=SMELLOVISION`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('An attribute is one of');
  });

  it('lists on the schedule only the showtimes having every attribute asked for, the day strip counted alike', async () => {
    const all = await schedule('');
    expect(all.showtimes.map((s) => s.id)).toEqual(
      expect.arrayContaining([captioned.id, imaxCaptioned.id, plain.id]),
    );
    expect(all.showtimes.find((s) => s.id === imaxCaptioned.id)?.attributes).toEqual(['IMAX', 'CAPTIONED']);

    const withCaptions = await schedule('&attributes=CAPTIONED');
    expect(withCaptions.showtimes.map((s) => s.id).sort()).toEqual([captioned.id, imaxCaptioned.id].sort());
    expect(withCaptions.days.find((d) => d.date === date)?.showtimes).toBe(2);

    const both = await schedule('&attributes=captioned,IMAX');
    expect(both.showtimes.map((s) => s.id)).toEqual([imaxCaptioned.id]);
    expect(both.days.find((d) => d.date === date)?.showtimes).toBe(1);

    expect((await schedule('&attributes=RELAXED')).showtimes).toEqual([]);
  });

  it('prices a showtime by the card for one of its attributes, and never a showtime without it', async () => {
    const card = await t.app.inject({
      method: 'POST',
      url: '/api/admin/price-cards',
      headers: admin.headers,
      payload: {
        name: 'IMAX',
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        from: '00:00',
        to: '24:00',
        attribute: 'IMAX',
        prices: [{ ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 1900 }],
      },
    });
    expect(card.statusCode, card.body).toBe(201);
    expect(card.json()).toMatchObject({ name: 'IMAX', attribute: 'IMAX' });

    const prices = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/showtimes/${id}/prices` })).json() as ShowtimePrices;
    expect((await prices(imaxCaptioned.id)).priceCard?.name).toBe('IMAX');
    expect((await prices(imaxCaptioned.id)).prices).toEqual([
      { ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 1900 },
    ]);
    expect((await prices(plain.id)).priceCard?.name).toBe('Evenings');
    expect((await prices(captioned.id)).priceCard?.name).toBe('Evenings');

    // The schedule shows the IMAX price too, and checkout charges it.
    const day = await schedule('&attributes=IMAX');
    expect(day.showtimes[0]).toMatchObject({ id: imaxCaptioned.id, priceCents: 1900 });
  });

  it('schedules recurring showtimes with their attributes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/showtimes/batch',
      headers: admin.headers,
      payload: {
        movieId,
        auditoriumIds: [hallIds[2]],
        from: date,
        to: date,
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        times: ['18:00', '21:00'],
        attributes: ['RELAXED', '2D'],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const batch = res.json() as BatchShowtimesResponse;
    expect(batch.showtimes).toHaveLength(2);
    const relaxed = await schedule('&attributes=RELAXED');
    expect(relaxed.showtimes.map((s) => s.id).sort()).toEqual(batch.showtimes.map((s) => s.id!).sort());
    expect(relaxed.showtimes.every((s) => s.attributes.join() === '2D,RELAXED')).toBe(true);
  });

  it('shows them on the seat map, the ticket, the booked list, the confirmation email and the PDF', async () => {
    const map = (
      await t.app.inject({ method: 'GET', url: `/api/showtimes/${captioned.id}/seats` })
    ).json() as SeatMap;
    expect(map.showtime.attributes).toEqual(['ORIGINAL', 'SUBTITLES_DE', 'CAPTIONED']);

    const cathy = await signedInUser(t.app, { name: 'Cathy' });
    const { orderRef } = await buySeats(t.app, cathy, captioned.id, [seatIds[0]!]);
    const tickets = (
      await t.app.inject({ method: 'GET', url: '/api/me/tickets', headers: cathy.headers })
    ).json() as { tickets: Ticket[] };
    expect(tickets.tickets[0]!.attributes).toEqual(['ORIGINAL', 'SUBTITLES_DE', 'CAPTIONED']);

    const booked = (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/showtimes/${captioned.id}/booked`,
        headers: admin.headers,
      })
    ).json() as BookedSeat[];
    expect(booked[0]!.attributes).toEqual(['ORIGINAL', 'SUBTITLES_DE', 'CAPTIONED']);

    await settleMail();
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, cathy.email));
    expect(mail!.text).toContain('Captioned Film (Original version · Subtitles: German · Captioned)');
    expect(mail!.html).toContain('Original version · Subtitles: German · Captioned');

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/me/orders/${orderRef}/tickets.pdf`,
      headers: { ...cathy.headers, 'accept-language': 'de' },
    });
    expect(pdf.statusCode).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'attributes-pdf-'));
    try {
      writeFileSync(path.join(dir, 't.pdf'), pdf.rawPayload);
      const text = execFileSync('pdftotext', [path.join(dir, 't.pdf'), '-'], { encoding: 'utf8' }).replace(
        /\s+/g,
        ' ',
      );
      expect(text).toContain('Originalfassung · Untertitel: Deutsch · Mit Untertiteln für Hörgeschädigte');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
