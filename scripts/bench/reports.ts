// The sales report on a year of data (DESIGN §6.4): 5,000 showtimes and 1,000,000 bookings written with SQL
// (generate_series), then `GET /api/admin/reports/sales` timed through a real server process on PostgreSQL.
import os from 'node:os';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { startServerProcess } from '../../apps/server/src/test/server-process.ts';
import { ADMIN, adminToken } from './cinema.ts';
import { request } from './http.ts';
import { percentile } from './stats.ts';

export const REPORT_SHAPE: FillShape & { timeZone: string } = {
  halls: 10,
  rows: 10,
  cols: 25,
  movies: 40,
  showtimes: 5000,
  /** Sold per showtime: 5,000 × 200 = 1,000,000 bookings, two to an order. */
  soldPerShowtime: 200,
  /** 500,000 orders of two: five to a customer. */
  customers: 100_000,
  /** The year the showtimes spread over (the cinema's clocks: Europe/Berlin, two DST changes). */
  from: '2025-01-01',
  to: '2025-12-31',
  timeZone: 'Europe/Berlin',
};
const RUNS = 7;

export interface ReportTiming {
  name: string;
  query: string;
  medianMs: number;
  p90Ms: number;
  rows: number;
  /** Answered from the kept figures of showtimes that are over. */
  kept: boolean;
}

export interface ReportsResult {
  bookings: number;
  orders: number;
  refunds: number;
  showtimes: number;
  loadSeconds: number;
  timings: ReportTiming[];
  /** The machine's 1-minute load average before and after the timings. */
  load: [number, number];
}

export interface FillShape {
  halls: number;
  rows: number;
  cols: number;
  movies: number;
  showtimes: number;
  /** Sold per showtime, two to an order. */
  soldPerShowtime: number;
  /** Customers the orders are spread over, one after another (order o belongs to customer o % customers). */
  customers: number;
  /** The days the showtimes spread over, the first and the last. */
  from: string;
  to: string;
}

/** What runs the filler's SQL: a pg.Client or a PGlite (both answer `query(text)` with `{ rows }`). */
export interface SqlRunner {
  query(text: string): Promise<{ rows: any[] }>;
}

/**
 * Fills a migrated database with a span of sales (a year by default): halls, movies, ticket types, showtimes spread
 * evenly over the span in each hall, paid bookings per showtime in orders of two (a tenth with a promo code, one in
 * fifty at the counter, one in a hundred from test mode) bought by `customers` customers in turn, a refund for one
 * ticket in a hundred and a check-in for half of the others. Foreign keys and triggers are not run while it loads
 * (session_replication_role = replica). Its ids are md5 of fixed names: one fill per database.
 */
export async function fill(
  client: SqlRunner,
  shape: FillShape = REPORT_SHAPE,
): Promise<{ bookings: number; orders: number; refunds: number; customers: number }> {
  const s = shape;
  const spanMinutes = (Date.parse(s.to) - Date.parse(s.from)) / 60_000 + 24 * 60;
  const buyer = (o: string) => `md5('customer' || (${o} % ${s.customers}))::uuid`;
  await client.query(`set session_replication_role = replica`);
  await client.query(`set maintenance_work_mem = '256MB'`);
  await client.query(`insert into users (id, name, email, password_hash, role, created_at)
    select md5('customer' || c)::uuid, 'Bench Buyer ' || c, 'bench-buyer-' || c || '@example.com', 'x', 'USER',
      timestamptz '${s.from}' + c * interval '1 second'
    from generate_series(0, ${s.customers - 1}) c`);
  await client.query(`insert into ticket_types (name, position) values ('Adult', 0), ('Child', 1), ('Senior', 2)
    on conflict do nothing`);
  await client.query(`insert into halls (id, name, rows, cols, row_labels)
    select md5('hall' || h)::uuid, 'Bench hall ' || h, ${s.rows}, ${s.cols},
      array(select chr(64 + r) from generate_series(1, ${s.rows}) r)
    from generate_series(0, ${s.halls - 1}) h`);
  // Seat n (1-based) of hall h: row (n - 1) / cols + 1; the last seat of each hall is blocked.
  await client.query(`insert into seats (id, hall_id, row, number, col, row_label, blocked)
    select md5('seat' || h || '-' || n)::uuid, md5('hall' || h)::uuid, (n - 1) / ${s.cols} + 1,
      (n - 1) % ${s.cols} + 1, (n - 1) % ${s.cols}, chr(65 + (n - 1) / ${s.cols}), n = ${s.rows * s.cols}
    from generate_series(0, ${s.halls - 1}) h, generate_series(1, ${s.rows * s.cols}) n`);
  await client.query(`insert into movies (id, title, duration_minutes)
    select md5('movie' || m)::uuid, 'Bench movie ' || lpad(m::text, 2, '0'), 120
    from generate_series(0, ${s.movies - 1}) m`);
  const perHall = s.showtimes / s.halls;
  await client.query(`insert into showtimes (id, movie_id, hall_id, starts_at, ends_at, price_cents)
    select md5('show' || i)::uuid, md5('movie' || (i % ${s.movies}))::uuid, md5('hall' || (i % ${s.halls}))::uuid,
      t, t + interval '135 minutes', 1000
    from generate_series(0, ${s.showtimes - 1}) i,
      lateral (select timestamptz '${s.from} 10:00+01' + ((i / ${s.halls}) * interval '1 minute'
        * (${spanMinutes} / ${perHall})) + (i % ${s.halls}) * interval '7 minutes' as t) x`);
  const orders = (s.showtimes * s.soldPerShowtime) / 2;
  // Order o pays for bookings 2o and 2o + 1: showtime (2o) / sold, seats (2o) % sold + 1 and + 2; orders are paid
  // evenly over the span (not all just now: the mail sweep would take them for payments whose confirmation was lost).
  const paidAt = (o: string) =>
    `timestamptz '${s.from}' + ${o} * interval '${(spanMinutes * 60) / orders} seconds'`;
  await client.query(`insert into orders (id, user_id, provider, status, amount_cents, subtotal_cents,
      discount_cents, expires_at, created_at, paid_at, ref, payment_method)
    select md5('order' || o)::uuid, ${buyer('o')},
      case when o % 100 = 7 then 'local' when o % 50 = 3 then 'box_office' else 'stripe' end,
      case when o % 50 = 1 then 'PARTLY_REFUNDED' else 'PAID' end,
      case when o % 10 = 0 then 1800 else 2000 end, 2000, case when o % 10 = 0 then 200 else 0 end,
      ${paidAt('o')}, ${paidAt('o')}, ${paidAt('o')}, 'B' || o, case when o % 50 = 3 then 'cash' end
    from generate_series(0, ${orders - 1}) o`);
  await client.query(`insert into bookings (id, showtime_id, seat_id, user_id, status, price_cents,
      checkout_session_id, confirmed_at, checked_in_at)
    select md5('booking' || b)::uuid, md5('show' || (b / ${s.soldPerShowtime}))::uuid,
      md5('seat' || ((b / ${s.soldPerShowtime}) % ${s.halls}) || '-' || (b % ${s.soldPerShowtime} + 1))::uuid,
      ${buyer('(b / 2)')},
      case when b % 100 = 3 then 'REFUNDED' else 'CONFIRMED' end, 1000, md5('order' || (b / 2))::uuid, now(),
      case when b % 2 = 0 and b % 100 <> 3 then now() end
    from generate_series(0, ${s.showtimes * s.soldPerShowtime - 1}) b`);
  // One payment per order, as it was paid (what was refunded of it beside it).
  await client.query(`insert into order_payments (id, order_id, method, amount_cents, refunded_cents, provider, paid_at)
    select md5('payment' || o)::uuid, md5('order' || o)::uuid,
      case when o % 50 = 3 then 'CASH' else 'CARD' end, case when o % 10 = 0 then 1800 else 2000 end,
      (select count(*) * 1000 from generate_series(2 * o, 2 * o + 1) b where b % 100 = 3),
      case when o % 100 = 7 then 'local' when o % 50 = 3 then null else 'stripe' end, now()
    from generate_series(0, ${orders - 1}) o`);
  await client.query(`insert into order_lines (id, order_id, booking_id, seat_row, seat_number, unit_price_cents,
      price_cents, ticket_type_name, seat_type, list_price_cents, discount_cents, result)
    select md5('line' || b)::uuid, md5('order' || (b / 2))::uuid, md5('booking' || b)::uuid,
      (b % ${s.soldPerShowtime}) / ${s.cols} + 1, (b % ${s.soldPerShowtime}) % ${s.cols} + 1, 1000,
      case when (b / 2) % 10 = 0 then 900 else 1000 end,
      (array['Adult', 'Adult', 'Child', 'Senior'])[b % 4 + 1], 'STANDARD', 1000,
      case when (b / 2) % 10 = 0 then 100 else 0 end,
      case when b % 100 = 3 then 'refunded' else 'confirmed' end
    from generate_series(0, ${s.showtimes * s.soldPerShowtime - 1}) b`);
  await client.query(`insert into order_refunds (order_id, line_id, payment_id, amount_cents, kind, status,
      created_at, refunded_at)
    select md5('order' || (b / 2))::uuid, md5('line' || b)::uuid, md5('payment' || (b / 2))::uuid, 1000, 'staff',
      'succeeded', ${paidAt('(b / 2)')}, ${paidAt('(b / 2)')}
    from generate_series(3, ${s.showtimes * s.soldPerShowtime - 1}, 100) b`);
  const refunds = Number((await client.query(`select count(*) from order_refunds`)).rows[0].count);
  await client.query(`set session_replication_role = origin`);
  await client.query(`vacuum analyze`);
  // Written out now, not by the next checkpoint in the middle of what is timed next.
  await client.query(`checkpoint`);
  return { bookings: s.showtimes * s.soldPerShowtime, orders, refunds, customers: s.customers };
}

/** Fills a fresh database at `url`, starts a server on it and times the report's spans and groupings. */
export async function reportSpeed(
  url: string,
  redisUrl: string,
  log: (line: string) => void,
): Promise<ReportsResult> {
  const migrated = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  await migrated.close();
  const started = Date.now();
  log(`  writing a year of sales with generate_series`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts = await fill(client).finally(() => client.end());
  const loadSeconds = (Date.now() - started) / 1000;
  log(
    `  ${counts.bookings} bookings, ${counts.orders} orders, ${counts.refunds} refunds in ${loadSeconds} s`,
  );
  const server = await startServerProcess({
    DATABASE_URL: url,
    REDIS_URL: redisUrl,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    CINEMA_TIME_ZONE: REPORT_SHAPE.timeZone,
    // Real payments: test-mode sales are left out of the report (the filter is part of what is timed).
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: 'whsec_bench',
    STRIPE_API_URL: 'http://127.0.0.1:9',
  });
  try {
    const token = await adminToken(server.url);
    const s = REPORT_SHAPE;
    const year = `from=${s.from}&to=${s.to}`;
    // `forget`: the kept figures are dropped before each request, so every request computes them again.
    const cases = [
      {
        name: 'a year by day, the first time (computes and keeps every showtime)',
        query: `${year}&groupBy=day`,
        runs: 1,
        forget: true,
      },
      { name: 'a year by day', query: `${year}&groupBy=day`, runs: RUNS, forget: false },
      { name: 'a year by movie', query: `${year}&groupBy=movie`, runs: RUNS, forget: false },
      { name: 'a year by showtime', query: `${year}&groupBy=showtime`, runs: RUNS, forget: false },
      { name: 'a year by day as CSV', query: `${year}&groupBy=day&format=csv`, runs: RUNS, forget: false },
      {
        name: 'a month by showtime',
        query: 'from=2025-03-01&to=2025-03-31&groupBy=showtime',
        runs: RUNS,
        forget: false,
      },
      {
        name: 'a month by showtime, nothing kept (computed from the bookings each time)',
        query: 'from=2025-03-01&to=2025-03-31&groupBy=showtime',
        runs: RUNS,
        forget: true,
      },
    ];
    const timings: ReportTiming[] = [];
    const loadBefore = os.loadavg()[0]!;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const c of cases) {
        const times: number[] = [];
        let rows = 0;
        // One request to warm up first, except where every request starts from nothing.
        for (let i = c.forget ? 1 : 0; i < c.runs + 1; i++) {
          if (c.forget) await client.query('delete from sales_report_showtimes');
          const t0 = performance.now();
          const res = await request('GET', `${server.url}/api/admin/reports/sales?${c.query}`, { token });
          const elapsed = performance.now() - t0;
          if (res.status !== 200) throw new Error(`report ${c.query}: HTTP ${res.status}`);
          if (typeof res.body === 'object' && res.body && 'rows' in res.body)
            rows = (res.body as { rows: unknown[] }).rows.length;
          if (i > 0) times.push(elapsed);
        }
        const timing = {
          name: c.name,
          query: c.query,
          medianMs: percentile(times, 50),
          p90Ms: percentile(times, 90),
          rows,
          kept: !c.forget,
        };
        log(`  ${c.name}: median ${timing.medianMs.toFixed(1)} ms, p90 ${timing.p90Ms.toFixed(1)} ms`);
        timings.push(timing);
      }
    } finally {
      await client.end();
    }
    return {
      ...counts,
      showtimes: REPORT_SHAPE.showtimes,
      loadSeconds,
      timings,
      load: [loadBefore, os.loadavg()[0]!],
    };
  } finally {
    await server.stop();
  }
}

export const REPORTS_SECTION_TITLE = '## Sales report on a year of data';

/** The benchmark page's section for the report; `kept`: its hand-written end (from its first "### " on). */
export function renderReportsSection(r: ReportsResult, date: string, kept = ''): string {
  const s = REPORT_SHAPE;
  const lines = r.timings
    .map(
      (t) =>
        `| ${t.name} | \`${t.query}\` | ${t.medianMs.toFixed(1)} ms | ${t.p90Ms.toFixed(1)} ms | ${t.rows || '—'} |`,
    )
    .join('\n');
  return `${REPORTS_SECTION_TITLE}

Measured by \`BENCH_ONLY=reports npm run bench\` on ${date}: \`GET /api/admin/reports/sales\` through a server
process on PostgreSQL (real payments, so test-mode sales are filtered out), ${RUNS} requests per line (after one to
warm up where figures are kept), on ${r.showtimes.toLocaleString('en-US')} showtimes over ${s.from} … ${s.to} in
${s.halls} halls of ${s.rows * s.cols} seats (${s.timeZone}), ${r.bookings.toLocaleString('en-US')} bookings in
${r.orders.toLocaleString('en-US')} orders (a tenth with a promo code, some at the counter, some from test mode),
${r.refunds.toLocaleString('en-US')} refunds; written with \`generate_series\` in ${r.loadSeconds.toFixed(0)} s.
Target: under 300 ms. The machine's 1-minute load average was ${r.load[0].toFixed(1)} before the timings and
${r.load[1].toFixed(1)} after (${os.cpus().length} cores; other work shared them).

Summing a year from its bookings joins 1,000,000 bookings, order lines and orders: seconds on this machine whatever
the indexes (a parallel hash join of the three tables; reading the bookings alone takes a few hundred milliseconds
here). So the figures of a showtime are computed once and kept (\`sales_report_showtimes\`,
\`sales_report_lines\`: a few rows per showtime) with the database snapshot they were read in; triggers on bookings,
order lines, orders and refunds note every later change to a showtime's sales (\`sales_report_changes\`, with the
writing transaction's id), and a report recomputes a kept showtime whose changes its snapshot did not see: over or
still on sale, a showtime is summed from its bookings only when something was sold, refunded or checked in since
(decision 028; before it, showtimes still on sale were summed on each request). The migration
\`*_report_indexes\` adds \`showtimes (starts_at)\` (a span's showtimes), \`order_refunds (line_id)\` (a
line's refunds, exchange differences included) and the kept tables' indexes by showtime; the rest uses
\`bookings (showtime_id, status)\`, \`order_lines (booking_id)\` and the orders' primary key. The kept rows are read
as they are and summed in the server, and the route writes the report's JSON itself, from objects built in the
contract's field order, instead of having the response schema check and copy it (decision 053): for a year by
showtime (5,000 rows, 3.4 MB of JSON) that check, and sorting 15,000 kept rows to sum them in SQL, took longer than
the rest of the report.

| report | query | median | p90 | rows |
| --- | --- | --- | --- | --- |
${lines}
${kept ? `\n${kept.trimEnd()}\n` : ''}`;
}

/** The Results row: the slowest of the reports answered from kept figures (its median), named, against 300 ms. */
export function reportRow(r: ReportsResult) {
  const slowest = r.timings.filter((t) => t.kept).reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
  return {
    figure: `Sales report, the slowest from kept figures: ${slowest.name} (${r.bookings.toLocaleString('en-US')} bookings)`,
    measured: `${slowest.medianMs.toFixed(1)} ms`,
    reference: '',
    ratio: '',
    target: '< 300 ms',
    met: slowest.medianMs < 300,
  };
}
