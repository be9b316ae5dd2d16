import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, movies } from '../../db/schema/index.ts';
import { settleMail } from '../mail/outbox.service.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { ensureDefaultTicketTypes } from './default-prices.ts';

// Age rules (DESIGN §7.5): a ticket type may exclude certificates of RATING_SYSTEM; a line of that type for such a
// film is refused with 409 ticket_type_not_for_rating wherever its type is resolved (quote, online checkout,
// counter sale, exchange), and the basket's prices leave the type out and state the film's age rule.
describe.each(engines)('age rules on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let customer: SignedIn;
  let rated: ShowtimeFixture;
  let family: ShowtimeFixture;
  let kidId: string;
  let adultId: string;

  const post = (url: string, payload: unknown, who: SignedIn = admin, language = 'en') =>
    app.inject({
      method: 'POST',
      url,
      headers: { ...who.headers, 'accept-language': language },
      payload: payload as object,
    });
  const hold = async (show: ShowtimeFixture, seatId: string) => {
    const res = await post(`/api/showtimes/${show.showtimeId}/hold`, { seatIds: [seatId] }, customer);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { bookingIds: string[] }).bookingIds[0]!;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    admin = await signedInAdmin(app);
    customer = await signedInUser(app);
    await ensureDefaultTicketTypes(app.database.db);
    rated = await createShowtimeFixture(app.database.db, { rows: 2, cols: 6 });
    family = await createShowtimeFixture(app.database.db, {
      rows: 2,
      cols: 6,
      startsAt: new Date(Date.now() + 48 * 3600_000),
    });
    await app.database.db
      .update(movies)
      .set({ title: 'Night Shift', rating: 'R' })
      .where(eq(movies.id, rated.movieId));
    const types = (
      await app.inject({ method: 'GET', url: '/api/admin/ticket-types', headers: admin.headers })
    ).json() as { id: string; name: string }[];
    adultId = types.find((x) => x.name === 'Adult')!.id;
    const kid = await post('/api/admin/ticket-types', { name: 'Kid', excludedRatings: ['nc-17', ' r '] });
    expect(kid.statusCode, kid.body).toBe(201);
    expect(kid.json()).toMatchObject({ name: 'Kid', excludedRatings: ['NC-17', 'R'] });
    kidId = kid.json().id;
  });
  afterAll(() => t.close());

  it('starts a cinema with a Child type not sold for the certificates that admit nobody of 14 or under', async () => {
    const types = (
      await app.inject({ method: 'GET', url: '/api/admin/ticket-types', headers: admin.headers })
    ).json() as { name: string; excludedRatings: string[] }[];
    expect(types.find((x) => x.name === 'Child')!.excludedRatings).toEqual(['R', 'NC-17']);
    expect(types.find((x) => x.name === 'Adult')!.excludedRatings).toEqual([]);
  });

  it('refuses certificates outside the cinema’s system, and audits a change of the excluded ones', async () => {
    const bad = await post('/api/admin/ticket-types', { name: 'Teen', excludedRatings: ['18'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Excluded ratings must be MPAA certificates: G, PG, PG-13, R, NC-17');
    const changed = await app.inject({
      method: 'PUT',
      url: `/api/admin/ticket-types/${kidId}`,
      headers: admin.headers,
      payload: { excludedRatings: ['R', 'NC-17', 'PG-13'] },
    });
    expect(changed.json()).toMatchObject({ excludedRatings: ['R', 'NC-17', 'PG-13'] });
    const [entry] = await app.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'ticket_type.update'));
    expect(entry).toMatchObject({
      before: { excludedRatings: ['NC-17', 'R'] },
      after: { excludedRatings: ['R', 'NC-17', 'PG-13'] },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/admin/ticket-types/${kidId}`,
      headers: admin.headers,
      payload: { excludedRatings: ['NC-17', 'R'] },
    });
  });

  it('leaves the excluded type out of the basket’s prices and states the age rule', async () => {
    const prices = (
      await app.inject({ method: 'GET', url: `/api/showtimes/${rated.showtimeId}/prices` })
    ).json();
    expect(prices.ticketTypes.map((x: { name: string }) => x.name)).not.toContain('Kid');
    expect(prices.ticketTypes.map((x: { name: string }) => x.name)).toContain('Adult');
    expect(prices.ageRule).toEqual({ rating: 'R', minAge: 17 });
    expect(prices.prices.some((p: { ticketTypeId: string }) => p.ticketTypeId === kidId)).toBe(false);

    const pg = (
      await app.inject({ method: 'GET', url: `/api/showtimes/${family.showtimeId}/prices` })
    ).json();
    expect(pg.ticketTypes.map((x: { name: string }) => x.name)).toContain('Kid');
    expect(pg.ageRule).toBeNull();
  });

  it('refuses a Kid ticket for the R film in the quote and at checkout (409), and sells it as Adult', async () => {
    const bookingId = await hold(rated, rated.seatIds[0]![0]!);
    const body = { bookingIds: [bookingId], tickets: [{ bookingId, ticketTypeId: kidId }] };
    const quote = await post('/api/pay/quote', body, customer);
    expect(quote.statusCode).toBe(409);
    expect(quote.json()).toEqual({
      error: 'Kid tickets are not sold for Night Shift (rated R): Row A Seat 1',
      code: 'ticket_type_not_for_rating',
      bookingIds: [bookingId],
    });
    const german = await post('/api/pay/checkout', body, customer, 'de');
    expect(german.statusCode).toBe(409);
    expect(german.json()).toMatchObject({
      code: 'ticket_type_not_for_rating',
      error: 'Kid-Tickets gibt es nicht für Night Shift (freigegeben R): Reihe A, Platz 1',
    });
    const adult = await post(
      '/api/pay/checkout',
      { bookingIds: [bookingId], tickets: [{ bookingId, ticketTypeId: adultId }] },
      customer,
    );
    expect(adult.statusCode, adult.body).toBe(200);
    const { sessionId } = adult.json() as { sessionId: string };
    expect((await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` })).statusCode).toBe(
      303,
    );
    // The confirmation states the film's age rule.
    await settleMail();
    const [mail] = await app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'order_confirmation'));
    const rule = 'Night Shift is rated R: ages 17 and over only. Staff may ask for ID at the door.';
    expect(mail!.text).toContain(rule);
    expect(mail!.html).toContain(rule);
    // The booked list and the door say "ID check 17+" for it, and nothing for the family film.
    const booked = await app.inject({
      method: 'GET',
      url: `/api/admin/showtimes/${rated.showtimeId}/booked`,
      headers: admin.headers,
    });
    expect(booked.json()).toEqual([expect.objectContaining({ movie: 'Night Shift', minAge: 17 })]);
    const door = (
      await app.inject({ method: 'GET', url: '/api/admin/scan/showtimes', headers: admin.headers })
    ).json() as { showtimes: { id: string; minAge: number | null }[] };
    expect(door.showtimes.find((s) => s.id === rated.showtimeId)!.minAge).toBe(17);
    expect(door.showtimes.find((s) => s.id === family.showtimeId)!.minAge).toBeNull();
    // The same type is sold for the family film.
    const other = await hold(family, family.seatIds[0]![0]!);
    const fine = await post(
      '/api/pay/quote',
      { bookingIds: [other], tickets: [{ bookingId: other, ticketTypeId: kidId }] },
      customer,
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('refuses it at the counter and in an exchange to the R film, selling and moving nothing', async () => {
    const seatId = rated.seatIds[1]![0]!;
    const counter = await post('/api/admin/box-office/sales', {
      showtimeId: rated.showtimeId,
      seatIds: [seatId],
      tickets: [{ seatId, ticketTypeId: kidId }],
      paymentMethod: 'cash',
    });
    expect(counter.statusCode).toBe(409);
    expect(counter.json()).toMatchObject({ code: 'ticket_type_not_for_rating', seatIds: [seatId] });

    const sold = await post('/api/admin/box-office/sales', {
      showtimeId: family.showtimeId,
      seatIds: [family.seatIds[1]![1]!],
      tickets: [{ seatId: family.seatIds[1]![1]!, ticketTypeId: kidId }],
      paymentMethod: 'cash',
    });
    expect(sold.statusCode, sold.body).toBe(200);
    const order = sold.json() as { ref: string; lines: { bookingId: string }[] };
    const move = await post(`/api/admin/orders/${order.ref}/exchange`, {
      moves: [{ bookingId: order.lines[0]!.bookingId, showtimeId: rated.showtimeId, seatId }],
    });
    expect(move.statusCode).toBe(409);
    expect(move.json()).toMatchObject({ code: 'ticket_type_not_for_rating' });
    const map = (await app.inject({ method: 'GET', url: `/api/showtimes/${rated.showtimeId}/seats` })).json();
    expect(map.seats.find((s: { id: string }) => s.id === seatId).status).toBe('AVAILABLE');
  });
});
