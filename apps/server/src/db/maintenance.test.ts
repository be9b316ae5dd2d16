import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createShowtimeFixture } from '../test/fixtures.ts';
import { createTestApp, signedInUser, type SignedIn, type TestApp } from '../test/helpers.ts';
import { queryRows } from './database.ts';
import { checkpointEmbeddedDatabase, maintainEmbeddedDatabase } from './maintenance.ts';

interface TableStats {
  live: number;
  dead: number;
  vacuumed: boolean;
  analyzed: boolean;
}

// The embedded engine has no autovacuum: a table keeps its dead rows and its first statistics until the server's
// own maintenance pass (what autovacuum would have done on a PostgreSQL server) deals with them.
describe('maintenance of the embedded engine', () => {
  let t: TestApp;
  let customer: SignedIn;

  beforeAll(async () => {
    t = await createTestApp('pglite', { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    customer = await signedInUser(t.app, { name: 'Churning Chris' });
  });
  afterAll(async () => {
    await t.close();
  });

  // PostgreSQL publishes a backend's table counters when it goes idle, at most once a second (the real pass runs
  // once a minute): a test asks for them at once.
  const publishCounters = async () => {
    await t.app.database.db.execute(sql`select pg_stat_force_next_flush()`);
    await t.app.database.db.execute(sql`select 1`);
  };

  const bookingStats = async (): Promise<TableStats> => {
    await publishCounters();
    const [stats] = await queryRows<TableStats>(
      t.app.database.db,
      sql`select n_live_tup::int as live, n_dead_tup::int as dead,
                 last_vacuum is not null as vacuumed, last_analyze is not null as analyzed
            from pg_stat_user_tables where relname = 'bookings'`,
    );
    return stats!;
  };

  const holdAndCancel = async (showtimeId: string, seatIds: string[]) => {
    const held = await t.app.inject({
      method: 'POST',
      url: `/api/showtimes/${showtimeId}/hold`,
      headers: customer.headers,
      payload: { seatIds },
    });
    expect(held.statusCode).toBe(201);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: '/api/showtimes/bookings/cancel',
      headers: customer.headers,
      payload: { bookingIds: held.json().bookingIds },
    });
    expect(cancelled.json()).toMatchObject({ cancelled: seatIds.length });
  };

  it('vacuums and analyzes the bookings once holds have come and gone, then leaves them alone', async () => {
    const f = await createShowtimeFixture(t.app.database.db, { rows: 10, cols: 10 });
    // A customer changing their mind over and over: every cancelled hold leaves a dead row behind.
    for (let round = 0; round < 10; round++) await holdAndCancel(f.showtimeId, f.seatIds[round]!);
    const before = await bookingStats();
    expect(before.dead).toBeGreaterThanOrEqual(100);
    expect(before.vacuumed).toBe(false);

    const pass = await maintainEmbeddedDatabase(t.app.database.db);
    expect(pass.vacuumed).toContain('bookings');
    const after = await bookingStats();
    expect(after).toMatchObject({ dead: 0, vacuumed: true, analyzed: true });
    expect(after.live).toBe(before.live);

    // Nothing new to do, and the seats are still there to be had.
    await publishCounters();
    expect(await maintainEmbeddedDatabase(t.app.database.db)).toMatchObject({
      vacuumed: expect.not.arrayContaining(['bookings']),
      analyzed: expect.not.arrayContaining(['bookings']),
    });
    await holdAndCancel(f.showtimeId, f.seatIds[0]!);
  });

  it('analyzes a table that only grew, without vacuuming it', async () => {
    const f = await createShowtimeFixture(t.app.database.db, { rows: 12, cols: 10 });
    await publishCounters();
    const pass = await maintainEmbeddedDatabase(t.app.database.db);
    expect(pass.analyzed).toContain('seats');
    expect(pass.vacuumed).not.toContain('seats');
    expect(f.allSeatIds).toHaveLength(120);
  });

  it('checkpoints: the redo point moves past the changes made since the last one', async () => {
    const db = t.app.database.db;
    const redo = async () =>
      (
        await queryRows<{ lsn: string }>(db, sql`select redo_lsn::text as lsn from pg_control_checkpoint()`)
      )[0]!.lsn;
    const lsn = async () =>
      (await queryRows<{ lsn: string }>(db, sql`select pg_current_wal_lsn()::text as lsn`))[0]!.lsn;
    const before = await redo();
    await createShowtimeFixture(db, { rows: 5, cols: 5 });
    const written = await lsn();
    await checkpointEmbeddedDatabase(db);
    const after = await redo();
    const asNumber = (l: string) => {
      const [hi, lo] = l.split('/');
      return BigInt(`0x${hi}`) * 2n ** 32n + BigInt(`0x${lo}`);
    };
    expect(asNumber(after)).toBeGreaterThan(asNumber(before));
    expect(asNumber(after)).toBeGreaterThanOrEqual(asNumber(written));
  });
});
