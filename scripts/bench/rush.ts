import { performance } from 'node:perf_hooks';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/database.ts';
import { bookings, orderLines } from '../../apps/server/src/db/schema/index.ts';
import type { Customer, Hall } from './cinema.ts';
import { request } from './http.ts';
import { leanHttp } from './lean-http.ts';
import { seededRandom } from '../../apps/server/src/modules/demo/seeded-random.ts';
import { percentile, pool } from './stats.ts';

const ATTEMPTS_PER_CUSTOMER = 3;

export interface RushResult {
  customers: number;
  concurrency: number;
  holdRequests: number;
  held: number;
  conflicts: number;
  /** Anything but 201 and 409, by status: should stay empty. */
  failures: Record<string, number>;
  holdSeconds: number;
  /** Every hold request answered (won and refused) per second. */
  holdsPerSecond: number;
  /** Hold requests that won their seats (201) per second. */
  winsPerSecond: number;
  /** Seats won. */
  seatsHeld: number;
  holdP50: number;
  holdP99: number;
  holdMax: number;
  /** Checkout + Pay, for every customer who got seats. */
  paid: number;
  paySeconds: number;
  paymentsPerSecond: number;
  /** What the winners were told (booking ids of every 201) and which checkout sessions were paid (303). */
  acknowledgedBookingIds: string[];
  paidSessionIds: string[];
  /** Bookings of the paid checkout sessions. */
  paidBookings: number;
}

export interface RushOptions {
  /** Seats each customer holds, side by side (2 unless given; drawn once per customer). */
  seats?: (random: () => number) => number;
  /** Where each customer (by position in the list) tries first; later tries, and customers without one, pick at random. */
  firstTry?: (string[] | undefined)[];
  /** Called just before the first hold is sent and just after the last hold is answered (CPU meters). */
  holdsStart?: () => Promise<void>;
  holdsEnd?: () => Promise<void>;
  /** False: the winners do not check out and pay (a server that only holds: the bare hold server). */
  pay?: boolean;
}

/**
 * The on-sale rush: every customer (`concurrency` at a time) holds two adjacent seats picked at random (or as many
 * as `opts.seats` draws), trying another place after a 409 (up to 3 tries); then every customer who got seats checks
 * out and pays through the local provider (`concurrency` at a time). Holds are timed on their own.
 */
export async function onSaleRush(
  base: string,
  showtimeId: string,
  hall: Hall,
  customers: Customer[],
  concurrency: number,
  seed = 7,
  opts: RushOptions = {},
): Promise<RushResult> {
  const random = seededRandom(seed);
  const rows = hall.seatIds.length;
  const cols = hall.seatIds[0]!.length;
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let conflicts = 0;
  const winners: { customer: Customer; bookingIds: string[] }[] = [];

  const http = leanHttp(base);
  await opts.holdsStart?.();
  const holdStarted = performance.now();
  const position = new Map(customers.map((c, i) => [c, i]));
  await pool(customers, concurrency, async (customer) => {
    const planned = opts.firstTry?.[position.get(customer)!];
    const size = planned?.length ?? opts.seats?.(random) ?? 2;
    for (let attempt = 0; attempt < ATTEMPTS_PER_CUSTOMER; attempt++) {
      const row = hall.seatIds[Math.floor(random() * rows)]!;
      const col = Math.floor(random() * (cols - size + 1));
      const seatIds = attempt === 0 && planned ? planned : row.slice(col, col + size);
      const res = await http.request<{ bookingIds: string[] }>('POST', `/api/showtimes/${showtimeId}/hold`, {
        token: customer.token,
        body: { seatIds },
      });
      latencies.push(res.ms);
      if (res.status === 201) {
        winners.push({ customer, bookingIds: res.body.bookingIds });
        return;
      }
      if (res.status === 409) conflicts++;
      else failures[res.status] = (failures[res.status] ?? 0) + 1;
    }
  });
  const holdSeconds = (performance.now() - holdStarted) / 1000;
  await opts.holdsEnd?.();

  const paidSessionIds: string[] = [];
  let paidBookings = 0;
  const payStarted = performance.now();
  await pool(opts.pay === false ? [] : winners, concurrency, async ({ customer, bookingIds }) => {
    const checkout = await request<{ sessionId: string }>('POST', `${base}/api/pay/checkout`, {
      token: customer.token,
      body: { bookingIds },
    });
    if (checkout.status !== 200) {
      failures[`checkout ${checkout.status}`] = (failures[`checkout ${checkout.status}`] ?? 0) + 1;
      return;
    }
    const pay = await request('POST', `${base}/api/pay/local/${checkout.body.sessionId}/pay`);
    if (pay.status === 303) {
      paidSessionIds.push(checkout.body.sessionId);
      paidBookings += bookingIds.length;
    } else failures[`pay ${pay.status}`] = (failures[`pay ${pay.status}`] ?? 0) + 1;
  });
  const paySeconds = (performance.now() - payStarted) / 1000;

  return {
    customers: customers.length,
    concurrency,
    holdRequests: latencies.length,
    held: winners.length,
    conflicts,
    failures,
    holdSeconds,
    holdsPerSecond: latencies.length / holdSeconds,
    winsPerSecond: winners.length / holdSeconds,
    seatsHeld: winners.reduce((n, w) => n + w.bookingIds.length, 0),
    holdP50: percentile(latencies, 50),
    holdP99: percentile(latencies, 99),
    holdMax: Math.max(...latencies),
    paid: paidSessionIds.length,
    paySeconds,
    paymentsPerSecond: paidSessionIds.length / paySeconds,
    acknowledgedBookingIds: winners.flatMap((w) => w.bookingIds),
    paidSessionIds,
    paidBookings,
  };
}

export interface RushCheck {
  /** Seats of the showtime with more than one live (HELD or CONFIRMED) booking. */
  doubleBooked: number;
  /** Booking ids a 201 acknowledged that are not HELD or CONFIRMED. */
  acknowledgedMissing: number;
  /** Bookings of paid checkouts that are not CONFIRMED (or paid checkouts without their two bookings). */
  paidNotConfirmed: number;
  ok: boolean;
}

/** After the rush, in SQL: nothing double-booked, every acknowledged hold kept, every payment confirmed. */
export async function checkRush(db: Db, showtimeId: string, result: RushResult): Promise<RushCheck> {
  const doubled = await db
    .select({ seatId: bookings.seatId })
    .from(bookings)
    .where(and(eq(bookings.showtimeId, showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])))
    .groupBy(bookings.seatId)
    .having(sql`count(*) > 1`);
  const acknowledged = result.acknowledgedBookingIds;
  const [kept] = acknowledged.length
    ? await db
        .select({ n: count() })
        .from(bookings)
        .where(and(inArray(bookings.id, acknowledged), inArray(bookings.status, ['HELD', 'CONFIRMED'])))
    : [{ n: 0 }];
  let paidNotConfirmed = 0;
  if (result.paidSessionIds.length > 0) {
    // A paid session's bookings must all be CONFIRMED, as many as the customer held.
    const [paid] = await db
      .select({
        confirmed: sql<number>`count(*) filter (where ${bookings.status} = 'CONFIRMED')::int`,
        notConfirmed: sql<number>`count(*) filter (where ${bookings.status} <> 'CONFIRMED')::int`,
      })
      .from(orderLines)
      .innerJoin(bookings, eq(bookings.id, orderLines.bookingId))
      .where(inArray(orderLines.orderId, result.paidSessionIds));
    paidNotConfirmed = paid!.notConfirmed + Math.max(0, result.paidBookings - paid!.confirmed);
  }
  const doubleBooked = doubled.length;
  const acknowledgedMissing = acknowledged.length - kept!.n;
  return {
    doubleBooked,
    acknowledgedMissing,
    paidNotConfirmed,
    ok: doubleBooked === 0 && acknowledgedMissing === 0 && paidNotConfirmed === 0,
  };
}
