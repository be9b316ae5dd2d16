import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createShowtimeFixture } from '../test/fixtures.ts';
import { createTestDatabase, engines, type TestDatabase } from '../test/helpers.ts';
import { bookings, users } from './schema/index.ts';

// Bookings, orders and order lines take time-ordered keys (UUID version 7, migration 0024), so a year of them gets
// new keys at the end of each primary key rather than on random pages (decision 028).
describe.each(engines)('new keys on %s', (engine) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
  });
  afterAll(() => testDb?.drop());

  it('are version 7 UUIDs in the order they were made, with their random part', async () => {
    const db = testDb.database.db;
    const show = await createShowtimeFixture(db, { rows: 1, cols: 3 });
    const [user] = await db
      .insert(users)
      .values({ name: 'Key', email: 'keys@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    const ids: string[] = [];
    for (const seatId of show.allSeatIds) {
      const [row] = await db
        .insert(bookings)
        .values({
          showtimeId: show.showtimeId,
          seatId,
          userId: user!.id,
          status: 'HELD',
          expiresAt: sql`now() + interval '10 minutes'`,
          priceCents: 1000,
        })
        .returning({ id: bookings.id });
      ids.push(row!.id);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    // The first 48 bits are the time in milliseconds.
    const made = parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(made - Date.now())).toBeLessThan(60_000);
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(3);
  });
});
