import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Product } from '@cinema/contract';
import { orderLines, products, stockReservations } from '../../db/schema/index.ts';
import {
  createTestApp,
  postgresUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

if (!postgresUrl)
  console.warn('concessions.race.test.ts skipped: races need a real PostgreSQL (set TEST_DATABASE_URL).');

// DESIGN §7.2: stock never oversells. Real requests at once over a real port, each on its own pool connection.
describe.skipIf(!postgresUrl)('concession stock races on real PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  let admin: SignedIn;

  const post = async (path: string, body: unknown, who: SignedIn) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const product = async (body: object) => {
    const res = await post('/api/admin/products', body, admin);
    expect(res.status).toBe(201);
    return res.body as unknown as Product;
  };
  const stockOf = async (id: string) =>
    (await t.app.database.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!
      .stock;
  const customers = (n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => signedInUser(t.app, { name: `Hungry ${i}` })));

  beforeAll(async () => {
    t = await createTestApp('postgres', { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedInAdmin(t.app);
  });
  afterAll(() => t.close());

  it('50 parallel checkouts for the last 10: exactly 10 sold, the other 40 answered 409 naming the item', async () => {
    const nachos = await product({ name: 'Nachos', category: 'Snacks', priceCents: 550, stock: 10 });
    const people = await customers(50);
    const answers = await Promise.all(
      people.map((who) =>
        post('/api/pay/checkout', { bookingIds: [], products: [{ productId: nachos.id, quantity: 1 }] }, who),
      ),
    );
    const sold = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(sold).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused)
      expect(r.body).toMatchObject({ code: 'sold_out', error: 'Sold out: Nachos', productIds: [nachos.id] });
    expect(await stockOf(nachos.id)).toBe(0);
    const held = await t.app.database.db
      .select()
      .from(stockReservations)
      .where(eq(stockReservations.productId, nachos.id));
    expect(held.reduce((sum, r) => sum + r.quantity, 0)).toBe(10);
    // Paying them all keeps exactly 10 sold.
    await Promise.all(
      sold.map((s) =>
        fetch(`${base}/api/pay/local/${String(s.body.sessionId)}/pay`, {
          method: 'POST',
          redirect: 'manual',
        }),
      ),
    );
    const lines = await t.app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orderLines)
      .where(eq(orderLines.productId, nachos.id));
    expect(Number(lines[0]!.n)).toBe(10);
  }, 120_000);

  it('combos and their components bought at once in any order: no deadlock, never below zero, every unit accounted for', async () => {
    const cola = await product({ name: 'Cola', category: 'Drinks', priceCents: 350, stock: 15 });
    const chips = await product({ name: 'Chips', category: 'Snacks', priceCents: 300, stock: 15 });
    const combo = await product({
      name: 'Duo',
      category: 'Combos',
      priceCents: 600,
      components: [
        { productId: cola.id, quantity: 1 },
        { productId: chips.id, quantity: 1 },
      ],
    });
    const people = await customers(40);
    const asks = people.map((who, i) =>
      post(
        '/api/pay/checkout',
        {
          bookingIds: [],
          products:
            i % 3 === 0
              ? [{ productId: combo.id, quantity: 1 }]
              : i % 3 === 1
                ? [
                    { productId: chips.id, quantity: 1 },
                    { productId: cola.id, quantity: 1 },
                  ]
                : [
                    { productId: cola.id, quantity: 1 },
                    { productId: chips.id, quantity: 1 },
                  ],
        },
        who,
      ),
    );
    const answers = await Promise.all(asks);
    const odd = answers.filter(
      (a) => !(a.status === 200 || (a.status === 409 && a.body.code === 'sold_out')),
    );
    expect(odd.map((a) => [a.status, a.body.code])).toEqual([]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(15);
    expect(await stockOf(cola.id)).toBe(0);
    expect(await stockOf(chips.id)).toBe(0);
    const held = await t.app.database.db
      .select()
      .from(stockReservations)
      .where(inArray(stockReservations.productId, [cola.id, chips.id]));
    expect(held.reduce((sum, r) => sum + r.quantity, 0)).toBe(30);
  }, 120_000);
});
