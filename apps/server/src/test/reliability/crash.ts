import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../../db/database.ts';
import { CHILD_ADMIN, freePort, startChildServer, type ChildServer } from './child-server.ts';
import { multipart } from './world.ts';

/** A JSON call over real HTTP; never throws for a status, only when the connection fails. */
async function call(
  url: string,
  method: string,
  route: string,
  opts: { token?: string; body?: unknown; form?: ReturnType<typeof multipart>; redirect?: 'manual' } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
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
    redirect: opts.redirect,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML pages and redirects.
  }
  return { status: res.status, body };
}

interface Customer {
  email: string;
  token: string;
}

interface AckedHold {
  customer: Customer;
  seatIds: string[];
  bookingIds: string[];
}

interface AckedPayment {
  customer: Customer;
  sessionId: string;
  bookingIds: string[];
}

export interface CrashReport {
  engine: 'pglite' | 'postgres';
  kills: number;
  /** Requests sent while the server was being killed (answered or not). */
  requests: number;
  holdsAcknowledged: number;
  paymentsAcknowledged: number;
  /** Acknowledged holds or payments missing after a restart (each a description). */
  lost: string[];
  /** Seats with two live bookings: acknowledged to two customers, or found in the database at the end. */
  doubleBookings: string[];
  /** After every restart: health, a new hold and a new payment worked. */
  servedAfterEveryRestart: boolean;
  /** What did not work after a restart, if anything. */
  problems: string[];
  restartMs: number[];
}

/**
 * Kills the real server with SIGKILL in the middle of concurrent holds and local payments, `kills` times,
 * restarting it each time on the same data, and checks that nothing acknowledged was lost.
 */
export async function runCrashTrials(opts: {
  engine: 'pglite' | 'postgres';
  kills: number;
  /** postgres:// server to create a database on (engine postgres). */
  postgresUrl?: string;
  customers?: number;
  log?: (line: string) => void;
}): Promise<CrashReport> {
  const log = opts.log ?? (() => {});
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-crash-'));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (opts.engine === 'postgres') {
    if (!opts.postgresUrl) throw new Error('postgres engine needs postgresUrl');
    const name = `cinema_crash_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: opts.postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(opts.postgresUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: opts.postgresUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const port = await freePort();
  // Holds must outlive the test: any hold missing afterwards was lost, not expired.
  const env: Record<string, string> = {
    HOLD_MINUTES: '120',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const report: CrashReport = {
    engine: opts.engine,
    kills: 0,
    requests: 0,
    holdsAcknowledged: 0,
    paymentsAcknowledged: 0,
    lost: [],
    doubleBookings: [],
    servedAfterEveryRestart: true,
    problems: [],
    restartMs: [],
  };

  let server: ChildServer & { startMs: number } = await startChildServer({ dataDir, port, env });
  try {
    const { url } = server;
    const admin = (await call(url, 'POST', '/api/auth/login', { body: CHILD_ADMIN })).body.token as string;
    const movie = await call(url, 'POST', '/api/admin/movies', {
      token: admin,
      form: multipart([
        { name: 'title', value: 'Crash Course' },
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
    const seatMap = await call(url, 'GET', `/api/showtimes/${showtimeId}/seats`);
    // Seats anyone may hold alone: not sofa halves, companion seats or house seats (the hall has all of them).
    const allSeats = (seatMap.body.seats as { id: string; type?: string; status: string }[])
      .filter((s) => (s.type ?? 'STANDARD') === 'STANDARD' && s.status === 'AVAILABLE')
      .map((s) => s.id);

    const customers: Customer[] = [];
    for (let i = 0; i < (opts.customers ?? 10); i++) {
      const email = `crash-${randomBytes(4).toString('hex')}@example.com`;
      const res = await call(url, 'POST', '/api/auth/register', {
        body: { name: `Crash Customer ${i}`, email, password: 'Popcorn#2026' },
      });
      customers.push({ email, token: res.body.token });
    }

    const holds: AckedHold[] = [];
    const payments: AckedPayment[] = [];
    const pick = (n: number) => {
      // Seats drawn from a small window so that customers race for the same ones.
      const start = Math.floor(Math.random() * Math.max(1, allSeats.length - 30));
      const window = allSeats.slice(start, start + 30);
      return [
        ...new Set(Array.from({ length: n }, () => window[Math.floor(Math.random() * window.length)]!)),
      ];
    };

    for (let round = 1; round <= opts.kills; round++) {
      let stopped = false;
      const worker = async (customer: Customer) => {
        while (!stopped) {
          try {
            const seatIds = pick(1 + Math.floor(Math.random() * 3));
            report.requests++;
            const hold = await call(server.url, 'POST', `/api/showtimes/${showtimeId}/hold`, {
              token: customer.token,
              body: { seatIds },
            });
            if (hold.status !== 201) continue;
            const bookingIds = hold.body.bookingIds as string[];
            holds.push({ customer, seatIds, bookingIds });
            if (Math.random() < 0.4) continue;
            report.requests++;
            const checkout = await call(server.url, 'POST', '/api/pay/checkout', {
              token: customer.token,
              body: { bookingIds },
            });
            if (checkout.status !== 200) continue;
            report.requests++;
            const paid = await call(server.url, 'POST', `/api/pay/local/${checkout.body.sessionId}/pay`, {
              redirect: 'manual',
            });
            if (paid.status === 303)
              payments.push({ customer, sessionId: checkout.body.sessionId, bookingIds });
          } catch {
            return; // The server is gone.
          }
        }
      };
      const running = customers.map(worker);
      // The kill lands at a random moment, but only once this round has had a hold and a payment acknowledged, so
      // that it always falls in the middle of real work, however slow the machine (at most 20 s more).
      const [holdsBefore, paymentsBefore] = [holds.length, payments.length];
      await sleep(400 + Math.random() * 1200);
      const latest = Date.now() + 20_000;
      while ((holds.length === holdsBefore || payments.length === paymentsBefore) && Date.now() < latest)
        await sleep(50);
      await server.crash();
      stopped = true;
      await Promise.all(running);
      report.kills++;
      log(
        `${opts.engine}: kill ${round}: ${holds.length} holds and ${payments.length} payments acknowledged so far`,
      );

      server = await startChildServer({ dataDir, port, env });
      report.restartMs.push(server.startMs);
      await verify(server.url, showtimeId, holds, payments, report);
      const problem = await servesNormally(server.url, showtimeId, holds, customers);
      if (problem) {
        report.servedAfterEveryRestart = false;
        report.problems.push(`after kill ${round}: ${problem}`);
      }
    }
    report.holdsAcknowledged = holds.length;
    report.paymentsAcknowledged = payments.length;
    report.doubleBookings.push(...acknowledgedTwice(holds));
  } finally {
    await server.stop();
  }

  // The last word is the database's own: no seat of any showtime has two live bookings.
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const rows = await database.db.execute(sql`
      select showtime_id, seat_id, count(*)::int as n from bookings
      where status = 'CONFIRMED' or (status = 'HELD' and expires_at > now())
      group by showtime_id, seat_id having count(*) > 1`);
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      seat_id: string;
      n: number;
    }[];
    for (const r of list) report.doubleBookings.push(`database: seat ${r.seat_id} has ${r.n} live bookings`);
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    await dropDatabase();
  }
  return report;
}

/** Every acknowledged hold is still the customer's (held, or paid since); every acknowledged payment is paid. */
async function verify(
  url: string,
  showtimeId: string,
  holds: AckedHold[],
  payments: AckedPayment[],
  report: CrashReport,
) {
  const byCustomer = new Map<string, { held: Set<string>; tickets: Set<string> }>();
  const stateOf = async (c: Customer) => {
    let state = byCustomer.get(c.email);
    if (!state) {
      const map = await call(url, 'GET', `/api/showtimes/${showtimeId}/seats`, { token: c.token });
      const tickets = await call(url, 'GET', '/api/me/tickets', { token: c.token });
      state = {
        held: new Set(
          (map.body.seats as { bookingId?: string; heldByMe?: boolean }[])
            .filter((s) => s.heldByMe)
            .map((s) => s.bookingId!),
        ),
        tickets: new Set((tickets.body.tickets as { bookingId: string }[]).map((t) => t.bookingId)),
      };
      byCustomer.set(c.email, state);
    }
    return state;
  };
  for (const h of holds) {
    const state = await stateOf(h.customer);
    for (const id of h.bookingIds) {
      if (!state.held.has(id) && !state.tickets.has(id))
        report.lost.push(`hold ${id} of ${h.customer.email}`);
    }
  }
  for (const p of payments) {
    const state = await stateOf(p.customer);
    for (const id of p.bookingIds) {
      if (!state.tickets.has(id)) report.lost.push(`paid booking ${id} of ${p.customer.email}`);
    }
    const lookup = await call(url, 'GET', `/api/pay/lookup?session_id=${p.sessionId}`, {
      token: p.customer.token,
    });
    if (lookup.body?.status !== 'paid')
      report.lost.push(`payment ${p.sessionId}: status ${lookup.body?.status}`);
  }
}

/** Seats acknowledged as held to two different bookings: the database let two customers have one seat. */
function acknowledgedTwice(holds: AckedHold[]): string[] {
  const owner = new Map<string, string>();
  const twice: string[] = [];
  for (const h of holds) {
    h.seatIds.forEach((seat) => {
      const other = owner.get(seat);
      if (other) twice.push(`seat ${seat} acknowledged to ${other} and ${h.customer.email}`);
      owner.set(seat, h.customer.email);
    });
  }
  return twice;
}

/** After a restart the app works as before: health, seat map, a new hold and its payment. Null when it does. */
async function servesNormally(
  url: string,
  showtimeId: string,
  holds: AckedHold[],
  customers: Customer[],
): Promise<string | null> {
  const health = await call(url, 'GET', '/api/health');
  if (health.status !== 200) return `health ${health.status}`;
  const map = await call(url, 'GET', `/api/showtimes/${showtimeId}/seats`);
  if (map.status !== 200) return `seat map ${map.status} ${JSON.stringify(map.body)}`;
  const available = (map.body.seats as { id: string; type?: string; status: string }[]).filter(
    (s) => s.status === 'AVAILABLE' && (s.type ?? 'STANDARD') === 'STANDARD',
  );
  const seat = available[Math.floor(Math.random() * available.length)];
  if (!seat) return null;
  // A customer with room for one more hold on this showtime.
  for (const customer of [...customers].sort(() => Math.random() - 0.5)) {
    const hold = await call(url, 'POST', `/api/showtimes/${showtimeId}/hold`, {
      token: customer.token,
      body: { seatIds: [seat.id] },
    });
    if (hold.status === 409 && hold.body?.code === 'hold_limit') continue;
    if (hold.status !== 201) return `hold ${hold.status} ${JSON.stringify(hold.body)}`;
    holds.push({ customer, seatIds: [seat.id], bookingIds: hold.body.bookingIds });
    const checkout = await call(url, 'POST', '/api/pay/checkout', {
      token: customer.token,
      body: { bookingIds: hold.body.bookingIds },
    });
    if (checkout.status !== 200) return `checkout ${checkout.status} ${JSON.stringify(checkout.body)}`;
    const paid = await call(url, 'POST', `/api/pay/local/${checkout.body.sessionId}/pay`, {
      redirect: 'manual',
    });
    return paid.status === 303 ? null : `payment ${paid.status}`;
  }
  return null;
}
