import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from './db/database.ts';
import { createTestApp, engines, json, signedInUser, type TestApp } from './test/helpers.ts';
import { createShowtimeFixture } from './test/fixtures.ts';
import { WARM_UP, warmUp } from './warm-up.ts';

const TABLES = ['halls', 'seats', 'movies', 'showtimes', 'users', 'sessions', 'bookings', 'audit_log'];

async function counts(t: TestApp): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ${sql.identifier(table)}`,
    );
    found[table] = row!.n;
  }
  return found;
}

describe.each(engines)('the warm-up before listening on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it('seats its customers in a hall of its own and leaves no trace in the database', async () => {
    const customer = await signedInUser(t.app);
    const show = await createShowtimeFixture(t.database.db, { rows: 3, cols: 6 });
    const before = await counts(t);
    const events: string[] = [];
    t.app.events.subscribe('seatsChanged', (u) => events.push(u.showtimeId));

    const report = await warmUp(t.app);

    expect(report).toMatchObject({ seated: WARM_UP.customers, ms: expect.any(Number) });
    expect(await counts(t)).toEqual(before);
    // Nothing was told to the app's own seat maps and sockets.
    expect(events).toEqual([]);
    // The app serves as before: a customer's best available and hold.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/showtimes/${show.showtimeId}/best-available`,
      headers: customer.headers,
      payload: { count: 2, hold: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).seatIds).toHaveLength(2);
  });
});
