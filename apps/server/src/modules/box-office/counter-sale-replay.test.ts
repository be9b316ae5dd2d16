import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SeatMap, StaffOrder } from '@cinema/contract';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { checkOut, holdSeats } from '../../test/purchase.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';

// A counter sale's requestId answers again only the same staff member's same sale (issue 31, 8c).
describe.each(engines)('a counter sale sent again on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let sam: SignedIn;
  let kim: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    sam = await signedInUser(app, { role: 'STAFF', name: 'Sam' });
    kim = await signedInUser(app, { role: 'STAFF', name: 'Kim' });
    show = await createShowtimeFixture(app.database.db, { priceCents: 1200, rows: 2, cols: 6 });
  });
  afterAll(() => t.close());

  const sell = (who: SignedIn, payload: object) =>
    app.inject({ method: 'POST', url: '/api/admin/box-office/sales', headers: who.headers, payload });
  const status = async (seatId: string) =>
    (
      (await app.inject({ method: 'GET', url: `/api/showtimes/${show.showtimeId}/seats` })).json() as SeatMap
    ).seats.find((s) => s.id === seatId)!.status;

  it('answers the same order to the same sale, and 422 to another body, another seller or an online order', async () => {
    const requestId = '0c1d2e3f-4a5b-4c6d-8e7f-000000000031';
    const sale = {
      showtimeId: show.showtimeId,
      seatIds: [show.seatIds[0]![0]!, show.seatIds[0]![1]!],
      paymentMethod: 'cash',
      customerEmail: 'walk-in.guest@example.com',
      requestId,
    };
    const first = await sell(sam, sale);
    expect(first.statusCode, first.body).toBe(200);
    const order = first.json() as StaffOrder;

    // A double click: the same order, nothing sold twice.
    const again = await sell(sam, { ...sale, seatIds: [...sale.seatIds].reverse() });
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as StaffOrder).ref).toBe(order.ref);

    // The same id for another sale is refused, and that sale does not happen.
    const otherSeat = show.seatIds[1]![0]!;
    for (const other of [
      { ...sale, seatIds: [otherSeat] },
      { ...sale, paymentMethod: 'card' },
      { ...sale, customerEmail: 'someone.else@example.com' },
    ]) {
      const refused = await sell(sam, other);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toEqual({
        error: 'This request id was used for another sale: start a new sale',
        code: 'idempotency_key_reused',
      });
    }
    expect(await status(otherSeat)).toBe('AVAILABLE');

    // Another staff member sending that id (the same body too) learns nothing of Sam's order.
    const kims = await sell(kim, sale);
    expect(kims.statusCode).toBe(422);
    expect(kims.body).not.toContain(order.ref);
    expect(kims.body).not.toContain('walk-in.guest@example.com');

    // An online order's id is no counter sale's to answer either.
    const customer = await signedInUser(app);
    const held = await holdSeats(app, customer, show.showtimeId, [show.seatIds[1]![3]!]);
    const { sessionId } = await checkOut(app, customer, held);
    const online = await sell(sam, { ...sale, seatIds: [show.seatIds[1]![4]!], requestId: sessionId });
    expect(online.statusCode).toBe(422);
    expect(online.json()).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('says so in German too', async () => {
    const requestId = '0c1d2e3f-4a5b-4c6d-8e7f-000000000032';
    const sale = {
      showtimeId: show.showtimeId,
      seatIds: [show.seatIds[0]![4]!],
      paymentMethod: 'card',
      requestId,
    };
    expect((await sell(sam, sale)).statusCode).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/admin/box-office/sales',
      headers: { ...sam.headers, 'accept-language': 'de' },
      payload: { ...sale, paymentMethod: 'cash' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe(
      'Diese Anfrage-ID wurde schon für einen anderen Verkauf benutzt: beginne einen neuen Verkauf',
    );
  });
});
