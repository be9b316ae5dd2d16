// What the benchmark's parts share: settings, scratch databases, a cinema on a running server, rush rounds.
import path from 'node:path';
import pg from 'pg';
import { repoRoot, type ServerProcess } from '../../apps/server/src/test/server-process.ts';
import type { Database, Db } from '../../apps/server/src/db/database.ts';
import {
  adminToken,
  createHall,
  createShowtimes,
  insertCustomers,
  type Customer,
  type Hall,
} from './cinema.ts';
import { checkRush, onSaleRush, type RushCheck, type RushOptions, type RushResult } from './rush.ts';
import { settle } from './cpu.ts';
import { round } from './stats.ts';

export const quick = process.env.BENCH_QUICK === '1';
export const settings = {
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  pgbench: process.env.BENCH_PGBENCH ?? '/usr/bin/pgbench',
  customers: Number(process.env.BENCH_CUSTOMERS ?? (quick ? 150 : 500)),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 200),
  pgbenchSeconds: quick ? 3 : 10,
  readSeconds: quick ? 3 : 10,
  readConnections: 32,
  fanoutClients: Number(process.env.BENCH_FANOUT_CLIENTS ?? (quick ? 200 : 1000)),
  fanoutHolds: quick ? 5 : 20,
  pgliteTransactions: quick ? 500 : 3000,
  lighthouseRuns: quick ? 1 : 5,
  out: process.env.BENCH_OUT ?? (quick ? undefined : path.join(repoRoot, 'docs/benchmarks.md')),
  /** Node's own arguments for the server processes the parts start (a profiler: `--cpu-prof --cpu-prof-dir=…`). */
  serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
};
export const HALL = { rows: 20, cols: 30 };
// The warm-up is four rehearsals of the rush, each on a showtime of its own with customers of its own: a server that
// has been selling for a while, not one that has just started. Right after a start the rush runs at a third to a
// half of its steady rate (V8 and PGlite's WebAssembly compile the hot paths as they go, PostgreSQL's backends plan
// and cache); on the 2-core machine it levels off after about four rounds.
export const WARMUP_CUSTOMERS = 500;
export const WARMUP_ROUNDS = 4;
// The timed rush runs three times, each on a showtime of its own with customers of its own; the round with the
// median holds/s is reported (one round lasts about half a second: a single one is at the mercy of the machine).
export const RUSH_ROUNDS = 3;

export const log = (line: string) => console.log(`[bench] ${line}`);
export const ms = (n: number) => `${round(n, 1)} ms`;
export const perSecond = (n: number) => `${round(n)}/s`;
export const ratio = (a: number, b: number) => round(a / b, 2);

/** Runs `text` as the server's superuser on its maintenance database (create/drop databases). */
export async function adminQuery(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: settings.databaseUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** The process ids of the PostgreSQL backends connected to a database. */
export async function backendsOf(database: string): Promise<number[]> {
  const res = await adminQuery(
    `select pid from pg_stat_activity where datname = '${database.replace(/'/g, "''")}'`,
  );
  return res.rows.map((r) => Number(r.pid));
}

export function databaseUrl(name: string): string {
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Hall, showtimes and customers on a running server. */
export async function prepareCinema(server: ServerProcess, showtimes: number, hall = HALL) {
  const token = await adminToken(server.url);
  const made: Hall = await createHall(server.url, token, hall.rows, hall.cols);
  const showtimeIds = await createShowtimes(server.url, token, made, showtimes);
  return { hall: made, showtimeIds, token };
}

/** `rounds` sets of `count` new customers each, one set per rush round. */
export async function customerRounds(
  db: Db,
  rounds: number,
  count: number,
  label: string,
): Promise<Customer[][]> {
  const sets: Customer[][] = [];
  for (let i = 0; i < rounds; i++) sets.push(await insertCustomers(db, count, `${label}-${i}`));
  return sets;
}

/** Rush rounds one after another, each on its own showtime with its own customers; logs each. */
export async function rushRounds(
  server: ServerProcess,
  hall: Hall,
  showtimeIds: string[],
  customers: Customer[][],
  concurrency: number,
  opts: RushOptions & {
    seed?: number;
    label?: string;
    settle?: boolean;
    /** Other server processes to wait for too before each round (servers measured in turns). */
    settleAlso?: number[];
  } = {},
): Promise<RushResult[]> {
  const rounds: RushResult[] = [];
  for (const [i, showtimeId] of showtimeIds.entries()) {
    if (opts.settle) await settle([server.pid, ...(opts.settleAlso ?? [])]);
    const rush = await onSaleRush(
      server.url,
      showtimeId,
      hall,
      customers[i]!,
      concurrency,
      (opts.seed ?? 7) + i,
      opts,
    );
    log(
      `    ${opts.label ?? 'rush'} ${i + 1}/${showtimeIds.length}: ${rush.holdRequests} holds in ` +
        `${round(rush.holdSeconds, 2)} s (${round(rush.holdsPerSecond)}/s, ${rush.held} won: ` +
        `${round(rush.winsPerSecond)}/s, p99 ${ms(rush.holdP99)}), ${rush.paid} paid in ${round(rush.paySeconds, 2)} s`,
    );
    if (Object.keys(rush.failures).length)
      log(
        `    unexpected answers ${JSON.stringify(rush.failures)}; the server said:\n${server.output().slice(-3000)}`,
      );
    rounds.push(rush);
  }
  return rounds;
}

/**
 * Waits until the server is idle after a rush: every paid order's confirmation email written to the outbox (they
 * are drawn one at a time in the background, QR codes and all: hundreds after a rush, for tens of seconds), then
 * `settle` (half a second under a tenth of a core). Reads timed before that measure the emails too (0.22–0.71× of
 * the bare route in one evening's runs, issue 32); on a loaded 2-core machine the drawing took 70–180 s after
 * the seven rounds of `BENCH_ONLY=rush` (some 1,700 emails). Goes on when none was written for 5 s (a confirmation whose writing failed never comes) or after
 * `maxMs`, saying how many are missing.
 */
export async function outboxDrained(server: ServerProcess, database: string, maxMs = 180_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  await client.connect();
  const started = performance.now();
  let missing = -1;
  let since = started;
  try {
    for (;;) {
      const res = await client.query(
        `select count(*)::int as n from orders o where o.status = 'PAID' and not exists
           (select 1 from mail_outbox m where m.dedupe_key = 'order_confirmation:' || o.id)`,
      );
      const now = performance.now();
      if (Number(res.rows[0].n) !== missing) [missing, since] = [Number(res.rows[0].n), now];
      // None left, or none written for 5 s (an email whose writing failed is logged and never comes), or too long.
      if (missing === 0 || now - since > 5000 || now - started > maxMs) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await client.end();
  }
  if (missing > 0)
    log(
      `  ${missing} paid orders without a confirmation email (none written for 5 s, or ${maxMs / 1000} s gone)`,
    );
  await settle(server.pid);
  log(`  idle after ${round((performance.now() - started) / 1000, 1)} s`);
}

/** The round with the median holds/s. */
export function medianRound(rounds: RushResult[]): RushResult {
  return [...rounds].sort((a, b) => a.holdsPerSecond - b.holdsPerSecond)[Math.floor(rounds.length / 2)]!;
}

/** The SQL checks of every round, together. */
export async function checkRounds(
  database: Database,
  showtimeIds: string[],
  rounds: RushResult[],
): Promise<RushCheck> {
  const checks: RushCheck[] = [];
  for (const [i, showtimeId] of showtimeIds.entries())
    checks.push(await checkRush(database.db, showtimeId, rounds[i]!));
  const sum = (key: 'doubleBooked' | 'acknowledgedMissing' | 'paidNotConfirmed') =>
    checks.reduce((n, c) => n + c[key], 0);
  return {
    doubleBooked: sum('doubleBooked'),
    acknowledgedMissing: sum('acknowledgedMissing'),
    paidNotConfirmed: sum('paidNotConfirmed'),
    ok: checks.every((c) => c.ok),
  };
}

/** Answers other than 201 and 409 (and failed payments) in any round, by status. */
export function roundFailures(rounds: RushResult[]): Record<string, number> {
  const all: Record<string, number> = {};
  for (const r of rounds)
    for (const [status, n] of Object.entries(r.failures)) all[status] = (all[status] ?? 0) + n;
  return all;
}

/** The checks in words: what went wrong, or how much was checked. */
export function describeChecks(check: RushCheck, rounds: RushResult[]): string {
  const problems = [
    check.doubleBooked && `${check.doubleBooked} seats double-booked`,
    check.acknowledgedMissing && `${check.acknowledgedMissing} acknowledged holds missing`,
    check.paidNotConfirmed && `${check.paidNotConfirmed} paid bookings not confirmed`,
    ...Object.entries(roundFailures(rounds)).map(([status, n]) => `${n}× HTTP ${status}`),
  ].filter(Boolean);
  const held = rounds.reduce((n, r) => n + r.held, 0);
  const paid = rounds.reduce((n, r) => n + r.paid, 0);
  return problems.length
    ? problems.join('; ')
    : `${held} holds, ${paid} payments in ${rounds.length} rounds: all consistent`;
}

export const checksOk = (check: RushCheck, rounds: RushResult[]) =>
  check.ok && Object.keys(roundFailures(rounds)).length === 0;

/** Replaces the page's section that starts with `title` (up to the next `## `), or adds it before "What it does". */
export function replaceSection(page: string, title: string, section: string): string {
  const start = page.indexOf(title);
  const end = start < 0 ? -1 : page.indexOf('\n## ', start + title.length);
  return start >= 0
    ? `${page.slice(0, start)}${section.trimEnd()}\n${end < 0 ? '' : `\n${page.slice(end + 1)}`}`
    : page.replace('## What it does', `${section}\n## What it does`);
}

/** The section of `page` that starts with `title`, up to the next `## ` (or ''). */
export function sectionOf(page: string, title: string): string {
  const start = page.indexOf(title);
  if (start < 0) return '';
  const end = page.indexOf('\n## ', start + title.length);
  return end < 0 ? page.slice(start) : page.slice(start, end + 1);
}
