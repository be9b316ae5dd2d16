import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  GIFT_CARD_ALPHABET,
  formatGiftCardCode,
  normalizeGiftCardCode,
  type GiftCardBalance,
  type Order,
  type Quote,
} from '@cinema/contract';
import { giftCardEntries, giftCards, orderPayments, orders } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  newestMail,
  signedInStaff,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { holdSeats } from '../../test/purchase.ts';
import { fulfilCheckout } from '../payments/fulfilment.service.ts';
import { expireStaleCheckouts } from '../payments/payment-events.ts';
import { giveCard } from '../../test/gift-cards.ts';
import { newGiftCardCode } from './gift-cards.service.ts';

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };
const PRICE = 1200;

describe('gift card codes', () => {
  it('are 16 characters of the unambiguous alphabet, 80 random bits, never sequential', () => {
    const codes = Array.from({ length: 2000 }, () => newGiftCardCode());
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(normalizeGiftCardCode(formatGiftCardCode(code).toLowerCase())).toBe(code);
    }
    expect(GIFT_CARD_ALPHABET).toHaveLength(32); // 16 × 5 bits = 80 bits
    // Every position takes every character: nothing is counted up or fixed.
    for (let i = 0; i < 16; i++) expect(new Set(codes.map((c) => c[i])).size).toBe(32);
    // Two codes drawn one after the other share no more than chance would make them.
    const alike = codes.slice(1).filter((c, i) => c.slice(0, 4) === codes[i]!.slice(0, 4));
    expect(alike.length).toBeLessThan(3);
    expect(formatGiftCardCode('ABCDEFGHJKMNPQRS')).toBe('ABCD-EFGH-JKMN-PQRS');
    // Read leniently: O for zero, I and L for one, spaces and dashes.
    expect(normalizeGiftCardCode('abcd efgh-jkmn-pqOI')).toBe('ABCDEFGHJKMNPQ01');
    expect(normalizeGiftCardCode('ABCD-EFGH-JKMN-PQU1')).toBeNull();
    expect(normalizeGiftCardCode('ABCD')).toBeNull();
  });
});

describe.each(engines)('gift cards on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: SignedIn;
  let staff: SignedIn;
  let show: ShowtimeFixture;
  let nextRow = 0;

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    alice = await signedInUser(app, { name: 'Alice' });
    staff = await signedInStaff(app, 'Counter one');
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 16, cols: 6 });
  });
  afterAll(() => t.close());

  /** Fresh seats each time: `n` seats of a row nobody used yet. */
  const seats = (n: number) => show.seatIds[nextRow++]!.slice(0, n);
  const post = (url: string, payload: object, who: SignedIn = alice) =>
    app.inject({ method: 'POST', url, headers: who.headers, payload });
  const balance = async (code: string) =>
    (
      await app.database.db
        .select()
        .from(giftCards)
        .where(eq(giftCards.code, normalizeGiftCardCode(code)!))
    )[0]!.balanceCents;
  const ledger = async (id: string) =>
    app.database.db
      .select({
        kind: giftCardEntries.kind,
        amountCents: giftCardEntries.amountCents,
        after: giftCardEntries.balanceAfterCents,
      })
      .from(giftCardEntries)
      .where(eq(giftCardEntries.giftCardId, id))
      .orderBy(asc(giftCardEntries.createdAt), asc(giftCardEntries.id));
  const paymentsOf = (orderId: string) =>
    app.database.db
      .select({
        method: orderPayments.method,
        status: orderPayments.status,
        amountCents: orderPayments.amountCents,
      })
      .from(orderPayments)
      .where(eq(orderPayments.orderId, orderId))
      .orderBy(asc(orderPayments.createdAt), asc(orderPayments.id));
  const pay = (sessionId: string) => app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
  const myOrder = async (ref: string) =>
    (
      await app.inject({ method: 'GET', url: `/api/me/orders/${ref}`, headers: alice.headers })
    ).json() as Order;

  it('GET /api/gift-cards/{code}: balance, currency and expiry, however the code is typed; 404 and 400 otherwise', async () => {
    const card = await giveCard(app, 5000);
    const res = await app.inject({ method: 'GET', url: `/api/gift-cards/${card.shown.toLowerCase()}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as GiftCardBalance;
    expect(body).toMatchObject({ code: card.shown, balanceCents: 5000, currency: 'USD', status: 'active' });
    // GIFT_CARD_MONTHS (60) from now.
    const years = (new Date(body.expiresAt).getTime() - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(4.95);
    expect(years).toBeLessThan(5.05);
    expect(res.headers['cache-control']).toBe('private, no-store');

    const unknown = await app.inject({ method: 'GET', url: `/api/gift-cards/${newGiftCardCode()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'No gift card has this code' });
    const spanish = await app.inject({
      method: 'GET',
      url: `/api/gift-cards/${newGiftCardCode()}`,
      headers: { 'accept-language': 'es' },
    });
    expect(spanish.json()).toMatchObject({ error: 'Ninguna tarjeta regalo tiene este código' });
    const bad = await app.inject({ method: 'GET', url: '/api/gift-cards/not-a-code' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/16 characters/);
  });

  it('pays part of a checkout with a card and the rest by card; the quote tells it first', async () => {
    const card = await giveCard(app, 1500);
    const bookingIds = await holdSeats(app, alice, show.showtimeId, seats(2));
    const quote = await post('/api/pay/quote', { bookingIds, redeem: [{ code: card.shown }] });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      totalCents: 2 * PRICE,
      giftCards: [{ code: card.shown, amountCents: 1500, balanceAfterCents: 0 }],
      dueCents: 2 * PRICE - 1500,
    } satisfies Partial<Quote>);
    expect(await balance(card.code)).toBe(1500); // a quote reserves nothing

    const res = await post('/api/pay/checkout', { bookingIds, redeem: [{ code: card.code.toLowerCase() }] });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json() as { sessionId: string; orderRef: string; url: string; dueCents: number };
    expect(started.dueCents).toBe(2 * PRICE - 1500);
    expect(started.url).toContain('/api/pay/local/');
    expect(await balance(card.code)).toBe(0); // reserved while the order is open
    expect(await paymentsOf(started.sessionId)).toEqual([
      { method: 'GIFT_CARD', status: 'PENDING', amountCents: 1500 },
    ]);
    // The local provider's page charges what is left.
    const page = await app.inject({ method: 'GET', url: `/api/pay/local/${started.sessionId}` });
    expect(page.body).toContain('9.00');

    expect((await pay(started.sessionId)).statusCode).toBe(303);
    expect(await paymentsOf(started.sessionId)).toEqual([
      { method: 'GIFT_CARD', status: 'PAID', amountCents: 1500 },
      { method: 'CARD', status: 'PAID', amountCents: 2 * PRICE - 1500 },
    ]);
    const order = await myOrder(started.orderRef);
    expect(order.status).toBe('paid');
    expect(order.lines.every((l) => l.status === 'confirmed')).toBe(true);
    expect(await ledger(card.id)).toEqual([
      { kind: 'SOLD', amountCents: 1500, after: 1500 },
      { kind: 'REDEEMED', amountCents: -1500, after: 0 },
    ]);
  });

  it('pays a whole order with two cards and no provider, leaving the rest on the second card', async () => {
    const first = await giveCard(app, 1000);
    const second = await giveCard(app, 5000);
    const bookingIds = await holdSeats(app, alice, show.showtimeId, seats(2));
    const res = await post('/api/pay/checkout', {
      bookingIds,
      redeem: [{ code: first.shown }, { code: second.shown }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json() as { sessionId: string; orderRef: string; url: string };
    expect(started.url).toContain('/checkout/success');
    const [row] = await app.database.db.select().from(orders).where(eq(orders.id, started.sessionId));
    expect(row).toMatchObject({ status: 'PAID', provider: 'none' });
    expect(await paymentsOf(started.sessionId)).toEqual([
      { method: 'GIFT_CARD', status: 'PAID', amountCents: 1000 },
      { method: 'GIFT_CARD', status: 'PAID', amountCents: 2 * PRICE - 1000 },
    ]);
    expect(await balance(first.code)).toBe(0);
    expect(await balance(second.code)).toBe(5000 - (2 * PRICE - 1000));
    expect((await myOrder(started.orderRef)).payments).toEqual([
      { method: 'GIFT_CARD', amountCents: 1000, refundedCents: 0 },
      { method: 'GIFT_CARD', amountCents: 2 * PRICE - 1000, refundedCents: 0 },
    ]);
  });

  it('refuses cards that cannot pay, with a reason, and reserves nothing', async () => {
    const bookingIds = await holdSeats(app, alice, show.showtimeId, seats(1));
    const refused = async (redeem: unknown, status: number, code?: string) => {
      const res = await post('/api/pay/checkout', { bookingIds, redeem });
      expect(res.statusCode, res.body).toBe(status);
      if (code) expect(res.json().code).toBe(code);
      return res.json() as { error: string };
    };
    const unknown = newGiftCardCode();
    expect((await refused([{ code: unknown }], 404, 'gift_card_not_found')).error).toBe(
      `No gift card has the code ${formatGiftCardCode(unknown)}`,
    );
    const empty = await giveCard(app, 100);
    await app.database.db.update(giftCards).set({ balanceCents: 0 }).where(eq(giftCards.id, empty.id));
    await refused([{ code: empty.code }], 409, 'gift_card_empty');
    const expired = await giveCard(app, 100);
    await app.database.db
      .update(giftCards)
      .set({ expiresAt: sql`now() - interval '1 day'` })
      .where(eq(giftCards.id, expired.id));
    await refused([{ code: expired.code }], 409, 'gift_card_expired');
    const voided = await giveCard(app, 100);
    await app.database.db.update(giftCards).set({ status: 'VOIDED' }).where(eq(giftCards.id, voided.id));
    await refused([{ code: voided.code }], 409, 'gift_card_voided');
    const big = await giveCard(app, 5000);
    const spare = await giveCard(app, 5000);
    const notNeeded = await refused([{ code: big.code }, { code: spare.code }], 409, 'gift_card_not_needed');
    expect(notNeeded.error).toBe(`This order is already paid in full without the gift card ${spare.shown}`);
    await refused([{ code: big.code }, { code: big.shown }], 400);
    await refused([{ code: 'nonsense' }], 400);
    // Nothing was taken from any of them, and no order was left open.
    expect(await balance(big.code)).toBe(5000);
    expect(await balance(spare.code)).toBe(5000);
    const german = await app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: { ...alice.headers, 'accept-language': 'de' },
      payload: { bookingIds, redeem: [{ code: expired.code }] },
    });
    expect(german.json().error).toBe(`Die Geschenkkarte ${expired.shown} ist abgelaufen`);
  });

  it('an order that expires, is replaced or is cancelled unpaid gives its reservation back', async () => {
    const card = await giveCard(app, 1000);
    const bookingIds = await holdSeats(app, alice, show.showtimeId, seats(1));
    const first = (await post('/api/pay/checkout', { bookingIds, redeem: [{ code: card.code }] })).json() as {
      sessionId: string;
    };
    expect(await balance(card.code)).toBe(0);
    // A new checkout of the same holds replaces the first (closeOpenCheckouts): its reservation is back before the
    // new one takes it again.
    const again = await post('/api/pay/checkout', { bookingIds, redeem: [{ code: card.code }] });
    expect(again.statusCode, again.body).toBe(200);
    const second = again.json() as { sessionId: string };
    expect(await balance(card.code)).toBe(0);
    expect(await paymentsOf(first.sessionId)).toEqual([
      { method: 'GIFT_CARD', status: 'VOIDED', amountCents: 1000 },
    ]);
    // The sweeper closes the second after its payment window.
    await app.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '10 minutes'` })
      .where(eq(orders.id, second.sessionId));
    expect(
      await expireStaleCheckouts({ ...app.deps, providers: app.paymentProviders }),
    ).toBeGreaterThanOrEqual(1);
    expect(await balance(card.code)).toBe(1000);
    expect((await ledger(card.id)).map((e) => [e.kind, e.amountCents, e.after])).toEqual([
      ['SOLD', 1000, 1000],
      ['REDEEMED', -1000, 0],
      ['RELEASED', 1000, 1000],
      ['REDEEMED', -1000, 0],
      ['RELEASED', 1000, 1000],
    ]);

    // Cancelled on the provider's page.
    const held = await holdSeats(app, alice, show.showtimeId, seats(1));
    const third = (
      await post('/api/pay/checkout', { bookingIds: held, redeem: [{ code: card.code }] })
    ).json() as {
      sessionId: string;
    };
    expect(await balance(card.code)).toBe(0);
    const cancel = await app.inject({ method: 'POST', url: `/api/pay/local/${third.sessionId}/cancel` });
    expect(cancel.statusCode).toBe(303);
    expect(await balance(card.code)).toBe(1000);
  });

  it('a payment that arrives after the order closed takes the card again, or gives the provider’s money back', async () => {
    const deps = { ...app.deps, providers: app.paymentProviders };
    const closeLate = async (sessionId: string) => {
      await app.database.db
        .update(orders)
        .set({ expiresAt: sql`now() - interval '10 minutes'` })
        .where(eq(orders.id, sessionId));
      await expireStaleCheckouts(deps);
    };
    const card = await giveCard(app, 1000);
    const late = (
      await post('/api/pay/checkout', {
        bookingIds: await holdSeats(app, alice, show.showtimeId, seats(1)),
        redeem: [{ code: card.code }],
      })
    ).json() as { sessionId: string; orderRef: string };
    await closeLate(late.sessionId);
    expect(await balance(card.code)).toBe(1000);
    // The card still holds it: taken again, the seat sold.
    expect((await fulfilCheckout(deps, late.sessionId, { paymentId: null })).confirmed).toBe(1);
    expect(await balance(card.code)).toBe(0);
    expect((await myOrder(late.orderRef)).payments).toEqual([
      { method: 'GIFT_CARD', amountCents: 1000, refundedCents: 0 },
      { method: 'CARD', amountCents: PRICE - 1000, refundedCents: 0 },
    ]);

    // Voided meanwhile: nothing is delivered, and what the provider took goes back.
    const small = await giveCard(app, 500);
    const short = (
      await post('/api/pay/checkout', {
        bookingIds: await holdSeats(app, alice, show.showtimeId, seats(1)),
        redeem: [{ code: small.code }],
      })
    ).json() as { sessionId: string; orderRef: string };
    await closeLate(short.sessionId);
    await app.database.db.update(giftCards).set({ status: 'VOIDED' }).where(eq(giftCards.id, small.id));
    expect((await fulfilCheckout(deps, short.sessionId, { paymentId: null })).confirmed).toBe(0);
    const order = await myOrder(short.orderRef);
    expect(order.status).toBe('refunded');
    expect(order.payments).toEqual([
      { method: 'CARD', amountCents: PRICE - 500, refundedCents: PRICE - 500 },
    ]);
    expect(await balance(small.code)).toBe(500);
  });

  it('sells at the counter with a card and cash for the rest, or wholly by card', async () => {
    const card = await giveCard(app, 1000);
    const row = seats(2);
    const sale = await post(
      '/api/admin/box-office/sales',
      { showtimeId: show.showtimeId, seatIds: row, paymentMethod: 'cash', redeem: [{ code: card.shown }] },
      staff,
    );
    expect(sale.statusCode, sale.body).toBe(200);
    const [order] = await app.database.db.select().from(orders).where(eq(orders.ref, sale.json().ref));
    expect(await paymentsOf(order!.id)).toEqual([
      { method: 'GIFT_CARD', status: 'PAID', amountCents: 1000 },
      { method: 'CASH', status: 'PAID', amountCents: 2 * PRICE - 1000 },
    ]);
    expect(await balance(card.code)).toBe(0);
    const [entry] = (await ledger(card.id)).slice(-1);
    expect(entry).toEqual({ kind: 'REDEEMED', amountCents: -1000, after: 0 });

    const big = await giveCard(app, 10_000);
    const whole = await post(
      '/api/admin/box-office/sales',
      { showtimeId: show.showtimeId, seatIds: seats(1), paymentMethod: 'card', redeem: [{ code: big.code }] },
      staff,
    );
    expect(whole.statusCode, whole.body).toBe(200);
    const [paid] = await app.database.db.select().from(orders).where(eq(orders.ref, whole.json().ref));
    expect(await paymentsOf(paid!.id)).toEqual([{ method: 'GIFT_CARD', status: 'PAID', amountCents: PRICE }]);
    // A card that cannot pay refuses the sale: nothing sold.
    const refused = await post(
      '/api/admin/box-office/sales',
      {
        showtimeId: show.showtimeId,
        seatIds: seats(1),
        paymentMethod: 'cash',
        redeem: [{ code: card.code }],
      },
      staff,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('gift_card_empty');
  });

  it('a refund gives what a card paid back to that card (a ledger entry), the rest to the provider', async () => {
    const admin = await signedInUser(app, { role: 'ADMIN' });
    const card = await giveCard(app, 1000);
    const bookingIds = await holdSeats(app, alice, show.showtimeId, seats(2));
    const started = (
      await post('/api/pay/checkout', { bookingIds, redeem: [{ code: card.code }] })
    ).json() as {
      sessionId: string;
      orderRef: string;
    };
    expect((await pay(started.sessionId)).statusCode).toBe(303);
    const refund = await post(
      `/api/admin/orders/${started.orderRef}/refund`,
      { reason: 'Projector broke' },
      admin,
    );
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await balance(card.code)).toBe(1000);
    const entries = await ledger(card.id);
    expect(entries.at(-1)).toEqual({ kind: 'REFUNDED', amountCents: 1000, after: 1000 });
    const order = await myOrder(started.orderRef);
    expect(order.status).toBe('refunded');
    expect(order.payments).toEqual([
      { method: 'GIFT_CARD', amountCents: 1000, refundedCents: 1000 },
      { method: 'CARD', amountCents: 2 * PRICE - 1000, refundedCents: 2 * PRICE - 1000 },
    ]);
    expect(order.refunds.every((r) => r.status === 'succeeded')).toBe(true);
  });

  it('refunding one ticket credits the card with its share of that ticket, the rest to the provider', async () => {
    const admin = await signedInUser(app, { role: 'ADMIN' });
    // 1001 of 2400: each ticket was paid 500.5 by the card.
    const card = await giveCard(app, 1001);
    const bookingIds = await holdSeats(app, alice, show.showtimeId, seats(2));
    const started = (
      await post('/api/pay/checkout', { bookingIds, redeem: [{ code: card.code }] })
    ).json() as { sessionId: string; orderRef: string };
    expect((await pay(started.sessionId)).statusCode).toBe(303);

    const first = await post(
      `/api/admin/orders/${started.orderRef}/refund`,
      { bookingIds: [bookingIds[0]] },
      admin,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().refundedCents).toBe(PRICE);
    expect(await balance(card.code)).toBe(500);
    expect((await ledger(card.id)).at(-1)).toEqual({ kind: 'REFUNDED', amountCents: 500, after: 500 });
    // The card's holder sees it, newest first, without names or orders.
    const seen = (
      await app.inject({ method: 'GET', url: `/api/gift-cards/${card.code}` })
    ).json() as GiftCardBalance;
    expect(seen.history.map(({ at: _at, ...e }) => e)).toEqual([
      { kind: 'REFUNDED', amountCents: 500, balanceAfterCents: 500 },
      { kind: 'REDEEMED', amountCents: -1001, balanceAfterCents: 0 },
      { kind: 'SOLD', amountCents: 1001, balanceAfterCents: 1001 },
    ]);
    expect((await myOrder(started.orderRef)).payments).toEqual([
      { method: 'GIFT_CARD', amountCents: 1001, refundedCents: 500 },
      { method: 'CARD', amountCents: 2 * PRICE - 1001, refundedCents: PRICE - 500 },
    ]);

    // The second ticket: the card gets the rest of what it paid, the odd cent too.
    const second = await post(
      `/api/admin/orders/${started.orderRef}/refund`,
      { bookingIds: [bookingIds[1]] },
      admin,
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(await balance(card.code)).toBe(1001);
    expect((await ledger(card.id)).at(-1)).toEqual({ kind: 'REFUNDED', amountCents: 501, after: 1001 });
    const order = await myOrder(started.orderRef);
    expect(order.status).toBe('refunded');
    expect(order.payments).toEqual([
      { method: 'GIFT_CARD', amountCents: 1001, refundedCents: 1001 },
      { method: 'CARD', amountCents: 2 * PRICE - 1001, refundedCents: 2 * PRICE - 1001 },
    ]);
  });
});

describe.each(engines)('selling gift cards on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let alice: SignedIn;
  let staff: SignedIn;
  let admin: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    alice = await signedInUser(app, { name: 'Alice' });
    staff = await signedInStaff(app, 'Counter one');
    admin = await signedInUser(app, { role: 'ADMIN' });
    show = await createShowtimeFixture(app.database.db, { priceCents: PRICE, rows: 4, cols: 6 });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, who: SignedIn = alice) =>
    app.inject({ method: 'POST', url, headers: who.headers, payload });
  const myOrder = async (ref: string) =>
    (
      await app.inject({ method: 'GET', url: `/api/me/orders/${ref}`, headers: alice.headers })
    ).json() as Order;
  const cardsOf = (orderId: string) =>
    app.database.db.select().from(giftCards).where(eq(giftCards.orderId, orderId)).orderBy(asc(giftCards.id));

  async function buy(giftCardsToBuy: object[], bookingIds: string[] = []) {
    const res = await post('/api/pay/checkout', { bookingIds, giftCards: giftCardsToBuy });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json() as { sessionId: string; orderRef: string; totalCents: number };
    // The local provider's page lists each card bought, with its value, and the total.
    const page = (await app.inject({ method: 'GET', url: `/api/pay/local/${started.sessionId}` })).body;
    // In whatever language the buyer chose: the cards are the last list, before the total.
    const cents = (text: string) => Number(text.replace(/\D/g, ''));
    const list = [...page.matchAll(/<ul aria-label="[^"]*">([\s\S]*?)<\/ul>/g)].at(-1)![1]!;
    expect(
      [...list.matchAll(/<li><span>[^<]+<\/span><span>([^<]+)<\/span><\/li>/g)].map(([, a]) => cents(a!)),
    ).toEqual((giftCardsToBuy as { amountCents: number }[]).map((g) => g.amountCents));
    expect(cents(/<p class="total"><span>[^<]+<\/span><span>([^<]+)<\/span>/.exec(page)![1]!)).toBe(
      started.totalCents,
    );
    expect(
      (await app.inject({ method: 'POST', url: `/api/pay/local/${started.sessionId}/pay` })).statusCode,
    ).toBe(303);
    return started;
  }

  it('buys a card online for someone else: issued once paid, emailed to them with its code, QR and PDF', async () => {
    const quote = await post('/api/pay/quote', {
      bookingIds: [],
      giftCards: [{ amountCents: 5000, recipientEmail: 'Bob@Example.com', message: 'Happy birthday!' }],
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      totalCents: 5000,
      lines: [{ kind: 'GIFT_CARD', priceCents: 5000 }],
    });

    const started = await buy([
      { amountCents: 5000, recipientEmail: 'Bob@Example.com', message: 'Happy birthday!' },
    ]);
    expect(started.totalCents).toBe(5000);
    const [card] = await cardsOf(started.sessionId);
    expect(card).toMatchObject({
      initialCents: 5000,
      balanceCents: 5000,
      currency: 'USD',
      status: 'ACTIVE',
      recipientEmail: 'bob@example.com',
      message: 'Happy birthday!',
    });
    const order = await myOrder(started.orderRef);
    expect(order.status).toBe('paid');
    expect(order.lines).toEqual([
      expect.objectContaining({
        kind: 'GIFT_CARD',
        status: 'confirmed',
        priceCents: 5000,
        giftCard: {
          lineId: card!.lineId,
          code: formatGiftCardCode(card!.code),
          expiresAt: card!.expiresAt.toISOString(),
          recipientEmail: 'bob@example.com',
          message: 'Happy birthday!',
        },
      }),
    ]);
    const mail = await newestMail(app, 'bob@example.com', 'gift_card');
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Alice sent you a gift card of $50.00');
    expect(mail!.text).toContain(formatGiftCardCode(card!.code));
    expect(mail!.text).toContain('Happy birthday!');
    expect(mail!.html).toContain('cid:gift-card-qr');
    expect(mail!.attachments.map((a) => a.contentType)).toEqual(['image/png', 'application/pdf']);
    // The card works at once.
    const balance = await app.inject({ method: 'GET', url: `/api/gift-cards/${card!.code}` });
    expect(balance.json()).toMatchObject({ balanceCents: 5000, status: 'active' });
  });

  it('refuses amounts outside the range, and cards paying for cards', async () => {
    const low = await post('/api/pay/checkout', { bookingIds: [], giftCards: [{ amountCents: 100 }] });
    expect(low.statusCode).toBe(400);
    expect(low.json().error).toBe('A gift card is worth between 5.00 USD and 500.00 USD');
    const german = await app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: { ...alice.headers, 'accept-language': 'de' },
      payload: { bookingIds: [], giftCards: [{ amountCents: 100_000 }] },
    });
    expect(german.json().error).toBe('Eine Geschenkkarte ist zwischen 5.00 USD und 500.00 USD wert');
    const card = await giveCard(app, 2000);
    const laundering = await post('/api/pay/checkout', {
      bookingIds: [],
      giftCards: [{ amountCents: 1000 }],
      redeem: [{ code: card.code }],
    });
    expect(laundering.statusCode).toBe(400);
    expect(laundering.json().error).toBe('Gift cards cannot pay for gift cards');
    const nothing = await post('/api/pay/checkout', { bookingIds: [] });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error).toMatch(/No bookings given/);
  });

  it('refunding a purchase voids its card when unused, and is refused once the card was used', async () => {
    const unused = await buy([{ amountCents: 2500 }]);
    const refund = await post(`/api/admin/orders/${unused.orderRef}/refund`, {}, admin);
    expect(refund.statusCode, refund.body).toBe(200);
    const [voided] = await cardsOf(unused.sessionId);
    expect(voided).toMatchObject({ status: 'VOIDED', balanceCents: 0 });
    expect((await myOrder(unused.orderRef)).status).toBe('refunded');

    const used = await buy([{ amountCents: 2500 }]);
    const [card] = await cardsOf(used.sessionId);
    const held = await post(`/api/showtimes/${show.showtimeId}/hold`, { seatIds: [show.seatIds[0]![0]!] });
    const paying = await post('/api/pay/checkout', {
      bookingIds: held.json().bookingIds,
      redeem: [{ code: card!.code }],
    });
    expect(paying.statusCode, paying.body).toBe(200);
    const refused = await post(`/api/admin/orders/${used.orderRef}/refund`, {}, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'gift_card_used',
      error: `The gift card ${formatGiftCardCode(card!.code)} was already used: its purchase cannot be refunded`,
    });
    expect((await myOrder(used.orderRef)).status).toBe('paid');

    // Staff name one card by its line (the order's page does): refused once used, the card voided when not.
    const cardLine = async (ref: string) =>
      (
        (
          await app.inject({ method: 'GET', url: `/api/admin/orders/${ref}`, headers: admin.headers })
        ).json() as Order
      ).lines[0]!.giftCard!.lineId!;
    const usedLine = await cardLine(used.orderRef);
    const named = await post(
      `/api/admin/orders/${used.orderRef}/refund`,
      { giftCardLineIds: [usedLine] },
      admin,
    );
    expect(named.statusCode).toBe(409);
    expect(named.json()).toMatchObject({ code: 'gift_card_used' });
    const other = await buy([{ amountCents: 1500 }]);
    const wrong = await post(
      `/api/admin/orders/${other.orderRef}/refund`,
      { giftCardLineIds: [usedLine] },
      admin,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Some of these gift cards are not in this order');
    const one = await post(
      `/api/admin/orders/${other.orderRef}/refund`,
      { giftCardLineIds: [await cardLine(other.orderRef)] },
      admin,
    );
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ refundedCents: 1500, order: { status: 'refunded' } });
    expect((await cardsOf(other.sessionId))[0]).toMatchObject({ status: 'VOIDED', balanceCents: 0 });
  });

  it('sells a card at the counter without a showtime, with its code for printing, and seats with a card in one sale', async () => {
    const sale = await post(
      '/api/admin/box-office/sales',
      { seatIds: [], paymentMethod: 'cash', giftCards: [{ amountCents: 3000 }] },
      staff,
    );
    expect(sale.statusCode, sale.body).toBe(200);
    const order = sale.json() as Order;
    expect(order.totalCents).toBe(3000);
    const line = order.lines[0]!;
    expect(line.kind).toBe('GIFT_CARD');
    expect(line.giftCard?.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(order.payments).toEqual([{ method: 'CASH', amountCents: 3000, refundedCents: 0 }]);
    const balance = await app.inject({ method: 'GET', url: `/api/gift-cards/${line.giftCard!.code}` });
    expect(balance.json()).toMatchObject({ balanceCents: 3000 });
    // The printed card says until when it pays.
    expect(line.giftCard!.expiresAt).toBe((balance.json() as GiftCardBalance).expiresAt);

    const both = await post(
      '/api/admin/box-office/sales',
      {
        showtimeId: show.showtimeId,
        seatIds: [show.seatIds[1]![0]!],
        paymentMethod: 'card',
        giftCards: [{ amountCents: 2500, recipientEmail: 'carol@example.com' }],
      },
      staff,
    );
    expect(both.statusCode, both.body).toBe(200);
    expect((both.json() as Order).totalCents).toBe(PRICE + 2500);
    const mail = await newestMail(app, 'carol@example.com', 'gift_card');
    expect(mail?.subject).toBe('Your gift card of $25.00');
    const noShowtime = await post(
      '/api/admin/box-office/sales',
      { seatIds: [show.seatIds[1]![1]!], paymentMethod: 'cash' },
      staff,
    );
    expect(noShowtime.statusCode).toBe(400);
  });
});

describe.each(engines)('gift cards for staff on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let staff: SignedIn;
  let customer: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    app = t.app;
    admin = await signedInUser(app, { role: 'ADMIN' });
    staff = await signedInStaff(app, 'Counter one');
    customer = await signedInUser(app, { name: 'Dora' });
  });
  afterAll(() => t.close());

  const get = (url: string, who: SignedIn) => app.inject({ method: 'GET', url, headers: who.headers });

  it('finds a card by code or email, shows its ledger, voids it (audited) and tells the liability on a date', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/pay/checkout',
      headers: customer.headers,
      payload: { bookingIds: [], giftCards: [{ amountCents: 4000, recipientEmail: 'eve@example.com' }] },
    });
    const { sessionId, orderRef } = res.json() as { sessionId: string; orderRef: string };
    await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    const other = await giveCard(app, 1500);

    const byEmail = await get('/api/admin/gift-cards?q=EVE@example.com', staff);
    expect(byEmail.statusCode, byEmail.body).toBe(200);
    const [card] = byEmail.json().cards as { code: string; orderRef: string; balanceCents: number }[];
    expect(card).toMatchObject({
      orderRef,
      balanceCents: 4000,
      status: 'active',
      recipientEmail: 'eve@example.com',
    });
    expect((await get(`/api/admin/gift-cards?q=${customer.email}`, staff)).json().cards).toHaveLength(1);
    expect(
      (await get(`/api/admin/gift-cards?q=${card!.code.toLowerCase()}`, staff)).json().cards,
    ).toHaveLength(1);
    expect((await get('/api/admin/gift-cards?q=', staff)).statusCode).toBe(400);
    expect((await get('/api/admin/gift-cards?q=x', customer)).statusCode).toBe(403);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: app.config.timeZone }).format(new Date());
    const liability = await get(`/api/admin/gift-cards/liability?date=${today}`, admin);
    expect(liability.statusCode, liability.body).toBe(200);
    expect(liability.json()).toMatchObject({ outstandingCents: 5500, currency: 'USD' });
    expect(
      (await get('/api/admin/gift-cards/liability?date=2020-01-01', admin)).json().outstandingCents,
    ).toBe(0);
    expect((await get(`/api/admin/gift-cards/liability?date=${today}`, staff)).statusCode).toBe(403);

    const voided = await app.inject({
      method: 'POST',
      url: `/api/admin/gift-cards/${card!.code}/void`,
      headers: admin.headers,
      payload: { reason: 'Reported stolen' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    const ledger = voided.json() as { card: { status: string; balanceCents: number }; entries: object[] };
    expect(ledger.card).toMatchObject({ status: 'voided', balanceCents: 0 });
    expect(ledger.entries).toEqual([
      expect.objectContaining({
        kind: 'SOLD',
        amountCents: 4000,
        balanceAfterCents: 4000,
        orderRef,
        // Bought online: its buyer.
        by: customer.email,
      }),
      expect.objectContaining({
        kind: 'VOIDED',
        amountCents: -4000,
        balanceAfterCents: 0,
        by: admin.email,
        note: 'Reported stolen',
      }),
    ]);
    const again = await app.inject({
      method: 'POST',
      url: `/api/admin/gift-cards/${card!.code}/void`,
      headers: admin.headers,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    const audit = await get('/api/admin/audit?action=gift_card.void', admin);
    expect(JSON.stringify(audit.json())).toContain(card!.code);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/admin/gift-cards/${other.code}/void`,
          headers: staff.headers,
          payload: {},
        })
      ).statusCode,
    ).toBe(403);

    const csv = await get(`/api/admin/gift-cards/liability?date=${today}&format=csv`, admin);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.body.split('\r\n')).toEqual([
      'Code,Balance,Expires',
      expect.stringMatching(new RegExp(`^${other.shown},15.00,`)),
      'Total,15.00,',
    ]);
  });
});

describe('gift card lookups are rate limited', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { SWEEP_SECONDS: '3600' });
  });
  afterAll(() => t.close());

  it('per address, and per account for a signed-in caller', async () => {
    const { app } = t;
    const look = (headers: Record<string, string> = {}, ip = '203.0.113.7') =>
      app.inject({ method: 'GET', url: `/api/gift-cards/${newGiftCardCode()}`, headers, remoteAddress: ip });
    for (let i = 0; i < 20; i++) expect((await look()).statusCode).toBe(404);
    expect((await look()).statusCode).toBe(429);
    // Another address is not held back by the first…
    const bob = await signedInUser(app, { name: 'Bob' });
    for (let i = 0; i < 20; i++)
      expect((await look(bob.headers, `198.51.100.${i + 1}`)).statusCode).toBe(404);
    // …but an account that moved between addresses is.
    expect((await look(bob.headers, '198.51.100.99')).statusCode).toBe(429);
  });
});
