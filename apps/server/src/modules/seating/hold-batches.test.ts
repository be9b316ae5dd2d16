import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/index.ts';
import { queryRows } from '../../db/database.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, postgresUrl, signedInUser, type SignedIn, type TestApp } from '../../test/helpers.ts';
import { holdBatches, holdsTogether, poolOf, type HoldCall } from './hold-batches.ts';
import type { HoldRow } from './seating.service.ts';

if (!postgresUrl)
  console.warn('hold-batches.test.ts skipped: it needs a real PostgreSQL (set TEST_DATABASE_URL).');

const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };

describe.skipIf(!postgresUrl)('holds sent together on real PostgreSQL (decision 062)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp('postgres', QUIET);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  const callFor = (show: ShowtimeFixture, user: SignedIn, seatIds: string[]): HoldCall => ({
    showtimeId: show.showtimeId,
    userId: user.id,
    seatIds: [...seatIds].sort(),
    minutes: 10,
    maxLive: 10,
    maxUser: 40,
    address: null,
    maxAddress: 60,
    accessibleReleaseMinutes: 60,
  });

  it('runs each hold of a call as a hold alone, in order and in a transaction of its own; one that raised runs alone', async () => {
    const show = await createShowtimeFixture(t.database.db, { rows: 1, cols: 6 });
    const [s1, s2, s3, , s5] = show.seatIds[0]!;
    const [ann, bob, cy] = await Promise.all([
      signedInUser(t.app, { name: 'Ann' }),
      signedInUser(t.app, { name: 'Bob' }),
      signedInUser(t.app, { name: 'Cy' }),
    ]);
    const ranAlone: HoldCall[] = [];
    const hold = holdsTogether(poolOf(t.database.db)!, async (call) => {
      ranAlone.push(call);
      throw new Error(`ran alone with ${call.seatIds.length} seats`);
    });
    const before = { ...holdBatches };

    // Asked in the same turn: one call. Bob's second seat is Ann's, asked for first; Cy's first hold asks for no
    // seat at all, which hold_seats does not take (it raises).
    const [annHeld, bobRefused, cyEmpty, cyHeld] = await Promise.allSettled([
      hold(callFor(show, ann, [s1!, s2!])),
      hold(callFor(show, bob, [s2!, s3!])),
      hold(callFor(show, cy, [])),
      hold(callFor(show, cy, [s5!])),
    ]);

    expect(holdBatches.calls - before.calls).toBe(1);
    expect(holdBatches.holds - before.holds).toBe(4);
    const rows = (r: PromiseSettledResult<HoldRow[]>) => (r.status === 'fulfilled' ? r.value : []);
    expect(rows(annHeld).map((r) => [r.outcome, r.seatId])).toEqual(
      [s1, s2].sort().map((seat) => ['held', seat]),
    );
    const expiresAt = rows(annHeld)[0]!.expiresAt!;
    expect(expiresAt).toBeInstanceOf(Date);
    expect(Math.abs(expiresAt.getTime() - (Date.now() + 10 * 60_000))).toBeLessThan(60_000);
    expect(rows(bobRefused)).toEqual([
      { outcome: 'seat_unavailable', id: null, seatId: null, expiresAt: null, detail: JSON.stringify([s2]) },
    ]);
    expect(cyEmpty).toEqual({ status: 'rejected', reason: new Error('ran alone with 0 seats') });
    expect(ranAlone.map((c) => c.seatIds)).toEqual([[]]);
    expect(rows(cyHeld).map((r) => [r.outcome, r.seatId])).toEqual([['held', s5]]);

    // Bob's refused hold kept nothing; Ann's two seats were one transaction, Cy's another.
    const made = await queryRows<{ user_id: string; seat_id: string; tx: string }>(
      t.database.db,
      sql`select user_id, seat_id, xmin::text as tx from bookings where showtime_id = ${show.showtimeId}`,
    );
    expect(made.map((b) => b.user_id).sort()).toEqual([ann.id, ann.id, cy.id].sort());
    const txOf = (userId: string) => new Set(made.filter((b) => b.user_id === userId).map((b) => b.tx));
    expect(txOf(ann.id).size).toBe(1);
    expect([...txOf(cy.id)]).not.toContain([...txOf(ann.id)][0]);
  });

  it('a rush over HTTP: holds go out together, no seat is held twice, and every answer is what the database did', async () => {
    const show = await createShowtimeFixture(t.database.db, { rows: 2, cols: 10 });
    const racers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signedInUser(t.app, { name: `Racer ${i}` })),
    );
    const before = holdBatches.calls;
    // Each asks for two seats side by side, most of them wanted by several others.
    const asks = racers.map((user, i) => {
      const row = show.seatIds[i % 2]!;
      const from = (i * 7) % 9;
      return { user, seatIds: [row[from]!, row[from + 1]!] };
    });
    const answers = await Promise.all(
      asks.map(async ({ user, seatIds }) => {
        const res = await fetch(`${base}/api/showtimes/${show.showtimeId}/hold`, {
          method: 'POST',
          headers: { ...user.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ seatIds }),
        });
        return {
          user,
          seatIds,
          status: res.status,
          body: (await res.json()) as { bookingIds?: string[]; code?: string; seatIds?: string[] },
        };
      }),
    );

    expect(holdBatches.calls).toBeGreaterThan(before);
    expect(answers.map((a) => a.status).filter((s) => s !== 201 && s !== 409)).toEqual([]);
    const live = await t.database.db
      .select({ id: bookings.id, userId: bookings.userId, seatId: bookings.seatId })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, show.showtimeId), eq(bookings.status, 'HELD')));
    // No seat twice.
    expect(new Set(live.map((b) => b.seatId)).size).toBe(live.length);
    const holderOf = new Map(live.map((b) => [b.seatId, b.userId]));
    const won = answers.filter((a) => a.status === 201);
    expect(won.length).toBeGreaterThan(0);
    // Every hold acknowledged is in the database, whole, as its customer's; nothing else is.
    expect(live.length).toBe(won.length * 2);
    for (const a of won) {
      const held = await t.database.db
        .select({ userId: bookings.userId, seatId: bookings.seatId })
        .from(bookings)
        .where(inArray(bookings.id, a.body.bookingIds!));
      expect(held.map((b) => b.seatId).sort()).toEqual([...a.seatIds].sort());
      expect(held.every((b) => b.userId === a.user.id)).toBe(true);
    }
    // Every refusal names seats of its own hold that someone else holds.
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.code).toBe('seat_unavailable');
      expect(a.body.seatIds!.length).toBeGreaterThan(0);
      for (const seat of a.body.seatIds!) {
        expect(a.seatIds).toContain(seat);
        expect(holderOf.get(seat)).toBeDefined();
        expect(holderOf.get(seat)).not.toBe(a.user.id);
      }
    }
  });
});
