import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { localDayTime, type Order, type PriceCard, type Quote, type ShowtimePrices } from '@cinema/contract';
import { orders, priceCardPrices, promoCodes, seats, showtimes } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { setUpPrices } from '../../test/prices.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { cardValidAt, shareDiscount } from './price-table.ts';
import { expireStaleCheckouts } from '../payments/payment-events.ts';

// DESIGN §6.3: ticket types, price cards by weekday and time of day (in CINEMA_TIME_ZONE), promo codes counted under
// their caps, and orders; the server prices everything.

describe('price resolution (pure)', () => {
  const card = (name: string, weekdays: number[], from: string, to: string) => ({ name, weekdays, from, to });
  const cards = [
    card('Standard', [1, 2, 3, 4, 5, 6, 7], '00:00', '24:00'),
    card('Matinee', [1, 2, 3, 4, 5], '10:00', '17:00'),
  ];

  it('reads the weekday and time on the cinema’s clocks, daylight saving included', () => {
    // Berlin leaves summer time on Sunday 2026-10-25 at 03:00 (to 02:00): 10:30 local is 09:30 UTC that day.
    expect(localDayTime(new Date('2026-10-25T09:30:00Z'), 'Europe/Berlin')).toMatchObject({
      weekday: 7,
      time: '10:30',
    });
    expect(localDayTime(new Date('2026-10-24T08:30:00Z'), 'Europe/Berlin')).toMatchObject({
      weekday: 6,
      time: '10:30',
    });
    expect(localDayTime(new Date('2026-03-30T08:00:00Z'), 'Europe/Berlin')).toMatchObject({
      weekday: 1,
      time: '10:00',
    });
    expect(localDayTime(new Date('2026-11-23T23:30:00Z'), 'America/New_York')).toMatchObject({
      weekday: 1,
      time: '18:30',
    });
  });

  it('picks the matinee from 10:00 inclusive to 17:00 exclusive on weekdays, the standard card otherwise', () => {
    const at = (iso: string) => cardValidAt(cards, new Date(iso), 'Europe/Berlin')?.name;
    expect(at('2026-11-23T09:00:00Z')).toBe('Matinee'); // Monday 10:00 in Berlin (winter, UTC+1)
    expect(at('2026-11-23T08:59:00Z')).toBe('Standard'); // 09:59
    expect(at('2026-11-23T15:59:00Z')).toBe('Matinee'); // 16:59
    expect(at('2026-11-23T16:00:00Z')).toBe('Standard'); // 17:00
    expect(at('2026-11-22T10:00:00Z')).toBe('Standard'); // Sunday 11:00
    // The Monday after summer time began (2026-03-30, UTC+2): 10:00 local is 08:00 UTC, still the matinee.
    expect(at('2026-03-30T08:00:00Z')).toBe('Matinee');
    expect(at('2026-03-30T07:59:00Z')).toBe('Standard');
  });

  it('shares a discount out in whole cents, never more than a price, adding up exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 60_000 }),
        (prices, discount) => {
          const shares = shareDiscount(prices, discount);
          const total = prices.reduce((a, b) => a + b, 0);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(Math.min(discount, total));
          shares.forEach((s, i) => {
            expect(Number.isInteger(s)).toBe(true);
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThanOrEqual(prices[i]!);
          });
        },
      ),
      { numRuns: 2000 },
    );
    expect(shareDiscount([1000, 1000, 1000], 100)).toEqual([34, 33, 33]);
  });
});

describe.each(engines)('ticket types, price cards and orders on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let types: Awaited<ReturnType<typeof setUpPrices>>;

  const hold = async (who: SignedIn, seatIds: string[], showtimeId = show.showtimeId) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/showtimes/${showtimeId}/hold`,
      headers: who.headers,
      payload: { seatIds },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().bookingIds as string[];
  };
  const post = (who: SignedIn, url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: who.headers, payload });

  beforeAll(async () => {
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      SWEEP_SECONDS: '3600',
      CINEMA_TIME_ZONE: 'Europe/Berlin',
    });
    app = t.app;
    admin = await signedInAdmin(app);
    types = await setUpPrices(app, admin);
    show = await createShowtimeFixture(app.database.db, { rows: 3, cols: 8, priceCents: 999 });
    // Row C is premium.
    await app.database.db
      .update(seats)
      .set({ type: 'PREMIUM' })
      .where(and(eq(seats.hallId, show.hallId), eq(seats.row, 3)));
  });
  afterAll(() => t.close());

  it('prices a showtime by its card: each ticket type on each seat type, the lowest adult price for old clients', async () => {
    const prices = (
      await app.inject({ method: 'GET', url: `/api/showtimes/${show.showtimeId}/prices` })
    ).json() as ShowtimePrices;
    expect(prices.priceCard).toEqual({ id: types.card.id, name: 'Evenings' });
    expect(prices.ticketTypes.map((x) => x.name)).toEqual(['Adult', 'Child']);
    expect(prices.defaultTicketTypeId).toBe(types.adult);
    const of = (typeId: string, seatType: string) =>
      prices.prices.find((p) => p.ticketTypeId === typeId && p.seatType === seatType)?.priceCents;
    expect([
      of(types.adult, 'STANDARD'),
      of(types.adult, 'PREMIUM'),
      of(types.child, 'STANDARD'),
      of(types.child, 'PREMIUM'),
    ]).toEqual([1300, 1600, 800, undefined]);
    const listed = (await app.inject({ method: 'GET', url: `/api/movies/${show.movieId}/showtimes` })).json();
    expect(listed[0].priceCents).toBe(1300);
  });

  it('charges each seat its ticket type; the old call (bookingIds alone) sells every seat as the default type', async () => {
    const cathy = await signedInUser(app);
    // One hold a seat, so each booking is known by its seat (a hold answers in its own order).
    const [a] = await hold(cathy, [show.seatIds[0]![0]!]);
    const [b] = await hold(cathy, [show.seatIds[0]![1]!]);
    const [c] = await hold(cathy, [show.seatIds[2]![0]!]);
    const body = { bookingIds: [a, b, c], tickets: [{ bookingId: b, ticketTypeId: types.child }] };
    const quote = (await post(cathy, '/api/pay/quote', body)).json() as Quote;
    expect(quote.lines.map((l) => [l.seat.rowLabel, l.seat.number, l.ticketType, l.priceCents])).toEqual([
      ['A', 1, 'Adult', 1300],
      ['A', 2, 'Child', 800],
      ['C', 1, 'Adult', 1600],
    ]);
    expect(quote).toMatchObject({ subtotalCents: 3700, discountCents: 0, totalCents: 3700, currency: 'USD' });
    const started = (await post(cathy, '/api/pay/checkout', body)).json();
    expect(started).toMatchObject({
      totalCents: 3700,
      discountCents: 0,
      orderRef: expect.stringMatching(/^[2-9A-Z]{3}-[2-9A-Z]{4}$/),
    });

    const dan = await signedInUser(app);
    const [d] = await hold(dan, [show.seatIds[1]![0]!]);
    const old = (await post(dan, '/api/pay/checkout', { bookingIds: [d] })).json();
    expect(old.totalCents).toBe(1300);
    const refused = await post(dan, '/api/pay/quote', {
      bookingIds: [d],
      tickets: [{ bookingId: d, ticketTypeId: types.senior }],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ticket_type_unavailable' });
  });

  it('sells no ticket type on a seat type its card leaves blank: quote, checkout, counter and exchange say 409', async () => {
    // The card prices Child on standard seats only: a Child ticket on a premium seat is not for sale.
    const prices = (
      await app.inject({ method: 'GET', url: `/api/showtimes/${show.showtimeId}/prices` })
    ).json() as ShowtimePrices;
    expect(prices.prices.filter((p) => p.seatType === 'PREMIUM')).toEqual([
      { ticketTypeId: types.adult, seatType: 'PREMIUM', priceCents: 1600 },
    ]);

    const ivy = await signedInUser(app);
    const premium = [show.seatIds[2]![1]!, show.seatIds[2]![2]!];
    const held = await hold(ivy, premium);
    const asChild = {
      bookingIds: held,
      tickets: held.map((bookingId) => ({ bookingId, ticketTypeId: types.child })),
    };
    for (const url of ['/api/pay/quote', '/api/pay/checkout']) {
      const refused = await post(ivy, url, asChild);
      expect(refused.statusCode, url).toBe(409);
      expect(refused.json(), url).toMatchObject({ code: 'ticket_type_unavailable' });
    }
    // Nothing was charged: the seats are still only held, and as Adults they cost the premium price.
    const adults = (await post(ivy, '/api/pay/quote', { bookingIds: held })).json() as Quote;
    expect(adults.lines.map((l) => [l.ticketType, l.priceCents])).toEqual([
      ['Adult', 1600],
      ['Adult', 1600],
    ]);

    const sell = (seatId: string, ticketTypeId: string) =>
      post(admin, '/api/admin/box-office/sales', {
        showtimeId: show.showtimeId,
        seatIds: [seatId],
        tickets: [{ seatId, ticketTypeId }],
        paymentMethod: 'cash',
      });
    const counter = await sell(show.seatIds[2]![3]!, types.child);
    expect(counter.statusCode).toBe(409);
    expect(counter.json()).toMatchObject({ code: 'ticket_type_unavailable' });

    // A Child ticket on a standard seat cannot be moved to a premium one either.
    const sold = await sell(show.seatIds[0]![2]!, types.child);
    expect(sold.statusCode, sold.body).toBe(200);
    const order = sold.json() as { ref: string; totalCents: number; lines: { bookingId: string }[] };
    expect(order.totalCents).toBe(800);
    const moved = await post(admin, `/api/admin/orders/${order.ref}/exchange`, {
      moves: [{ bookingId: order.lines[0]!.bookingId, seatId: show.seatIds[2]![4]! }],
    });
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json()).toMatchObject({ code: 'ticket_type_unavailable' });
  });

  it('keeps an open checkout’s prices when the card changes meanwhile, and gives the order its lines and total', async () => {
    const eve = await signedInUser(app);
    const [e] = await hold(eve, [show.seatIds[1]![3]!]);
    const { sessionId, orderRef } = (await post(eve, '/api/pay/checkout', { bookingIds: [e] })).json();
    await app.database.db
      .update(priceCardPrices)
      .set({ priceCents: 9900 })
      .where(eq(priceCardPrices.ticketTypeId, types.adult));
    try {
      expect((await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` })).statusCode).toBe(
        303,
      );
      const order = (
        await app.inject({
          method: 'GET',
          url: `/api/me/orders/${orderRef.toLowerCase()}`,
          headers: eve.headers,
        })
      ).json() as Order;
      expect(order).toMatchObject({
        ref: orderRef,
        status: 'paid',
        totalCents: 1300,
        subtotalCents: 1300,
        discountCents: 0,
        testMode: true,
      });
      expect(order.lines).toEqual([
        expect.objectContaining({
          ticketType: 'Adult',
          priceCents: 1300,
          status: 'confirmed',
          seat: expect.objectContaining({ rowLabel: 'B', number: 4 }),
        }),
      ]);
      const list = (await app.inject({ method: 'GET', url: '/api/me/orders', headers: eve.headers })).json();
      expect(list.orders.map((o: Order) => o.ref)).toEqual([orderRef]);
      const tickets = (
        await app.inject({ method: 'GET', url: '/api/me/tickets', headers: eve.headers })
      ).json().tickets;
      expect(tickets).toEqual([expect.objectContaining({ orderRef, ticketType: 'Adult' })]);
      // Another customer does not see it.
      const other = await app.inject({
        method: 'GET',
        url: `/api/me/orders/${orderRef}`,
        headers: (await signedInUser(app)).headers,
      });
      expect(other.statusCode).toBe(404);
    } finally {
      await app.database.db
        .update(priceCardPrices)
        .set({ priceCents: 1300 })
        .where(and(eq(priceCardPrices.ticketTypeId, types.adult), eq(priceCardPrices.seatType, 'STANDARD')));
      await app.database.db
        .update(priceCardPrices)
        .set({ priceCents: 1600 })
        .where(and(eq(priceCardPrices.ticketTypeId, types.adult), eq(priceCardPrices.seatType, 'PREMIUM')));
    }
  });

  it('takes a promo code off the seats it covers, tells why a code does not apply, and never goes below zero', async () => {
    const code = (payload: object) => post(admin, '/api/admin/promo-codes', payload);
    expect((await code({ code: 'TENOFF', percentOff: 10 })).statusCode).toBe(201);
    expect(
      (
        await code({
          code: 'OTHERFILM',
          amountOffCents: 500,
          movieId: (await createShowtimeFixture(app.database.db)).movieId,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await code({
          code: 'LATER',
          percentOff: 5,
          validFrom: new Date(Date.now() + 86_400_000).toISOString(),
        })
      ).statusCode,
    ).toBe(201);
    expect((await code({ code: 'GIFT', amountOffCents: 100_000 })).statusCode).toBe(201);
    expect((await code({ code: 'tenoff', percentOff: 20 })).statusCode).toBe(409);

    const fay = await signedInUser(app);
    const [x] = await hold(fay, [show.seatIds[1]![5]!]);
    const [y] = await hold(fay, [show.seatIds[1]![6]!]);
    const quote = async (promoCode: string) =>
      (
        await post(fay, '/api/pay/quote', {
          bookingIds: [x, y],
          tickets: [{ bookingId: y, ticketTypeId: types.child }],
          promoCode,
        })
      ).json() as Quote;
    // 10% of 13.00 + 8.00 = 2.10, shared 1.30 and 0.80.
    expect(await quote('tenoff')).toMatchObject({
      subtotalCents: 2100,
      discountCents: 210,
      totalCents: 1890,
      promo: { code: 'TENOFF', applied: true },
    });
    expect((await quote('TENOFF')).lines.map((l) => l.discountCents)).toEqual([130, 80]);
    expect((await quote('OTHERFILM')).promo).toEqual({
      code: 'OTHERFILM',
      applied: false,
      reason: 'This code is for another movie',
    });
    expect((await quote('LATER')).promo).toMatchObject({
      applied: false,
      reason: 'This code is not valid yet',
    });
    expect((await quote('NOPE')).promo).toMatchObject({ applied: false, reason: 'This code does not exist' });
    const refused = await post(fay, '/api/pay/checkout', { bookingIds: [x, y], promoCode: 'LATER' });
    expect(refused.json()).toMatchObject({ code: 'promo_unavailable', error: 'This code is not valid yet' });

    // A gift bigger than the order: nothing to pay, the order is complete at once.
    const free = (await post(fay, '/api/pay/checkout', { bookingIds: [x, y], promoCode: 'GIFT' })).json();
    expect(free).toMatchObject({ totalCents: 0, discountCents: 2600 });
    const order = (
      await app.inject({ method: 'GET', url: `/api/me/orders/${free.orderRef}`, headers: fay.headers })
    ).json() as Order;
    expect(order).toMatchObject({ status: 'paid', totalCents: 0, promoCode: 'GIFT', testMode: false });
    expect(order.lines.every((l) => l.priceCents === 0 && l.status === 'confirmed')).toBe(true);
  });

  it('gives a use back when its checkout expires unpaid, and keeps the per-customer cap', async () => {
    await post(admin, '/api/admin/promo-codes', {
      code: 'ONCE',
      percentOff: 50,
      maxUses: 1,
      maxUsesPerCustomer: 1,
    });
    const gus = await signedInUser(app);
    const [g] = await hold(gus, [show.seatIds[0]![5]!]);
    const first = (await post(gus, '/api/pay/checkout', { bookingIds: [g], promoCode: 'ONCE' })).json();
    expect(first.discountCents).toBe(650);
    const hal = await signedInUser(app);
    const [h] = await hold(hal, [show.seatIds[0]![6]!]);
    expect(
      (await post(hal, '/api/pay/quote', { bookingIds: [h], promoCode: 'ONCE' })).json().promo,
    ).toMatchObject({ applied: false, reason: 'This code has been used as often as it can be' });

    // Gus's checkout runs out unpaid: the use goes back, Hal can have it.
    await app.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '10 minutes'` })
      .where(eq(orders.ref, first.orderRef));
    expect(
      await expireStaleCheckouts({ ...app.deps, providers: app.paymentProviders }),
    ).toBeGreaterThanOrEqual(1);
    const [promo] = await app.database.db.select().from(promoCodes).where(eq(promoCodes.code, 'ONCE'));
    expect(promo!.uses).toBe(0);
    expect(
      (await post(hal, '/api/pay/checkout', { bookingIds: [h], promoCode: 'ONCE' })).json().discountCents,
    ).toBe(650);
  });

  it("quotes a capped code as its checkout charges it: the customer's own open checkout it replaces does not count", async () => {
    await post(admin, '/api/admin/promo-codes', { code: 'MINE', percentOff: 50, maxUsesPerCustomer: 1 });
    await post(admin, '/api/admin/promo-codes', { code: 'LAST', percentOff: 50, maxUses: 1 });
    for (const code of ['MINE', 'LAST']) {
      const jo = await signedInUser(app);
      const seatId = show.seatIds[1]![code === 'MINE' ? 1 : 2]!;
      const [j] = await hold(jo, [seatId]);
      const body = { bookingIds: [j], promoCode: code };
      // Jo starts paying with the code, comes back to the basket and looks again: the code still applies…
      expect((await post(jo, '/api/pay/checkout', body)).json().discountCents, code).toBe(650);
      const quote = (await post(jo, '/api/pay/quote', body)).json() as Quote;
      expect(quote.promo, code).toEqual({ code, applied: true });
      expect(quote.totalCents, code).toBe(650);
      // …as the checkout that replaces the first one charges it, the use counted once.
      const again = await post(jo, '/api/pay/checkout', body);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().discountCents, code).toBe(650);
      const [promo] = await app.database.db.select().from(promoCodes).where(eq(promoCodes.code, code));
      expect(promo!.uses, code).toBe(1);
      // Other seats would be another checkout beside the open one: the cap holds, in the quote and the checkout.
      const [k] = await hold(jo, [show.seatIds[1]![code === 'MINE' ? 4 : 7]!]);
      const other = { bookingIds: [k], promoCode: code };
      expect((await post(jo, '/api/pay/quote', other)).json().promo, code).toMatchObject({ applied: false });
      expect((await post(jo, '/api/pay/checkout', other)).statusCode, code).toBe(409);
    }
  });

  it('lets admins keep ticket types and price cards: duplicates are 409, a card in use cannot go', async () => {
    expect((await post(admin, '/api/admin/ticket-types', { name: 'adult' })).statusCode).toBe(409);
    const pinned = await createShowtimeFixture(app.database.db);
    await app.database.db
      .update(showtimes)
      .set({ priceCardId: types.card.id })
      .where(eq(showtimes.id, pinned.showtimeId));
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/admin/price-cards/${types.card.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({ code: 'in_use' });
    const bad = await post(admin, '/api/admin/price-cards', {
      name: 'Backwards',
      weekdays: [1],
      from: '18:00',
      to: '10:00',
      prices: [{ ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 100 }],
    });
    expect(bad.statusCode).toBe(400);
    // Editing a card replaces its days, window and prices at once, audited; a name another card has is a 409.
    const other = await post(admin, '/api/admin/price-cards', {
      name: 'Late nights',
      weekdays: [5, 6],
      from: '22:00',
      to: '24:00',
      prices: [{ ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 900 }],
    });
    expect(other.statusCode, other.body).toBe(201);
    const otherId = (other.json() as PriceCard).id;
    const edit = (payload: object, id = otherId) =>
      app.inject({ method: 'PUT', url: `/api/admin/price-cards/${id}`, headers: admin.headers, payload });
    const edited = await edit({
      name: 'Late nights',
      weekdays: [6],
      from: '21:30',
      to: '24:00',
      prices: [
        { ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 950 },
        { ticketTypeId: types.child, seatType: 'STANDARD', priceCents: 600 },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ weekdays: [6], from: '21:30', to: '24:00' });
    expect((edited.json() as PriceCard).prices.map((p) => p.priceCents).sort()).toEqual([600, 950]);
    const listed = (
      await app.inject({ method: 'GET', url: '/api/admin/price-cards', headers: admin.headers })
    ).json() as PriceCard[];
    expect(listed.find((c) => c.id === otherId)?.prices).toHaveLength(2);
    const audit = await app.inject({
      method: 'GET',
      url: '/api/admin/audit',
      headers: admin.headers,
    });
    expect(JSON.stringify(audit.json())).toContain('price_card.update');
    const clash = await edit({
      name: 'evenings',
      weekdays: [6],
      from: '21:30',
      to: '24:00',
      prices: [{ ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 950 }],
    });
    expect(clash.statusCode).toBe(409);
    const missing = await edit(
      {
        name: 'Nowhere',
        weekdays: [6],
        from: '21:30',
        to: '24:00',
        prices: [{ ticketTypeId: types.adult, seatType: 'STANDARD', priceCents: 950 }],
      },
      '00000000-0000-4000-8000-000000000000',
    );
    expect(missing.statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/api/admin/price-cards/${otherId}`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(200);

    const off = await app.inject({
      method: 'PUT',
      url: `/api/admin/ticket-types/${types.child}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(off.json()).toMatchObject({ name: 'Child', active: false });
    const prices = (
      await app.inject({ method: 'GET', url: `/api/showtimes/${show.showtimeId}/prices` })
    ).json() as ShowtimePrices;
    expect(prices.ticketTypes.map((x) => x.name)).toEqual(['Adult']);
    await app.inject({
      method: 'PUT',
      url: `/api/admin/ticket-types/${types.child}`,
      headers: admin.headers,
      payload: { active: true },
    });
  });
});

describe.skipIf(!postgresUrl)('a promo code capped at 100, 200 checkouts at once, on PostgreSQL', () => {
  it('discounts exactly 100 sessions and refuses the other 100 with a reason', async () => {
    const t = await createTestApp('postgres', { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    try {
      const admin = await signedInAdmin(t.app);
      await setUpPrices(t.app, admin);
      const show = await createShowtimeFixture(t.app.database.db, { rows: 10, cols: 20 });
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/promo-codes',
        headers: admin.headers,
        payload: { code: 'RUSH100', percentOff: 20, maxUses: 100 },
      });
      const customers = await Promise.all(Array.from({ length: 200 }, () => signedInUser(t.app)));
      const holds = await Promise.all(
        customers.map(async (c, i) => {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/showtimes/${show.showtimeId}/hold`,
            headers: c.headers,
            payload: { seatIds: [show.allSeatIds[i]] },
          });
          return res.json().bookingIds as string[];
        }),
      );
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const answers = await Promise.all(
        customers.map((c, i) =>
          fetch(`${base}/api/pay/checkout`, {
            method: 'POST',
            headers: { ...c.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ bookingIds: holds[i], promoCode: 'RUSH100' }),
          }).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { discountCents?: number; code?: string },
          })),
        ),
      );
      const discounted = answers.filter((a) => a.status === 200);
      expect(discounted).toHaveLength(100);
      expect(discounted.every((a) => a.body.discountCents === 260)).toBe(true);
      const refused = answers.filter((a) => a.status === 409);
      expect(refused).toHaveLength(100);
      expect(refused.every((a) => a.body.code === 'promo_unavailable')).toBe(true);
      const [promo] = await t.app.database.db.select().from(promoCodes).where(eq(promoCodes.code, 'RUSH100'));
      expect(promo!.uses).toBe(100);
      const sessions = await t.app.database.db.select().from(orders).where(eq(orders.promoCode, 'RUSH100'));
      expect(sessions).toHaveLength(100);
    } finally {
      await t.close();
    }
  }, 120_000);
});
