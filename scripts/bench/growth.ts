// Data growth (issue 22): the rush, seat-map reads, My Tickets, the sales report and the admin's booked list on an
// empty database, then again in the same run after the report benchmark's filler wrote a span of history into the
// same database: a year on PostgreSQL (5,000 showtimes, 1,000,000 bookings, 100,000 customers), a month on the
// embedded engine. Reported side by side with the ratio; the target is every figure within 15% of the empty one.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/test/server-process.ts';
import { ADMIN, insertCustomers, type Customer, type Hall } from './cinema.ts';
import { request } from './http.ts';
import { seatMapReads, type ReadsResult } from './reads.ts';
import { fill, REPORT_SHAPE, type FillShape } from './reports.ts';
import type { RushCheck, RushResult } from './rush.ts';
import {
  adminQuery,
  checkRounds,
  checksOk,
  customerRounds,
  databaseUrl,
  describeChecks,
  log,
  medianRound,
  prepareCinema,
  quick,
  rushRounds,
  RUSH_ROUNDS,
  settings,
  WARMUP_CUSTOMERS,
  WARMUP_ROUNDS,
} from './setup.ts';
import { settle } from './cpu.ts';
import { percentile, round } from './stats.ts';

/** A month of the year's shape: 420 showtimes, 84,000 bookings, 8,400 customers (five orders each). */
export const MONTH_SHAPE: FillShape = {
  ...REPORT_SHAPE,
  showtimes: 420,
  customers: 8_400,
  from: '2025-12-01',
  to: '2025-12-31',
};
/** Showtimes the customer with history bought two seats for, one order each, before anything is measured. */
const HISTORY_ORDERS = 5;
const GET_RUNS = quick ? 10 : 100;
const READ_SECONDS = quick ? 2 : 6;
/** The target: each figure within 15% of the empty database's. */
const WITHIN = 0.15;

export interface Timing {
  medianMs: number;
  p90Ms: number;
}

export interface PhaseFigures {
  rounds: RushResult[];
  rush: RushResult;
  check: RushCheck;
  reads: ReadsResult;
  orders: Timing;
  tickets: Timing;
  report: Timing;
  booked: Timing;
  /** Tickets in the booked list timed, orders and tickets of the customer with history. */
  sizes: { booked: number; orders: number; tickets: number };
  load: number;
}

export interface GrowthResult {
  engine: 'PostgreSQL' | 'embedded engine';
  span: string;
  shape: FillShape;
  filled: { bookings: number; orders: number; refunds: number; customers: number };
  fillSeconds: number;
  empty: PhaseFigures;
  full: PhaseFigures;
  warmupRounds: { empty: number; full: number };
}

/** `runs` GETs one after another (after three to warm up), answered 200; median and p90 in ms. */
async function timeGets(url: string, token: string): Promise<Timing & { body: unknown }> {
  const times: number[] = [];
  let body: unknown;
  for (let i = 0; i < GET_RUNS + 3; i++) {
    const res = await request('GET', url, { token });
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    if (i >= 3) times.push(res.ms);
    body = res.body;
  }
  return { medianMs: percentile(times, 50), p90Ms: percentile(times, 90), body };
}

/** The customer with history buys two seats in each of the showtimes, one order each, through the API. */
async function buyHistory(base: string, hall: Hall, showtimeIds: string[], customer: Customer) {
  for (const showtimeId of showtimeIds) {
    const hold = await request<{ bookingIds: string[] }>('POST', `${base}/api/showtimes/${showtimeId}/hold`, {
      token: customer.token,
      body: { seatIds: hall.seatIds[9]!.slice(10, 12) },
    });
    const checkout = await request<{ sessionId: string }>('POST', `${base}/api/pay/checkout`, {
      token: customer.token,
      body: { bookingIds: hold.body.bookingIds },
    });
    const pay = await request('POST', `${base}/api/pay/local/${checkout.body.sessionId}/pay`);
    if (hold.status !== 201 || checkout.status !== 200 || pay.status !== 303)
      throw new Error(`history purchase: ${hold.status} ${checkout.status} ${pay.status}`);
  }
}

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** One engine, empty then filled, in one run. */
export async function dataGrowth(engine: 'postgres' | 'pglite'): Promise<GrowthResult> {
  const onPostgres = engine === 'postgres';
  const shape = onPostgres ? REPORT_SHAPE : MONTH_SHAPE;
  // PostgreSQL keeps its server running while the history is written (a server that has been up all year); the
  // embedded engine's server lets go of its directory for the filler, so it starts again and warms up again.
  const fullWarmup = onPostgres ? 2 : WARMUP_ROUNDS;
  const cleanups: (() => Promise<unknown>)[] = [];
  let server: ServerProcess | undefined;
  let env: Record<string, string>;
  let open: () => Promise<Database>;
  let dbName: string | undefined;
  if (onPostgres) {
    dbName = `cinema_growth_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${dbName}`);
    cleanups.push(() => adminQuery(`drop database if exists ${dbName} with (force)`));
    const url = databaseUrl(dbName);
    env = { DATABASE_URL: url, REDIS_URL: settings.redisUrl };
    open = () => openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cinema-bench-growth-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    env = { DATA_DIR: dataDir };
    open = () => openDatabase({ dataDir });
  }
  env = { ...env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
  const name = onPostgres ? 'PostgreSQL' : 'embedded engine';
  try {
    log(`data growth on the ${name}: customers`);
    const seed = await open();
    const customers = {
      emptyWarmup: await customerRounds(seed.db, WARMUP_ROUNDS, WARMUP_CUSTOMERS, 'growth-empty-warmup'),
      emptyRush: await customerRounds(seed.db, RUSH_ROUNDS, settings.customers, 'growth-empty-rush'),
      fullWarmup: await customerRounds(seed.db, fullWarmup, WARMUP_CUSTOMERS, 'growth-full-warmup'),
      fullRush: await customerRounds(seed.db, RUSH_ROUNDS, settings.customers, 'growth-full-rush'),
    };
    const [history] = await insertCustomers(seed.db, 1, 'growth-history');
    const [reader] = await insertCustomers(seed.db, 1, 'growth-reader');
    await seed.db.execute(sql`vacuum analyze`);
    await seed.close();

    server = await startServerProcess(env);
    const count = HISTORY_ORDERS + WARMUP_ROUNDS + RUSH_ROUNDS + fullWarmup + RUSH_ROUNDS;
    const cinema = await prepareCinema(server, count);
    const shows = [...cinema.showtimeIds];
    const take = (n: number) => shows.splice(0, n);
    const historyShows = take(HISTORY_ORDERS);
    const plan = {
      emptyWarmup: take(WARMUP_ROUNDS),
      emptyRush: take(RUSH_ROUNDS),
      fullWarmup: take(fullWarmup),
      fullRush: take(RUSH_ROUNDS),
    };
    await buyHistory(server.url, cinema.hall, historyShows, history!);
    // The report's span: the days of the history and of the empty database's rounds (the same sales in both phases).
    const today = Math.floor(Date.now() / 86_400_000);
    const reportQuery = `from=${isoDay(today)}&to=${isoDay(today + HISTORY_ORDERS + WARMUP_ROUNDS + RUSH_ROUNDS + 1)}&groupBy=day`;

    const phase = async (
      label: string,
      warmupShows: string[],
      rushShows: string[],
      warmup: Customer[][],
      rush: Customer[][],
    ): Promise<Omit<PhaseFigures, 'check'>> => {
      const base = server!.url;
      const load = os.loadavg()[0]!;
      log(`  ${label}: ${warmupShows.length} warm-up rounds, ${rushShows.length} timed rounds`);
      await rushRounds(server!, cinema.hall, warmupShows, warmup, settings.concurrency, { label: 'warm-up' });
      const rounds = await rushRounds(server!, cinema.hall, rushShows, rush, settings.concurrency, {
        settle: true,
      });
      await settle(server!.pid);
      const reads = await seatMapReads(base, rushShows.at(-1)!, reader!.token, {
        connections: settings.readConnections,
        seconds: READ_SECONDS,
      });
      const orders = await timeGets(`${base}/api/me/orders`, history!.token);
      const tickets = await timeGets(`${base}/api/me/tickets`, history!.token);
      const report = await timeGets(`${base}/api/admin/reports/sales?${reportQuery}`, cinema.token);
      const booked = await timeGets(`${base}/api/admin/showtimes/${rushShows.at(-1)}/booked`, cinema.token);
      const figures = {
        rounds,
        rush: medianRound(rounds),
        reads,
        orders,
        tickets,
        report,
        booked,
        sizes: {
          booked: (booked.body as unknown[]).length,
          orders: (orders.body as { orders: unknown[] }).orders.length,
          tickets: (tickets.body as { tickets: unknown[] }).tickets.length,
        },
        load,
      };
      log(
        `    seat map ${round(reads.seatMap.requestsPerSecond)}/s; orders ${round(orders.medianMs, 1)} ms, tickets ` +
          `${round(tickets.medianMs, 1)} ms, report ${round(report.medianMs, 1)} ms, booked ${round(booked.medianMs, 1)} ms`,
      );
      return figures;
    };
    const checked = async (figures: Omit<PhaseFigures, 'check'>, rushShows: string[]) => {
      const database = await open();
      try {
        return { ...figures, check: await checkRounds(database, rushShows, figures.rounds) };
      } finally {
        await database.close();
      }
    };

    const emptyFigures = await phase(
      'empty',
      plan.emptyWarmup,
      plan.emptyRush,
      customers.emptyWarmup,
      customers.emptyRush,
    );
    if (!onPostgres) {
      await server.stop();
      server = undefined;
    }
    const empty = await checked(emptyFigures, plan.emptyRush);

    log(`  writing ${shape === REPORT_SHAPE ? 'a year' : 'a month'} of history`);
    const fillStarted = Date.now();
    let filled: GrowthResult['filled'];
    if (onPostgres) {
      const client = new pg.Client({ connectionString: databaseUrl(dbName!) });
      await client.connect();
      filled = await fill(client, shape).finally(() => client.end());
    } else {
      const database = await open();
      filled = await fill(database.pglite!, shape).finally(() => database.close());
      server = await startServerProcess(env);
    }
    const fillSeconds = (Date.now() - fillStarted) / 1000;
    log(`    ${filled.bookings} bookings, ${filled.customers} customers in ${round(fillSeconds)} s`);

    const fullFigures = await phase(
      'filled',
      plan.fullWarmup,
      plan.fullRush,
      customers.fullWarmup,
      customers.fullRush,
    );
    if (!onPostgres) {
      await server!.stop();
      server = undefined;
    }
    const full = await checked(fullFigures, plan.fullRush);
    return {
      engine: name,
      span: onPostgres ? 'a year' : 'a month',
      shape,
      filled,
      fillSeconds,
      empty,
      full,
      warmupRounds: { empty: WARMUP_ROUNDS, full: fullWarmup },
    };
  } finally {
    await server?.stop();
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => log(`cleanup failed: ${err}`));
  }
}

interface GrowthLine {
  figure: string;
  empty: number;
  full: number;
  unit: 'per second' | 'ms';
}

function lines(r: GrowthResult): GrowthLine[] {
  const { empty: e, full: f } = r;
  return [
    {
      figure: 'Rush: holds/s (won and refused)',
      empty: e.rush.holdsPerSecond,
      full: f.rush.holdsPerSecond,
      unit: 'per second',
    },
    {
      figure: 'Rush: winning holds/s',
      empty: e.rush.winsPerSecond,
      full: f.rush.winsPerSecond,
      unit: 'per second',
    },
    { figure: 'Rush: hold latency p99', empty: e.rush.holdP99, full: f.rush.holdP99, unit: 'ms' },
    {
      figure: 'Rush: checkouts paid/s',
      empty: e.rush.paymentsPerSecond,
      full: f.rush.paymentsPerSecond,
      unit: 'per second',
    },
    {
      figure: 'Seat-map reads/s (600 seats, signed in)',
      empty: e.reads.seatMap.requestsPerSecond,
      full: f.reads.seatMap.requestsPerSecond,
      unit: 'per second',
    },
    {
      figure: 'Bare route/s (no database; the machine, for scale)',
      empty: e.reads.bare.requestsPerSecond,
      full: f.reads.bare.requestsPerSecond,
      unit: 'per second',
    },
    {
      figure: 'My Tickets: GET /api/me/orders (median)',
      empty: e.orders.medianMs,
      full: f.orders.medianMs,
      unit: 'ms',
    },
    {
      figure: 'My Tickets: GET /api/me/tickets (median)',
      empty: e.tickets.medianMs,
      full: f.tickets.medianMs,
      unit: 'ms',
    },
    {
      figure: 'Sales report of the coming days (median)',
      empty: e.report.medianMs,
      full: f.report.medianMs,
      unit: 'ms',
    },
    {
      figure: 'Booked list of a showtime (median)',
      empty: e.booked.medianMs,
      full: f.booked.medianMs,
      unit: 'ms',
    },
  ];
}

const within = (l: GrowthLine) =>
  l.unit === 'per second' ? l.full >= l.empty * (1 - WITHIN) : l.full <= l.empty * (1 + WITHIN);

const show = (l: GrowthLine, n: number) => (l.unit === 'ms' ? `${round(n, 1)} ms` : `${round(n)}/s`);

/** How many of the figures stay within 15% of the empty database's (the bare route is not one of them). */
export function growthSummary(r: GrowthResult) {
  const all = lines(r).filter((l) => !l.figure.startsWith('Bare'));
  const missed = all.filter((l) => !within(l));
  return { total: all.length, missed: missed.map((l) => l.figure) };
}

export const GROWTH_SECTION_TITLE = '## A year of data';

/** The page's section: one table per engine. */
export function renderGrowthSection(results: GrowthResult[], date: string): string {
  const tables = results.map((r) => {
    const rows = lines(r)
      .map(
        (l) =>
          `| ${l.figure} | ${show(l, l.empty)} | ${show(l, l.full)} | ${round(l.full / l.empty, 2)}× | ` +
          `${l.figure.startsWith('Bare') ? '—' : within(l) ? 'yes' : 'NO'} |`,
      )
      .join('\n');
    const s = r.shape;
    return `### ${r.engine}: empty, then ${r.span} of history

${r.filled.bookings.toLocaleString('en-US')} bookings in ${r.filled.orders.toLocaleString('en-US')} orders of
${r.filled.customers.toLocaleString('en-US')} customers, ${s.showtimes.toLocaleString('en-US')} showtimes over ${s.from} … ${s.to}
in ${s.halls} halls, ${r.filled.refunds.toLocaleString('en-US')} refunds: written in ${round(r.fillSeconds)} s by the
report benchmark's filler, then vacuumed and analyzed. Warm-up: ${r.warmupRounds.empty} rounds before the empty
figures, ${r.warmupRounds.full} before the filled ones${r.engine === 'PostgreSQL' ? ' (the same server process throughout)' : ' (the server started again on the filled directory)'}.
The machine's 1-minute load average: ${round(r.empty.load, 1)} as the empty figures began, ${round(r.full.load, 1)} as the filled ones did.
Checks after the rush: empty ${describeChecks(r.empty.check, r.empty.rounds)}${checksOk(r.empty.check, r.empty.rounds) ? '' : ' (FAILED)'};
filled ${describeChecks(r.full.check, r.full.rounds)}${checksOk(r.full.check, r.full.rounds) ? '' : ' (FAILED)'}.

| figure | empty | filled | filled ÷ empty | within 15% |
| --- | --- | --- | --- | --- |
${rows}
`;
  });
  const first = results[0]!;
  return `${GROWTH_SECTION_TITLE}

Measured by \`BENCH_ONLY=growth npm run bench\` on ${date}. Each engine is measured on an empty database, then again
in the same run after a span of history was written into that same database. The rush as above (${first.empty.rush.customers}
customers, ${first.empty.rush.concurrency} at a time, the median of ${RUSH_ROUNDS} rounds, each on a showtime of its own), seat-map
reads (autocannon, ${settings.readConnections} connections, ${READ_SECONDS} s per route in turns with the bare route), and ${GET_RUNS} requests one after another for each
of: the orders and the tickets of a customer who bought two seats in each of ${HISTORY_ORDERS} showtimes
(${first.full.sizes.orders} orders, ${first.full.sizes.tickets} tickets), the sales report of the days of those showtimes and of the empty
database's rush (the same sales in both phases; the year's report is timed in the section below), and the admin's booked
list of the last rush showtime (${first.full.sizes.booked} tickets). Target: every figure within 15% of the empty database's.

${tables.join('\n')}`;
}

/** The results table's line for an engine: how many figures stay within 15%. */
export function growthRow(r: GrowthResult) {
  const { total, missed } = growthSummary(r);
  return {
    figure: `Data growth (${r.engine}, ${r.span} of history): figures within 15% of empty`,
    measured: `${total - missed.length} of ${total}${missed.length ? ` (not: ${missed.join('; ')})` : ''}`,
    reference: '',
    ratio: '',
    target: 'all',
    met:
      missed.length === 0 && checksOk(r.empty.check, r.empty.rounds) && checksOk(r.full.check, r.full.rounds),
  };
}
