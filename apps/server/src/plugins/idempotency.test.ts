import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/database.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../test/fixtures.ts';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from '../test/helpers.ts';

describe.each(engines)('Idempotency-Key on hold and checkout on %s', (engine) => {
  let t: TestApp;
  let f: ShowtimeFixture;
  let cathy: SignedIn;
  let dave: SignedIn;
  let next = 0;
  const seat = () => f.allSeatIds[(next += 2)]!;

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off' });
    f = await createShowtimeFixture(t.app.database.db, { rows: 6, cols: 10 });
    cathy = await signedInUser(t.app, { name: 'Cathy Retry' });
    dave = await signedInUser(t.app, { name: 'Dave Other' });
  });
  afterAll(() => t.close());

  const hold = (who: SignedIn, seatIds: string[], key?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/showtimes/${f.showtimeId}/hold`,
      headers: { ...who.headers, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { seatIds },
    });
  const liveBookings = async (seatId: string) =>
    (
      await queryRows<{ n: number }>(
        t.app.database.db,
        sql`select count(*)::int as n from bookings where seat_id = ${seatId} and status = 'HELD'`,
      )
    )[0]!.n;

  it('answers a retried hold with the first answer, replayed, and holds the seats once', async () => {
    const s = seat();
    const first = await hold(cathy, [s], 'hold-1');
    expect(first.statusCode).toBe(201);
    const again = await hold(cathy, [s], 'hold-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await liveBookings(s)).toBe(1);
  });

  it('refuses the same key with another body (422), and keys are the caller’s own', async () => {
    const [a, b] = [seat(), seat()];
    expect((await hold(cathy, [a], 'hold-2')).statusCode).toBe(201);
    const other = await hold(cathy, [b], 'hold-2');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await liveBookings(b)).toBe(0);
    // Another customer's request under the same key is their own.
    expect((await hold(dave, [b], 'hold-2')).statusCode).toBe(201);
  });

  it('replays a refusal too: the seat taken stays a 409 for that key', async () => {
    const s = seat();
    expect((await hold(dave, [s])).statusCode).toBe(201);
    const refused = await hold(cathy, [s], 'hold-3');
    expect(refused.statusCode).toBe(409);
    const again = await hold(cathy, [s], 'hold-3');
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(refused.json());
  });

  it('refuses a key that is not 1–255 visible characters, and works as before without one', async () => {
    const bad = await hold(cathy, [seat()], 'x'.repeat(256));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'bad_request',
      error: expect.stringContaining('Idempotency-Key'),
    });
    const s = seat();
    expect((await hold(cathy, [s])).statusCode).toBe(201);
    expect((await hold(cathy, [s])).statusCode).toBe(409);
  });

  it('gives a retried checkout the same session', async () => {
    const held = await hold(cathy, [seat()], 'hold-4');
    const { bookingIds } = held.json() as { bookingIds: string[] };
    const checkout = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: { ...cathy.headers, 'idempotency-key': 'pay-1' },
        payload: { bookingIds },
      });
    const first = await checkout();
    expect(first.statusCode).toBe(200);
    const again = await checkout();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const sessions = await queryRows<{ n: number }>(
      t.app.database.db,
      sql`select count(*)::int as n from orders where user_id = ${cathy.id}`,
    );
    expect(sessions[0]!.n).toBe(1);
  });

  it('lets only one of two simultaneous requests with the same key hold the seats', async () => {
    const s = seat();
    const answers = await Promise.all([hold(cathy, [s], 'hold-5'), hold(cathy, [s], 'hold-5')]);
    const statuses = answers.map((a) => a.statusCode).sort();
    // Either the second found the first's answer, or it was told the first is still running.
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    expect(await liveBookings(s)).toBe(1);
  });
});
