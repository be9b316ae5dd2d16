import { randomBytes } from 'node:crypto';
import { CHILD_ADMIN } from './child-server.ts';
import { multipart } from './world.ts';

/**
 * Traffic for the outage tests (apps/server/src/test/outage.test.ts): customers holding seats, paying and reading
 * the seat map against a real server while a dependency is killed, every answer counted.
 */

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** A JSON call over real HTTP; throws only when no answer came (a reset, a refused connection, a timeout). */
export async function call(
  url: string,
  method: string,
  route: string,
  opts: {
    token?: string;
    body?: unknown;
    form?: ReturnType<typeof multipart>;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload: string | Uint8Array | undefined;
  if (opts.form) {
    Object.assign(headers, opts.form.headers);
    payload = new Uint8Array(opts.form.payload);
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(opts.body);
  }
  const res = await fetch(`${url}${route}`, {
    method,
    headers,
    body: payload as never,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML pages and redirects.
  }
  return { status: res.status, body, headers: res.headers };
}

export interface Customer {
  email: string;
  token: string;
}

export interface World {
  showtimeId: string;
  seats: string[];
  customers: Customer[];
}

/** A movie, a showtime in two days and `customers` signed-in customers, on a server started with CHILD_ADMIN. */
export async function makeWorld(url: string, customers: number): Promise<World> {
  const admin = (await call(url, 'POST', '/api/auth/login', { body: CHILD_ADMIN })).body.token as string;
  const movie = await call(url, 'POST', '/api/admin/movies', {
    token: admin,
    form: multipart([
      { name: 'title', value: 'Outage' },
      { name: 'durationMinutes', value: '100' },
    ]),
  });
  const halls = (await call(url, 'GET', '/api/admin/rooms', { token: admin })).body as { id: string }[];
  const showtime = await call(url, 'POST', '/api/admin/showtimes', {
    token: admin,
    body: {
      movieId: movie.body.id,
      auditoriumId: halls[0]!.id,
      startsAt: new Date(Math.ceil(Date.now() / 3600_000) * 3600_000 + 48 * 3600_000).toISOString(),
      priceCents: 1100,
    },
  });
  if (showtime.status !== 201) throw new Error(`showtime: ${JSON.stringify(showtime.body)}`);
  const showtimeId = showtime.body.id as string;
  const map = await call(url, 'GET', `/api/showtimes/${showtimeId}/seats`);
  const seats = (map.body.seats as { id: string; type?: string; status: string }[])
    .filter((s) => (s.type ?? 'STANDARD') === 'STANDARD' && s.status === 'AVAILABLE')
    .map((s) => s.id);
  const list: Customer[] = [];
  for (let i = 0; i < customers; i++) {
    const email = `outage-${randomBytes(4).toString('hex')}@example.com`;
    const res = await call(url, 'POST', '/api/auth/register', {
      body: { name: `Outage Customer ${i}`, email, password: 'Popcorn#2026' },
    });
    list.push({ email, token: res.body.token });
  }
  return { showtimeId, seats, customers: list };
}

export interface Tally {
  /** Requests sent. */
  sent: number;
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Requests that got no answer at all (reset, refused, timed out), each described. */
  unanswered: string[];
  /** 503s without Retry-After or without the service_unavailable code. */
  bad503: string[];
  /** Holds acknowledged (201) and payments acknowledged (303 to the success page). */
  holds: { customer: Customer; seatIds: string[]; bookingIds: string[] }[];
  payments: { customer: Customer; sessionId: string; bookingIds: string[] }[];
  /** When each answer came (ms since epoch) and whether it was a success (2xx/3xx/4xx other than 429). */
  timeline: { at: number; ok: boolean; what: string }[];
}

export const newTally = (): Tally => ({
  sent: 0,
  statuses: {},
  unanswered: [],
  bad503: [],
  holds: [],
  payments: [],
  timeline: [],
});

async function counted(tally: Tally, what: string, request: () => Promise<Answer>): Promise<Answer | null> {
  tally.sent++;
  try {
    const res = await request();
    tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
    tally.timeline.push({ at: Date.now(), ok: res.status < 500, what });
    if (res.status === 503) {
      const retryAfter = res.headers.get('retry-after');
      const json = typeof res.body === 'object' && res.body?.code === 'service_unavailable';
      const html = typeof res.body === 'string' && res.body.includes('briefly unavailable');
      if (!retryAfter || !(json || html)) tally.bad503.push(`${what}: ${JSON.stringify(res.body)}`);
    }
    return res;
  } catch (err) {
    tally.unanswered.push(`${what}: ${(err as Error).message}`);
    tally.timeline.push({ at: Date.now(), ok: false, what });
    return null;
  }
}

/**
 * Customers holding 1–3 seats from a small window (so that they race), paying 60% of their holds on the hosted
 * page, and reading the seat map, until `stop()`; every answer goes into the tally.
 */
export function runTraffic(url: string | (() => string), world: World, tally: Tally) {
  let stopped = false;
  const at = typeof url === 'string' ? () => url : url;
  const pick = () => {
    const start = Math.floor(Math.random() * Math.max(1, world.seats.length - 40));
    const window = world.seats.slice(start, start + 40);
    const n = 1 + Math.floor(Math.random() * 3);
    return [...new Set(Array.from({ length: n }, () => window[Math.floor(Math.random() * window.length)]!))];
  };
  const loop = async (customer: Customer) => {
    while (!stopped) {
      const seatIds = pick();
      await counted(tally, 'seat map', () => call(at(), 'GET', `/api/showtimes/${world.showtimeId}/seats`));
      const hold = await counted(tally, 'hold', () =>
        call(at(), 'POST', `/api/showtimes/${world.showtimeId}/hold`, {
          token: customer.token,
          body: { seatIds },
        }),
      );
      if (hold?.status !== 201) {
        if (hold?.status === 503) await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const bookingIds = hold.body.bookingIds as string[];
      tally.holds.push({ customer, seatIds, bookingIds });
      if (Math.random() < 0.4) continue;
      const checkout = await counted(tally, 'checkout', () =>
        call(at(), 'POST', '/api/pay/checkout', { token: customer.token, body: { bookingIds } }),
      );
      if (checkout?.status !== 200) continue;
      const sessionId = checkout.body.sessionId as string;
      const paid = await counted(tally, 'pay', () => call(at(), 'POST', `/api/pay/local/${sessionId}/pay`));
      if (paid?.status === 303) tally.payments.push({ customer, sessionId, bookingIds });
    }
  };
  const running = Promise.all(world.customers.map(loop));
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** ms from `from` to the first hold answered (not 5xx) after it, or null. */
export function recoveryMs(tally: Tally, from: number): number | null {
  const first = tally.timeline
    .filter((t) => t.at >= from && t.ok && t.what === 'hold')
    .sort((a, b) => a.at - b.at)[0];
  return first ? first.at - from : null;
}

/** Statuses of 500 and above other than 503: each one a failure of the server, not a dependency. */
export const serverErrors = (tally: Tally) =>
  Object.entries(tally.statuses)
    .filter(([status]) => Number(status) >= 500 && Number(status) !== 503)
    .reduce((n, [, count]) => n + count, 0);
