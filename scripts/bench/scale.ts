// The rush under other loads (issue 22): where most requests win (a 2,000-seat hall), through WORKERS=1, 2 and 4
// processes on one PostgreSQL and Redis, and at 25–200 customers in flight (hold latency), with the CPU each hold
// costs each process, counted from /proc.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/test/server-process.ts';
import { sql } from 'drizzle-orm';
import { ADMIN, adminToken, insertHall, createShowtimes, type Customer, type Hall } from './cinema.ts';
import { cpuMeter, type CpuUse } from './cpu.ts';
import type { Row } from './report.ts';
import type { RushCheck, RushOptions, RushResult } from './rush.ts';
import {
  adminQuery,
  backendsOf,
  checkRounds,
  checksOk,
  customerRounds,
  databaseUrl,
  describeChecks,
  HALL,
  log,
  medianRound,
  ms,
  perSecond,
  prepareCinema,
  rushRounds,
  RUSH_ROUNDS,
  settings,
  WARMUP_CUSTOMERS,
  WARMUP_ROUNDS,
} from './setup.ts';
import { round } from './stats.ts';
import { seededRandom } from '../../apps/server/src/modules/demo/seeded-random.ts';

export const HIGH_WIN = { rows: 40, cols: 50, customers: 500, minSeats: 2, maxSeats: 4 };
export const WORKER_COUNTS = [1, 2, 4];
export const IN_FLIGHT = [25, 50, 100, 200];

/** Rounds of one kind with the CPU their holds cost (the meter runs from each round's first hold to its last). */
export interface MeasuredRounds {
  rounds: RushResult[];
  rush: RushResult;
  check: RushCheck;
  cpu: CpuUse;
}

/** A fresh PostgreSQL database of its own for a part, dropped afterwards. */
export async function scratch<T>(label: string, work: (name: string) => Promise<T>): Promise<T> {
  const name = `cinema_${label}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  try {
    return await work(name);
  } finally {
    await adminQuery(`drop database if exists ${name} with (force)`).catch((err) =>
      log(`cleanup failed: ${err}`),
    );
  }
}

export const serverEnv = (name: string, workers: number) => ({
  DATABASE_URL: databaseUrl(name),
  REDIS_URL: settings.redisUrl,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  WORKERS: String(workers),
});

export const openPg = (name: string) =>
  openDatabase({ databaseUrl: databaseUrl(name), dataDir: 'memory://' });

/** Customers for `sets` rounds, then the tables vacuumed and analyzed (as autovacuum would have left them). */
export async function customersFor(
  name: string,
  sets: number,
  count: number,
  label: string,
): Promise<Customer[][]> {
  const database = await openPg(name);
  try {
    const all = await customerRounds(database.db, sets, count, label);
    await database.db.execute(sql`vacuum analyze`);
    return all;
  } finally {
    await database.close();
  }
}

/** Timed rounds with the CPU of their holds summed over the rounds, then the SQL checks. */
export async function measuredRounds(
  server: ServerProcess,
  database: string,
  hall: Hall,
  showtimeIds: string[],
  customers: Customer[][],
  concurrency: number,
  opts: RushOptions & { label?: string } = {},
): Promise<MeasuredRounds> {
  const total: CpuUse = {
    wallSeconds: 0,
    server: 0,
    postgres: 0,
    bench: 0,
    others: 0,
    cores: os.cpus().length,
  };
  let meter: Awaited<ReturnType<typeof cpuMeter>> | undefined;
  const rounds = await rushRounds(server, hall, showtimeIds, customers, concurrency, {
    ...opts,
    settle: true,
    holdsStart: async () => {
      meter = await cpuMeter(server.pid, () => backendsOf(database));
      await opts.holdsStart?.();
    },
    holdsEnd: async () => {
      await opts.holdsEnd?.();
      const use = await meter!.stop();
      for (const key of ['wallSeconds', 'server', 'postgres', 'bench', 'others'] as const)
        total[key] += use[key];
    },
  });
  const db: Database = await openPg(database);
  try {
    return {
      rounds,
      rush: medianRound(rounds),
      check: await checkRounds(db, showtimeIds, rounds),
      cpu: total,
    };
  } finally {
    await db.close();
  }
}

/** The same in whole µs per hold request, and how busy the cores were in whole percent: for the logs and the text. */
export function cpuPerHoldUs(m: MeasuredRounds) {
  const c = cpuPerHold(m);
  const us = (msPerHold: number) => round(msPerHold * 1000);
  return {
    server: us(c.server),
    postgres: us(c.postgres),
    bench: us(c.bench),
    others: us(c.others),
    busy: round(c.busy * 100),
  };
}

/** CPU milliseconds per hold request, by process, over the rounds. */
export function cpuPerHold(m: MeasuredRounds) {
  const holds = m.rounds.reduce((n, r) => n + r.holdRequests, 0);
  const per = (s: number) => (s * 1000) / holds;
  return {
    server: per(m.cpu.server),
    postgres: per(m.cpu.postgres),
    bench: per(m.cpu.bench),
    others: per(m.cpu.others),
    ours: per(m.cpu.server + m.cpu.postgres + m.cpu.bench),
    /** How busy the machine's cores were while the holds ran (all processes, others included). */
    busy: (m.cpu.server + m.cpu.postgres + m.cpu.bench + m.cpu.others) / (m.cpu.wallSeconds * m.cpu.cores),
  };
}

export async function warmUp(
  server: ServerProcess,
  hall: Hall,
  showtimeIds: string[],
  customers: Customer[][],
) {
  await rushRounds(server, hall, showtimeIds, customers, settings.concurrency, { label: 'warm-up', seed: 1 });
}

/**
 * Where the high-win rush's customers try first: each a block of 2–4 adjacent seats of their own (as a customer
 * picks seats the map shows free), laid out row by row and handed out in a shuffled order, except one in five who
 * tries a block at random (a seat someone else may have taken meanwhile). A refused customer tries again at random.
 */
function highWinPlan(hall: Hall): (string[] | undefined)[] {
  const random = seededRandom(22);
  const blocks: string[][] = [];
  let row = 0;
  let col = 0;
  for (let i = 0; i < HIGH_WIN.customers; i++) {
    const size = HIGH_WIN.minSeats + Math.floor(random() * (HIGH_WIN.maxSeats - HIGH_WIN.minSeats + 1));
    if (col + size > HIGH_WIN.cols) {
      row++;
      col = 0;
    }
    blocks.push(hall.seatIds[row]!.slice(col, col + size));
    col += size;
  }
  for (let i = blocks.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [blocks[i], blocks[j]] = [blocks[j]!, blocks[i]!];
  }
  return blocks.map((block) => {
    if (random() >= 0.2) return block;
    const r = hall.seatIds[Math.floor(random() * HIGH_WIN.rows)]!;
    const c = Math.floor(random() * (HIGH_WIN.cols - block.length + 1));
    return r.slice(c, c + block.length);
  });
}

export interface HighWinResult {
  standard: MeasuredRounds;
  highWin: MeasuredRounds;
}

/** The usual rush and the high-win rush (2,000 seats, 500 customers of 2–4 seats) on one warm server. */
export async function highWinRush(): Promise<HighWinResult> {
  return scratch('highwin', async (name) => {
    const warmup = await customersFor(name, WARMUP_ROUNDS, WARMUP_CUSTOMERS, 'hw-warmup');
    const standardCustomers = await customersFor(name, RUSH_ROUNDS, settings.customers, 'hw-standard');
    const highCustomers = await customersFor(name, RUSH_ROUNDS, HIGH_WIN.customers, 'hw-high');
    const seed = await openPg(name);
    const big = await insertHall(seed.db, HIGH_WIN.rows, HIGH_WIN.cols).finally(() => seed.close());
    const server = await startServerProcess(serverEnv(name, 1), { nodeArgs: settings.serverNodeArgs });
    try {
      const cinema = await prepareCinema(server, WARMUP_ROUNDS + RUSH_ROUNDS);
      const token = await adminToken(server.url);
      const bigShows = await createShowtimes(server.url, token, big, RUSH_ROUNDS);
      log('high-win rush: the usual rush first (600 seats), then 2,000 seats for 500 customers of 2–4 seats');
      await warmUp(server, cinema.hall, cinema.showtimeIds.slice(0, WARMUP_ROUNDS), warmup);
      const standard = await measuredRounds(
        server,
        name,
        cinema.hall,
        cinema.showtimeIds.slice(WARMUP_ROUNDS),
        standardCustomers,
        settings.concurrency,
      );
      const highWin = await measuredRounds(server, name, big, bigShows, highCustomers, settings.concurrency, {
        label: 'high-win',
        firstTry: highWinPlan(big),
      });
      return { standard, highWin };
    } finally {
      await server.stop();
    }
  });
}

export interface WorkersResult {
  runs: (MeasuredRounds & { workers: number })[];
}

/** The rush through WORKERS=1, 2 and 4 on one database and Redis, each after its own warm-up. */
export async function workersRush(): Promise<WorkersResult> {
  return scratch('workers', async (name) => {
    const perCount = WARMUP_ROUNDS + RUSH_ROUNDS;
    const customers = await customersFor(
      name,
      perCount * WORKER_COUNTS.length,
      settings.customers,
      'workers',
    );
    let setup = await startServerProcess(serverEnv(name, 1), { nodeArgs: settings.serverNodeArgs });
    let cinema: Awaited<ReturnType<typeof prepareCinema>>;
    try {
      cinema = await prepareCinema(setup, perCount * WORKER_COUNTS.length, HALL);
    } finally {
      await setup.stop();
    }
    const runs: WorkersResult['runs'] = [];
    for (const [k, workers] of WORKER_COUNTS.entries()) {
      log(`WORKERS=${workers}: ${WARMUP_ROUNDS} warm-up rounds, ${RUSH_ROUNDS} timed rounds`);
      const server = (setup = await startServerProcess(serverEnv(name, workers), {
        nodeArgs: settings.serverNodeArgs,
      }));
      try {
        const shows = cinema.showtimeIds.slice(k * perCount, (k + 1) * perCount);
        const sets = customers.slice(k * perCount, (k + 1) * perCount);
        await warmUp(server, cinema.hall, shows.slice(0, WARMUP_ROUNDS), sets.slice(0, WARMUP_ROUNDS));
        const measured = await measuredRounds(
          server,
          name,
          cinema.hall,
          shows.slice(WARMUP_ROUNDS),
          sets.slice(WARMUP_ROUNDS),
          settings.concurrency,
        );
        runs.push({ ...measured, workers });
      } finally {
        await server.stop();
      }
    }
    return { runs };
  });
}

export interface LatencyResult {
  levels: (MeasuredRounds & { inFlight: number })[];
}

/** One warm server process; the rush at 25, 50, 100 and 200 customers in flight, three rounds each. */
export async function holdLatency(): Promise<LatencyResult> {
  return scratch('latency', async (name) => {
    const sets = WARMUP_ROUNDS + RUSH_ROUNDS * IN_FLIGHT.length;
    const customers = await customersFor(name, sets, settings.customers, 'latency');
    const server = await startServerProcess(serverEnv(name, 1), { nodeArgs: settings.serverNodeArgs });
    try {
      const cinema = await prepareCinema(server, sets);
      await warmUp(
        server,
        cinema.hall,
        cinema.showtimeIds.slice(0, WARMUP_ROUNDS),
        customers.slice(0, WARMUP_ROUNDS),
      );
      const levels: LatencyResult['levels'] = [];
      for (const [k, inFlight] of IN_FLIGHT.entries()) {
        log(`hold latency: ${inFlight} customers in flight`);
        const from = WARMUP_ROUNDS + k * RUSH_ROUNDS;
        const measured = await measuredRounds(
          server,
          name,
          cinema.hall,
          cinema.showtimeIds.slice(from, from + RUSH_ROUNDS),
          customers.slice(from, from + RUSH_ROUNDS),
          inFlight,
        );
        levels.push({ ...measured, inFlight });
      }
      return { levels };
    } finally {
      await server.stop();
    }
  });
}

const cpuCell = (m: MeasuredRounds) => {
  const c = cpuPerHold(m);
  return `${round(c.ours, 2)} ms (server ${round(c.server, 2)}, PostgreSQL ${round(c.postgres, 2)}, load generator ${round(c.bench, 2)})`;
};
const busyCell = (m: MeasuredRounds) => {
  const c = cpuPerHold(m);
  return `${round(c.busy * 100)}% (others ${round((c.others / (c.ours + c.others || 1)) * 100)}%)`;
};

export const HIGH_WIN_SECTION_TITLE = '## What a rush counts';

export function renderHighWinSection(r: HighWinResult, date: string): string {
  const line = (name: string, m: MeasuredRounds) => {
    const x = m.rush;
    return (
      `| ${name} | ${perSecond(x.holdsPerSecond)} | ${perSecond(x.winsPerSecond)} | ` +
      `${round((x.held / x.holdRequests) * 100)}% | ${perSecond(x.seatsHeld / x.holdSeconds)} | ${ms(x.holdP50)} | ` +
      `${ms(x.holdP99)} | ${perSecond(x.paymentsPerSecond)} | ${cpuCell(m)} | ${describeChecks(m.check, m.rounds)} |`
    );
  };
  return `${HIGH_WIN_SECTION_TITLE}

Measured by \`BENCH_ONLY=highwin npm run bench\` on ${date}, one server process on PostgreSQL after ${WARMUP_ROUNDS} warm-up rounds, the
median of ${RUSH_ROUNDS} rounds each, ${settings.concurrency} customers in flight. "Holds/s" counts every hold request answered, won (201) or
refused (409); "winning holds/s" only those that got their seats. In the usual rush (${settings.customers} customers of two seats, a
600-seat hall, each pair picked at random) most requests are cheap refusals once the hall fills; in the high-win rush
(${HIGH_WIN.customers} customers of ${HIGH_WIN.minSeats}–${HIGH_WIN.maxSeats} adjacent seats, a ${HIGH_WIN.rows * HIGH_WIN.cols}-seat hall written into the database, since the hall editor
stops at 1,500 seats) four customers in five first try a block the map showed them free and one in five a block at
random, so most requests win and the expensive path (the customer's advisory lock, the hold count, a booking per
seat) is what is measured. CPU per hold request counted from /proc over
the holds of the rounds (the server process, the PostgreSQL backends of the benchmark's database, the load generator).

| rush | holds/s | winning holds/s | won | seats won/s | p50 | p99 | checkouts paid/s | CPU per hold request | SQL checks |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${line(`usual: ${settings.customers} customers × 2 seats, 600 seats`, r.standard)}
${line(`high-win: ${HIGH_WIN.customers} customers × ${HIGH_WIN.minSeats}–${HIGH_WIN.maxSeats} seats, ${HIGH_WIN.rows * HIGH_WIN.cols} seats`, r.highWin)}
`;
}

export function highWinRows(r: HighWinResult): Row[] {
  return [
    {
      figure: 'Rush on PostgreSQL: winning holds/s (of all holds/s)',
      measured: `${perSecond(r.standard.rush.winsPerSecond)} (of ${perSecond(r.standard.rush.holdsPerSecond)})`,
      reference: '',
      ratio: '',
      target: '',
      met: null,
    },
    {
      figure: `High-win rush (${HIGH_WIN.rows * HIGH_WIN.cols} seats, ${HIGH_WIN.customers} customers of 2–4): winning holds/s, p99`,
      measured:
        `${perSecond(r.highWin.rush.winsPerSecond)} of ${perSecond(r.highWin.rush.holdsPerSecond)}, ` +
        `p99 ${ms(r.highWin.rush.holdP99)}`,
      reference: '',
      ratio: '',
      target: 'all hold',
      met: checksOk(r.highWin.check, r.highWin.rounds),
    },
  ];
}

export const WORKERS_SECTION_TITLE = '## Many processes';

export function renderWorkersSection(r: WorkersResult, date: string): string {
  const one = r.runs[0]!;
  const lines = r.runs
    .map(
      (m) =>
        `| ${m.workers} | ${perSecond(m.rush.holdsPerSecond)} | ${round(m.rush.holdsPerSecond / one.rush.holdsPerSecond, 2)}× | ` +
        `${perSecond(m.rush.winsPerSecond)} | ${ms(m.rush.holdP50)} | ${ms(m.rush.holdP99)} | ${perSecond(m.rush.paymentsPerSecond)} | ` +
        `${cpuCell(m)} | ${busyCell(m)} | ${describeChecks(m.check, m.rounds)} |`,
    )
    .join('\n');
  return `${WORKERS_SECTION_TITLE}

Measured by \`BENCH_ONLY=workers npm run bench\` on ${date}: the rush (${settings.customers} customers, ${settings.concurrency} in flight, 600 seats) through
\`WORKERS=1\`, 2 and 4 (node:cluster, one port) on one PostgreSQL database and one Redis, one after another in one run;
each process count starts afresh, warms up over ${WARMUP_ROUNDS} rounds and is timed over ${RUSH_ROUNDS} (the median round shown); the SQL checks
run after each. The cores' use is over the holds of the timed rounds, every process on the machine counted
("others": work that was not ours, on shared cores).

| processes | holds/s | vs 1 | winning holds/s | p50 | p99 | checkouts paid/s | CPU per hold request | cores busy | SQL checks |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines}

${workersReading(r)}
`;
}

/** What the figures say: where the limit is on this machine, and what they predict for more cores. */
function workersReading(r: WorkersResult): string {
  const one = r.runs[0]!;
  const best = r.runs.reduce((a, b) => (b.rush.holdsPerSecond > a.rush.holdsPerSecond ? b : a));
  const c1 = cpuPerHold(one);
  const cores = one.cpu.cores;
  const ceiling = (cores * 1000) / c1.ours;
  const perCore = 1000 / c1.ours;
  const serverShare = c1.server / c1.ours;
  return `Where the limit is: CPU. With one process a hold request costs ${round(c1.ours, 2)} ms of CPU in all (the server
${round(c1.server, 2)} ms, PostgreSQL ${round(c1.postgres, 2)} ms, the load generator ${round(c1.bench, 2)} ms), so ${cores} cores answer at most about
${perSecond(ceiling)} with nothing else running; the cores were ${round(c1.busy * 100)}% busy during the holds, others' work
included. More processes cannot add cores: ${best.workers === 1 ? 'one process was the fastest here' : `the best was ${best.workers} processes at ${round(best.rush.holdsPerSecond / one.rush.holdsPerSecond, 2)}× of one`}, and each
process added brings its own event loop, pool and Redis connections to share the same ${cores} cores. One server
process is ${round(serverShare * 100)}% of the CPU a hold costs and runs on one core at a time, so on this
machine it is not the bottleneck before the cores are full.

What it predicts: at about ${round(perCore)} holds/s per core of CPU (the three processes together), a machine with 8 cores
would be CPU-bound near ${perSecond(perCore * 8)} and 16 cores near ${perSecond(perCore * 16)}, if the load generator ran elsewhere
(it is ${round((c1.bench / c1.ours) * 100)}% of that CPU) and if one server process could keep up: a single process uses
at most one core, about ${perSecond(1000 / c1.server)} at ${round(c1.server, 2)} ms per hold, so beyond that \`WORKERS\` (about one process per
core left after PostgreSQL's share) is what lets the rush use the rest. PostgreSQL's own share (${round(c1.postgres, 2)} ms a hold)
then decides: its backends spread over the cores, and winning holds of different customers do not wait for each
other (the customer's advisory lock and the seats' unique index are the only locks they take).`;
}

export function workersRows(r: WorkersResult): Row[] {
  const one = r.runs[0]!.rush.holdsPerSecond;
  return r.runs.map((m) => ({
    figure: `Rush through WORKERS=${m.workers}: holds/s, p99`,
    measured: `${perSecond(m.rush.holdsPerSecond)}, p99 ${ms(m.rush.holdP99)}`,
    reference: m.workers === 1 ? '' : `WORKERS=1 ${perSecond(one)}`,
    ratio: m.workers === 1 ? '' : `${round(m.rush.holdsPerSecond / one, 2)}×`,
    target: 'checks hold',
    met: checksOk(m.check, m.rounds),
  }));
}

export const LATENCY_SECTION_TITLE = '## Hold latency';

export function renderLatencySection(r: LatencyResult, date: string): string {
  const best = (m: MeasuredRounds) =>
    m.rounds.reduce((x, y) => (y.holdsPerSecond > x.holdsPerSecond ? y : x));
  const lines = r.levels
    .map((m) => {
      const little = (m.inFlight / m.rush.holdsPerSecond) * 1000;
      const b = best(m);
      return (
        `| ${m.inFlight} | ${perSecond(m.rush.holdsPerSecond)} | ${ms(m.rush.holdP50)} | ${ms(m.rush.holdP99)} | ` +
        `${ms(little)} | ${round(m.rush.holdP99 / little, 1)} | ${perSecond(b.holdsPerSecond)}, p99 ${ms(b.holdP99)} | ` +
        `${cpuCell(m)} | ${busyCell(m)} | ${m.rush.holdP99 < 100 ? 'yes' : 'no'} |`
      );
    })
    .join('\n');
  const met = r.levels.filter((m) => m.rush.holdP99 < 100).map((m) => m.inFlight);
  const top = r.levels.at(-1)!;
  const c = cpuPerHold(top);
  const capacity = (top.cpu.cores * 1000) / c.ours;
  // The tail over the mean at the top level: how much more than the average wait the slowest 1% see.
  const tails = r.levels.map((m) => m.rush.holdP99 / ((m.inFlight / m.rush.holdsPerSecond) * 1000));
  const tail = [...tails].sort((x, y) => x - y)[Math.floor(tails.length / 2)]!;
  const needed = (top.inFlight * tail) / 0.1;
  const allowed = (0.1 * capacity) / tail;
  const allowedMeasured = (0.1 * best(top).holdsPerSecond) / tail;
  return `${LATENCY_SECTION_TITLE}

Measured by \`BENCH_ONLY=latency npm run bench\` on ${date}: one server process on PostgreSQL, warmed up over ${WARMUP_ROUNDS} rounds, then
the rush (${settings.customers} customers, 600 seats) with ${IN_FLIGHT.join(', ')} customers in flight, ${RUSH_ROUNDS} rounds each, each started once the
server is idle (the median round by holds/s shown, and the fastest round beside it: the one the machine's other work
disturbed least). "Queueing" is Little's law, in flight ÷ holds/s: the average time a request spends in the system
when that many wait at once for a server answering that many per second; "tail" is p99 over that average.

| in flight | holds/s | p50 | p99 | queueing: in flight ÷ holds/s | tail | fastest round | CPU per hold request | cores busy | p99 < 100 ms |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${lines}

Why 100 ms at ${top.inFlight} in flight is out of reach on ${top.cpu.cores} cores: latency here is queueing. A hold request costs
${round(c.ours, 2)} ms of CPU across the server (${round(c.server, 2)}), PostgreSQL (${round(c.postgres, 2)}) and the load generator (${round(c.bench, 2)}), so the ${top.cpu.cores}
cores answer at most about ${perSecond(capacity)} with nothing else running. With ${top.inFlight} requests always waiting, the average
wait is ${top.inFlight} ÷ holds/s, and the slowest 1% wait about ${round(tail, 1)} times the average (the median tail above), so p99 < 100 ms
at ${top.inFlight} in flight needs about ${top.inFlight} × ${round(tail, 1)} ÷ 0.1 s ≈ ${perSecond(needed)}: ${needed > capacity ? `more than the ${perSecond(capacity)} the cores can give` : `within the ${perSecond(capacity)} the cores could give if nothing else ran`}.
The same arithmetic gives the concurrency at which the target can be met: up to about 0.1 s × ${perSecond(capacity)} ÷ ${round(tail, 1)} ≈
${round(allowed)} customers in flight with the machine to itself, about ${round(allowedMeasured)} at the fastest rate measured at ${top.inFlight} in flight
(${perSecond(best(top).holdsPerSecond)}). Measured in this run, the target was met at ${met.length ? `${met.join(', ')} in flight` : 'none of the levels: other work took most of the cores (the "cores busy" column)'}.
`;
}

export function latencyRows(r: LatencyResult): Row[] {
  return r.levels.map((m) => ({
    figure: `Hold latency p99, ${m.inFlight} in flight (PostgreSQL)`,
    measured: `${ms(m.rush.holdP99)} (${perSecond(m.rush.holdsPerSecond)})`,
    reference: '',
    ratio: '',
    target: '< 100 ms',
    met: m.rush.holdP99 < 100,
  }));
}
