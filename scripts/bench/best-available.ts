// Best available under a rush (issue 32, DESIGN §7.7): 160 customers press "Find me N seats" (2–4 each, hold: true)
// at once in a 1,500-seat hall, on PostgreSQL and on the embedded engine. The first round runs on a server that has
// just started (cold), the next ones on the same server (warm). Each round counts who was seated, how long the
// slowest answer took and the CPU each request cost (the server process, and PostgreSQL's backends), then checks in
// SQL that no seat is held twice and that every customer got adjacent seats in one row.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { bookings } from '../../apps/server/src/db/schema/index.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/test/server-process.ts';
import {
  ADMIN,
  adminToken,
  createShowtimes,
  insertCustomers,
  insertHall,
  type Customer,
  type Hall,
} from './cinema.ts';
import { cpuMeter, settle } from './cpu.ts';
import { request } from './http.ts';
import type { Row } from './report.ts';
import { adminQuery, backendsOf, databaseUrl, log, ms, settings } from './setup.ts';
import { percentile, round } from './stats.ts';

export const BEST_AVAILABLE = { rows: 30, cols: 50, customers: 160, warmRounds: 3 };
export const BEST_AVAILABLE_SECTION_TITLE = '## Best available under a rush';

export interface BestAvailableRound {
  customers: number;
  seated: number;
  /** Refusals by code (and other answers by status). */
  refused: Record<string, number>;
  p50: number;
  max: number;
  /** CPU milliseconds per request: the server process, and PostgreSQL's backends (0 on the embedded engine). */
  serverCpu: number;
  postgresCpu: number;
  /** Seats held twice, answers not adjacent in one row, and seats held that nobody was told of. */
  problems: string[];
}

export interface BestAvailableRun {
  engine: 'PostgreSQL' | 'embedded engine';
  cold: BestAvailableRound;
  warm: BestAvailableRound[];
}

/** One round: every customer at once, 2, 3 or 4 seats each; the SQL checks come later (`checkRound`). */
async function round160(
  server: ServerProcess,
  showtimeId: string,
  position: Map<string, { row: number; number: number }>,
  customers: Customer[],
  backends: () => Promise<number[]>,
): Promise<BestAvailableRound & { showtimeId: string; told: Set<string> }> {
  await settle(server.pid);
  const meter = await cpuMeter(server.pid, backends);
  const answers = await Promise.all(
    customers.map(async (c, i) => {
      const count = 2 + (i % 3);
      const res = await request<{ seatIds?: string[]; code?: string }>(
        'POST',
        `${server.url}/api/showtimes/${showtimeId}/best-available`,
        { token: c.token, body: { count, hold: true } },
      );
      return { ...res, count };
    }),
  );
  const cpu = await meter.stop();
  const refused: Record<string, number> = {};
  const problems: string[] = [];
  const told = new Set<string>();
  for (const a of answers) {
    if (a.status !== 200) {
      const key = a.status === 409 ? String(a.body.code) : `HTTP ${a.status}`;
      refused[key] = (refused[key] ?? 0) + 1;
      continue;
    }
    const seats = a.body.seatIds!.map((id) => position.get(id)!);
    const numbers = seats.map((s) => s.number).sort((x, y) => x - y);
    if (
      seats.length !== a.count ||
      new Set(seats.map((s) => s.row)).size !== 1 ||
      numbers.at(-1)! - numbers[0]! !== a.count - 1
    )
      problems.push(`an answer of ${a.count} seats not adjacent in one row`);
    for (const id of a.body.seatIds!) told.add(id);
  }
  const times = answers.map((a) => a.ms);
  const n = customers.length;
  return {
    showtimeId,
    told,
    customers: n,
    seated: answers.filter((a) => a.status === 200).length,
    refused,
    p50: percentile(times, 50),
    max: Math.max(...times),
    serverCpu: (cpu.server * 1000) / n,
    postgresCpu: (cpu.postgres * 1000) / n,
    problems,
  };
}

/** In SQL: no seat held twice, and the seats held are exactly those the customers were told of. */
async function checkRound(database: Database, r: Awaited<ReturnType<typeof round160>>): Promise<void> {
  const live = await database.db
    .select({ seatId: bookings.seatId, n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(eq(bookings.showtimeId, r.showtimeId), inArray(bookings.status, ['HELD', 'CONFIRMED'])))
    .groupBy(bookings.seatId);
  const twice = live.filter((b) => b.n > 1).length;
  if (twice) r.problems.push(`${twice} seats held twice`);
  const untold = live.filter((b) => !r.told.has(b.seatId)).length;
  if (untold || live.length !== r.told.size)
    r.problems.push(
      `${untold} seats held that nobody was told of, ${r.told.size - live.length} told but not held`,
    );
}

/**
 * A server started afresh on a database of its own: a cold round first, then the warm ones on the same server. The
 * rounds are checked in SQL once the server has stopped (the embedded engine's data directory is its alone while it
 * runs).
 */
async function runOn(
  engine: BestAvailableRun['engine'],
  env: Record<string, string>,
  { hall, customers }: { hall: Hall; customers: Customer[][] },
  backends: () => Promise<number[]>,
  open: () => Promise<Database>,
): Promise<BestAvailableRun> {
  // As `npm start` runs it: the rehearsal before listening on (decision 042; test servers turn it off).
  const server = await startServerProcess({ ...env, WARM_UP: 'on' }, { nodeArgs: settings.serverNodeArgs });
  const rounds: Awaited<ReturnType<typeof round160>>[] = [];
  try {
    const token = await adminToken(server.url);
    const shows = await createShowtimes(server.url, token, hall, 1 + BEST_AVAILABLE.warmRounds);
    const position = new Map<string, { row: number; number: number }>();
    hall.seatIds.forEach((row, r) => row.forEach((id, k) => position.set(id, { row: r + 1, number: k + 1 })));
    for (const [i, showtimeId] of shows.entries()) {
      const r = await round160(server, showtimeId, position, customers[i]!, backends);
      log(
        `  ${engine} ${i === 0 ? 'cold' : `warm ${i}`}: ${r.seated}/${r.customers} seated ` +
          `${JSON.stringify(r.refused)}, p50 ${ms(r.p50)}, max ${ms(r.max)}, ` +
          `CPU ${round2(r.serverCpu + r.postgresCpu)} ms a request`,
      );
      rounds.push(r);
    }
  } finally {
    await server.stop();
  }
  const database = await open();
  try {
    for (const r of rounds) await checkRound(database, r);
  } finally {
    await database.close();
  }
  return { engine, cold: rounds[0]!, warm: rounds.slice(1) };
}

/** Both engines, each on a fresh database and a freshly started server. */
export async function bestAvailableRush(): Promise<BestAvailableRun[]> {
  const sets = 1 + BEST_AVAILABLE.warmRounds;
  // The hall is written into the database with the customers, before the server starts: the admin's rooms stop at
  // 26 rows of 50.
  const seed = async (database: Database, label: string) => {
    const customers: Customer[][] = [];
    try {
      const hall = await insertHall(database.db, BEST_AVAILABLE.rows, BEST_AVAILABLE.cols);
      for (let i = 0; i < sets; i++)
        customers.push(await insertCustomers(database.db, BEST_AVAILABLE.customers, `${label}-${i}`));
      // As autovacuum would have left the freshly filled tables.
      await database.db.execute(sql`vacuum analyze`);
      return { hall, customers };
    } finally {
      await database.close();
    }
  };
  const runs: BestAvailableRun[] = [];

  const name = `cinema_bestavail_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  try {
    const openPg = () => openDatabase({ databaseUrl: databaseUrl(name), dataDir: 'memory://' });
    const seeded = await seed(await openPg(), 'ba-pg');
    log('best available: PostgreSQL');
    const env = {
      DATABASE_URL: databaseUrl(name),
      REDIS_URL: settings.redisUrl,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    runs.push(await runOn('PostgreSQL', env, seeded, () => backendsOf(name), openPg));
  } finally {
    await adminQuery(`drop database if exists ${name} with (force)`).catch((err) =>
      log(`cleanup failed: ${err}`),
    );
  }

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cinema-bench-ba-'));
  try {
    const openLite = () => openDatabase({ dataDir });
    const seeded = await seed(await openLite(), 'ba-lite');
    log('best available: embedded engine');
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
    runs.push(await runOn('embedded engine', env, seeded, async () => [], openLite));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return runs;
}

const round2 = (n: number) => round(n, 2);

const share = (r: BestAvailableRound) => `${round((r.seated / r.customers) * 100, 1)}%`;
const cpuText = (r: BestAvailableRound) =>
  r.postgresCpu > 0
    ? `${round2(r.serverCpu + r.postgresCpu)} ms (server ${round2(r.serverCpu)}, PostgreSQL ${round2(r.postgresCpu)})`
    : `${round2(r.serverCpu)} ms`;
const refusedText = (r: BestAvailableRound) =>
  Object.entries(r.refused)
    .map(([code, n]) => `${n} ${code}`)
    .join(', ') || 'none';
const met = (r: BestAvailableRound) =>
  r.seated / r.customers >= 0.95 && r.max <= 2000 && r.problems.length === 0;

export function renderBestAvailableSection(runs: BestAvailableRun[], date: string, kept = ''): string {
  const lines = runs
    .flatMap((run) =>
      [run.cold, ...run.warm].map(
        (r, i) =>
          `| ${run.engine} | ${i === 0 ? 'cold (first after start)' : `warm ${i}`} | ${r.seated} of ${r.customers} (${share(r)}) | ` +
          `${refusedText(r)} | ${ms(r.p50)} | ${ms(r.max)} | ${cpuText(r)} | ${r.problems.join('; ') || 'all hold'} | ${met(r) ? 'yes' : 'NO'} |`,
      ),
    )
    .join('\n');
  return `${BEST_AVAILABLE_SECTION_TITLE}

Measured by \`BENCH_ONLY=best-available npm run bench\` on ${date}: ${BEST_AVAILABLE.customers} customers press "Find me N seats" at once
(\`POST /api/showtimes/{id}/best-available {count, hold: true}\`, 2, 3 or 4 seats each) in a ${(BEST_AVAILABLE.rows * BEST_AVAILABLE.cols).toLocaleString('en-US')}-seat hall
(${BEST_AVAILABLE.rows} rows of ${BEST_AVAILABLE.cols}), on a server started afresh on a fresh database (the cold round, its first requests of the kind),
then ${BEST_AVAILABLE.warmRounds} more rounds on the same server (warm), each on a showtime of its own. CPU per request from /proc over the round
(the server process; on PostgreSQL also the backends of the benchmark's database). The checks: no seat held twice,
every answer adjacent seats in one row, and the seats held are exactly those the customers were told of (checked
once the server has stopped). Target (DESIGN §7.7): every answer within 2 s and at least 95% seated, cold too.

| engine | round | seated | refused | p50 | slowest answer | CPU per request | checks | target met |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines}
${kept ? `\n${kept.trimEnd()}\n` : ''}`;
}

export function bestAvailableRows(runs: BestAvailableRun[]): Row[] {
  return runs.map((run) => {
    const all = [run.cold, ...run.warm];
    const worst = all.reduce((a, b) => (b.seated / b.customers < a.seated / a.customers ? b : a));
    const slowest = Math.max(...all.map((r) => r.max));
    return {
      figure: `Best available, ${BEST_AVAILABLE.customers} at once in ${(BEST_AVAILABLE.rows * BEST_AVAILABLE.cols).toLocaleString('en-US')} seats (${run.engine}): seated, slowest, CPU`,
      measured: `${share(worst)} at worst, slowest ${ms(slowest)}, cold ${ms(run.cold.max)}; CPU ${round2(run.cold.serverCpu + run.cold.postgresCpu)} ms cold, ${round2(run.warm.at(-1)!.serverCpu + run.warm.at(-1)!.postgresCpu)} ms warm`,
      reference: '',
      ratio: '',
      target: '≥ 95%, ≤ 2 s',
      met: all.every(met),
    };
  });
}
