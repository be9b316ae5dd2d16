import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { giftCardEntries, giftCards, orderPayments, orders } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, postgresUrl, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';
import { expireStaleCheckouts } from '../payments/payment-events.ts';
import { giveCard } from '../../test/gift-cards.ts';

if (!postgresUrl)
  console.warn('gift-cards.race.test.ts skipped: races need a real PostgreSQL (set TEST_DATABASE_URL).');

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };
const PRICE = 1200;
const HOLDS = 5000; // four tickets and 200 of a fifth

// A card never goes below zero (DESIGN §7.3): real requests at once against PostgreSQL, each on its own connection.
describe.skipIf(!postgresUrl)('gift card races on real PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  let show: ShowtimeFixture;

  const post = async (path: string, body: unknown, who: SignedIn) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    t = await createTestApp('postgres', QUIET);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    show = await createShowtimeFixture(t.app.database.db, { priceCents: PRICE, rows: 5, cols: 10 });
  });
  afterAll(() => t.close());

  it('20 checkouts at once redeeming one card for more than it holds take at most its balance in all, and give it back when they expire', async () => {
    const card = await giveCard(t.app, HOLDS);
    const customers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signedInUser(t.app, { name: `Racer ${i}` })),
    );
    // Each holds one seat (1200), so 20 of them ask 24,000 of a card holding 5,000.
    const held = await Promise.all(
      customers.map(async (c, i) => {
        const res = await post(
          `/api/showtimes/${show.showtimeId}/hold`,
          { seatIds: [show.seatIds[i % 5]![Math.floor(i / 5)]!] },
          c,
        );
        expect(res.status).toBe(201);
        return res.body.bookingIds as string[];
      }),
    );
    const results = await Promise.all(
      customers.map((c, i) =>
        post('/api/pay/checkout', { bookingIds: held[i], redeem: [{ code: card.shown }] }, c),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('gift_card_empty');
    }
    const taken = ok.reduce(
      (sum, r) => sum + (r.body.giftCards as { amountCents: number }[])[0]!.amountCents,
      0,
    );
    expect(taken).toBe(HOLDS);
    expect(ok).toHaveLength(5); // 4 × 1200 + 200
    const [row] = await t.app.database.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(row!.balanceCents).toBe(0);
    const pending = await t.app.database.db
      .select({ cents: sql<number>`sum(${orderPayments.amountCents})::int` })
      .from(orderPayments)
      .where(eq(orderPayments.giftCardId, card.id));
    expect(Number(pending[0]!.cents)).toBe(HOLDS);
    const entries = await t.app.database.db
      .select()
      .from(giftCardEntries)
      .where(eq(giftCardEntries.giftCardId, card.id));
    expect(entries.reduce((sum, e) => sum + e.amountCents, 0)).toBe(0);
    expect(entries.every((e) => e.balanceAfterCents >= 0)).toBe(true);

    // Four were paid wholly by the card at once (no provider); the fifth waits for 1000 more by card. Nobody pays
    // it: the sweeper closes it, and its 200 go back to the card.
    const paid = await t.app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.provider, 'none'));
    expect(Number(paid[0]!.n)).toBe(4);
    await t.app.database.db
      .update(orders)
      .set({ expiresAt: sql`now() - interval '10 minutes'` })
      .where(eq(orders.status, 'OPEN'));
    await expireStaleCheckouts({ ...t.app.deps, providers: t.app.paymentProviders });
    const [after] = await t.app.database.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(after!.balanceCents).toBe(HOLDS - 4 * PRICE);
  });

  it('paying and expiring the same order at once: the card is charged once or given back once, never both', async () => {
    for (let round = 0; round < 5; round++) {
      const card = await giveCard(t.app, 1000);
      const customer = await signedInUser(t.app, { name: `Payer ${round}` });
      const hold = await post(
        `/api/showtimes/${show.showtimeId}/hold`,
        { seatIds: [show.seatIds[4]![5 + round]!] },
        customer,
      );
      const started = await post(
        '/api/pay/checkout',
        { bookingIds: hold.body.bookingIds, redeem: [{ code: card.code }] },
        customer,
      );
      expect(started.status).toBe(200);
      const sessionId = String(started.body.sessionId);
      await Promise.all([
        fetch(`${base}/api/pay/local/${sessionId}/pay`, { method: 'POST', redirect: 'manual' }),
        fetch(`${base}/api/pay/local/${sessionId}/cancel`, { method: 'POST', redirect: 'manual' }),
      ]);
      const [order] = await t.app.database.db.select().from(orders).where(eq(orders.id, sessionId));
      const [row] = await t.app.database.db.select().from(giftCards).where(eq(giftCards.id, card.id));
      expect(row!.balanceCents).toBe(order!.status === 'PAID' ? 0 : 1000);
      const entries = await t.app.database.db
        .select()
        .from(giftCardEntries)
        .where(eq(giftCardEntries.giftCardId, card.id));
      expect(entries.reduce((sum, e) => sum + e.amountCents, 0)).toBe(row!.balanceCents);
    }
  });
});
