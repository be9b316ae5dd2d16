import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

const inHalfAnHour = () => new Date(Date.now() + 30 * 60_000);

type Status = 'HELD' | 'CONFIRMED' | 'CANCELLED' | 'EXPIRED' | 'REFUNDED';

async function makeBooking(
  t: TestApp,
  fx: ShowtimeFixture,
  user: SignedIn,
  seatIndex: number,
  status: Status,
) {
  const [row] = await t.database.db
    .insert(bookings)
    .values({
      showtimeId: fx.showtimeId,
      seatId: fx.allSeatIds[seatIndex]!,
      userId: user.id,
      status,
      priceCents: 1200,
      expiresAt: status === 'HELD' ? new Date(Date.now() + 600_000) : null,
      confirmedAt: status === 'CONFIRMED' ? new Date() : null,
    })
    .returning();
  return row!.id;
}

describe.each(engines)('ticket check-in on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let fx: ShowtimeFixture;
  let seat = 0;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    customer = await signedInUser(t.app, { name: 'Tess Ticket' });
    // Starts in half an hour: its entry window is open (a scan is judged on it even without the showtime named).
    fx = await createShowtimeFixture(t.database.db, { rows: 4, cols: 10, startsAt: inHalfAnHour() });
  });
  afterAll(() => t.close());

  const scan = (bookingId: unknown, headers = admin.headers) =>
    t.app.inject({ method: 'POST', url: '/api/admin/scan', headers, payload: { bookingId } });

  it('admits a paid ticket once, then reports it as already checked in', async () => {
    const bookingId = await makeBooking(t, fx, customer, seat++, 'CONFIRMED');
    const first = await scan(bookingId);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      ok: true,
      alreadyCheckedIn: false,
      user: { email: customer.email, name: 'Tess Ticket' },
      movie: 'Fixture Movie',
      seat: { row: 1, number: 1 },
    });
    expect(first.json().auditorium).toMatch(/^Fixture hall/);
    expect(new Date(first.json().startsAt).getTime()).toBeGreaterThan(Date.now());

    const second = await scan(bookingId);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ alreadyCheckedIn: true, user: { email: customer.email } });
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row!.checkedInAt).toBeInstanceOf(Date);
    expect(second.json().checkedInAt).toBe(row!.checkedInAt!.toISOString());
  });

  it('refuses unknown, unpaid, cancelled and refunded tickets with a clear error', async () => {
    const unknown = await scan(randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Unknown ticket', code: 'not_found' });

    for (const [status, message] of [
      ['HELD', 'Ticket is not paid'],
      ['CANCELLED', 'Ticket was cancelled'],
      ['REFUNDED', 'Ticket was refunded'],
    ] as const) {
      const id = await makeBooking(t, fx, customer, seat++, status);
      const res = await scan(id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: message });
      const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, id));
      expect(row!.checkedInAt).toBeNull();
    }
  });

  it('answers a code that is not a booking id with 400', async () => {
    for (const bad of [
      'hello',
      '',
      42,
      null,
      'https://evil.example/?id=1',
      '00000000-0000-0000-0000-00000000000g',
    ]) {
      const res = await scan(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    const noBody = await t.app.inject({ method: 'POST', url: '/api/admin/scan', headers: admin.headers });
    expect(noBody.statusCode).toBe(400);
  });

  it('lets only admins scan', async () => {
    const bookingId = await makeBooking(t, fx, customer, seat++, 'CONFIRMED');
    expect((await scan(bookingId, {} as never)).statusCode).toBe(401);
    expect((await scan(bookingId, customer.headers)).statusCode).toBe(403);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row!.checkedInAt).toBeNull();
  });
});

describe.skipIf(!postgresUrl)('check-in race on real PostgreSQL', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp('postgres', { RATE_LIMIT: 'off' });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('of 10 scanners reading one ticket at the same moment, exactly one sees it VALID', async () => {
    const admin = await signedInAdmin(t.app);
    const customer = await signedInUser(t.app);
    const fx = await createShowtimeFixture(t.database.db, { rows: 1, cols: 3, startsAt: inHalfAnHour() });
    const bookingId = await makeBooking(t, fx, customer, 0, 'CONFIRMED');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${baseUrl}/api/admin/scan`, {
          method: 'POST',
          headers: { ...admin.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ bookingId }),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { alreadyCheckedIn?: boolean },
        })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.body.alreadyCheckedIn === false)).toHaveLength(1);
    expect(results.filter((r) => r.body.alreadyCheckedIn === true)).toHaveLength(9);
  });
});
