import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { bookings, users } from '../../db/schema/index.ts';
import { hashPassword } from '../accounts/accounts.service.ts';
import { createSession } from '../../plugins/auth.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  redisUrl,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.ts';

// Issue 32: 160 customers pressing "Find me N seats" (2–4 each, hold: true) at once in a 1,500-seat hall. Each
// request used to choose from the same seat map, outside any lock, and then race the others for the same seats:
// on PostgreSQL 11–18 were seated and the rest refused `seat_unavailable` with 1,450 seats free. The embedded engine
// seated them only while it was too slow for the requests to meet (on a fresh server); once warm, one in 160.
const CUSTOMERS = 160;
const HALL = { rows: 30, cols: 50 };
const QUIET = { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' };

interface Customer {
  id: string;
  headers: { authorization: string };
}

interface Answer {
  status: number;
  count: number;
  body: { seatIds?: string[]; hold?: { bookingIds: string[] }; code?: string };
  customer: Customer;
}

interface Round {
  f: ShowtimeFixture;
  answers: Answer[];
}

/** Customers straight into the database, one password hash for all (hashing 160 would take longer than the rush). */
async function customers(app: FastifyInstance, n: number): Promise<Customer[]> {
  const passwordHash = await hashPassword(STRONG_PASSWORD);
  const rows = await app.database.db
    .insert(users)
    .values(
      Array.from({ length: n }, (_, i) => ({
        name: `Rusher ${i}`,
        email: uniqueEmail('rusher'),
        passwordHash,
      })),
    )
    .returning({ id: users.id });
  return Promise.all(
    rows.map(async ({ id }) => ({
      id,
      headers: { authorization: `Bearer ${await createSession(app.database.db, id)}` },
    })),
  );
}

/** Everyone at once, over real connections, 2, 3 or 4 seats each; customer i asks the server bases[i % n]. */
async function rush(app: FastifyInstance, bases: string[]): Promise<Round> {
  const f = await createShowtimeFixture(app.database.db, HALL);
  const everyone = await customers(app, CUSTOMERS);
  const answers = await Promise.all(
    everyone.map(async (customer, i): Promise<Answer> => {
      const count = 2 + (i % 3);
      const res = await fetch(`${bases[i % bases.length]}/api/showtimes/${f.showtimeId}/best-available`, {
        method: 'POST',
        headers: { ...customer.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ count, hold: true }),
      });
      return { status: res.status, count, body: (await res.json()) as Answer['body'], customer };
    }),
  );
  return { f, answers };
}

/** What a customer would notice of a round, and what the database holds after it. */
function expectEveryoneSeated(t: () => TestApp, round: () => Round) {
  it('seats at least 95% of 160 customers at once in a 1,500-seat hall, never with a server error', () => {
    const { answers } = round();
    expect(answers.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);
    const seated = answers.filter((a) => a.status === 200).length;
    expect(seated, JSON.stringify(answers.find((a) => a.status !== 200)?.body)).toBeGreaterThanOrEqual(
      Math.ceil(CUSTOMERS * 0.95),
    );
  });

  it('gives each customer the seats they asked for, adjacent in one row, held for them and nobody else', async () => {
    const { f, answers } = round();
    const position = new Map<string, { row: number; number: number }>();
    f.seatIds.forEach((row, r) => row.forEach((id, n) => position.set(id, { row: r + 1, number: n + 1 })));
    const live = await t()
      .app.database.db.select({ id: bookings.id, seatId: bookings.seatId, userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])));
    const holderOf = new Map(live.map((b) => [b.seatId, b.userId]));
    for (const a of answers.filter((x) => x.status === 200)) {
      const seats = a.body.seatIds!.map((id) => position.get(id)!);
      expect(seats).toHaveLength(a.count);
      expect(new Set(seats.map((s) => s.row)).size).toBe(1);
      const numbers = seats.map((s) => s.number).sort((x, y) => x - y);
      expect(numbers.at(-1)! - numbers[0]!).toBe(a.count - 1);
      expect(a.body.hold!.bookingIds).toHaveLength(a.count);
      for (const id of a.body.seatIds!) expect(holderOf.get(id)).toBe(a.customer.id);
    }
    // Exactly what the customers were told they hold, and nothing else.
    const told = answers.flatMap((a) => (a.status === 200 ? a.body.seatIds! : [])).sort();
    expect(live.map((b) => b.seatId).sort()).toEqual(told);
  });

  it('never holds a seat twice', async () => {
    const { f } = round();
    const doubled = await t()
      .app.database.db.select({ seatId: bookings.seatId })
      .from(bookings)
      .where(and(eq(bookings.showtimeId, f.showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])))
      .groupBy(bookings.seatId)
      .having(sql`count(*) > 1`);
    expect(doubled).toEqual([]);
  });
}

describe.each(engines)('best available under a rush on %s', (engine) => {
  let t: TestApp;
  const rounds: Round[] = [];
  beforeAll(async () => {
    t = await createTestApp(engine, QUIET);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // A server that has just started, then the same server again on another showtime (warm).
    rounds.push(await rush(t.app, [base]));
    rounds.push(await rush(t.app, [base]));
  }, 120_000);
  afterAll(() => t?.close());

  describe('on a fresh server', () =>
    expectEveryoneSeated(
      () => t,
      () => rounds[0]!,
    ));
  describe('once warm', () =>
    expectEveryoneSeated(
      () => t,
      () => rounds[1]!,
    ));
});

// Two processes cannot see each other's choices as they are made: they choose the same seats, the database gives
// each seat to one of them, and the other chooses again without the seats it lost.
describe.skipIf(!postgresUrl)('best available under a rush through two server processes', () => {
  let t: TestApp;
  let second: FastifyInstance;
  let round: Round;
  beforeAll(async () => {
    const shared: Record<string, string> = redisUrl ? { REDIS_URL: redisUrl } : {};
    t = await createTestApp('postgres', { ...QUIET, ...shared });
    second = await buildApp(testConfig({ DATABASE_URL: t.url!, DATA_DIR: 'memory://', ...QUIET, ...shared }));
    await second.ready();
    const bases = [
      await t.app.listen({ port: 0, host: '127.0.0.1' }),
      await second.listen({ port: 0, host: '127.0.0.1' }),
    ];
    round = await rush(t.app, bases);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  expectEveryoneSeated(
    () => t,
    () => round,
  );
});
