// `BENCH_ONLY=rush` (issue 32): the plain rush and the seat-map reads on one warm server process, with the CPU each
// request cost each process, counted from /proc: the server, the PostgreSQL backends of the benchmark's database and
// the load generator. CPU per request is steadier than a rate on shared cores, so builds can be compared by it. The
// reads start once the server is idle (every paid order's confirmation email written, see `outboxDrained`).
// Between them, the same rounds through the bare hold server (bare.ts: what the least a Node.js server must do costs).
// `BENCH_RUSH_PARTS=rush`, `bare` or `reads` runs one of the three (a profile of one kind of request, with
// `BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=…'`); `BENCH_RUSH_ROUNDS` times more rounds than 3;
// `BENCH_RUSH_WINDOWS=<file>` writes when each timed part ran (µs of the monotonic clock, as the profile counts), so
// that `profile-summary.ts --windows <file> --kind holds` looks at those moments only.
import { writeFileSync } from 'node:fs';
import { insertCustomers } from './cinema.ts';
import { cpuMeter } from './cpu.ts';
import { PGBENCH_REFERENCE, pgbenchTps } from './references.ts';
import { bodyBytes, hammer } from './reads.ts';
import { bareRush, type BareReads } from './bare.ts';
import { startServerProcess } from '../../apps/server/src/test/server-process.ts';
import {
  cpuPerHoldUs,
  customersFor,
  measuredRounds,
  openPg,
  scratch,
  serverEnv,
  warmUp,
  type MeasuredRounds,
} from './scale.ts';
import {
  backendsOf,
  databaseUrl,
  log,
  ms,
  outboxDrained,
  prepareCinema,
  settings,
  WARMUP_ROUNDS,
} from './setup.ts';
import { round } from './stats.ts';

const parts = (process.env.BENCH_RUSH_PARTS ?? 'rush,bare,reads').split(',');
const rounds = Number(process.env.BENCH_RUSH_ROUNDS ?? 3);
const READ_SECONDS = 5;
const windowsFile = process.env.BENCH_RUSH_WINDOWS;

/** When the timed parts ran, by kind, on the monotonic clock in µs (the clock of V8's CPU profiles). */
const windows: { kind: string; start: number; end: number }[] = [];
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface ReadCpu {
  path: string;
  requestsPerSecond: number;
  p99: number;
  /** µs of CPU per request: the server, PostgreSQL's backends, the load generator (autocannon, in this process). */
  server: number;
  postgres: number;
  bench: number;
}

export interface RushCpuResult {
  rush?: MeasuredRounds;
  /** The same rounds through the bare hold server (bare.ts), and its answers of the map's size. */
  bare?: MeasuredRounds & { reads?: BareReads };
  reads: ReadCpu[];
}

/** Prints the part's figures; returns them. */
export async function rushCpu(): Promise<RushCpuResult> {
  // The rush's reference, measured first while nothing else of ours runs (as the whole benchmark does).
  const reference =
    parts.includes('rush') || parts.includes('bare')
      ? await scratch('pgbench', (db) =>
          pgbenchTps(settings.pgbench, databaseUrl(db), {
            ...PGBENCH_REFERENCE,
            seconds: settings.pgbenchSeconds,
          }),
        )
      : undefined;
  if (reference) log(`pgbench -N: ${round(reference.tps)} tps`);
  /** A part's rounds and the CPU each process spent per hold request, `server` naming the server measured. */
  const logRounds = (m: MeasuredRounds, server: string) => {
    const versus = reference
      ? `; median round ${round(m.rush.holdsPerSecond / reference.tps, 2)}× pgbench -N`
      : '';
    log(
      `  holds/s ${m.rounds.map((r) => round(r.holdsPerSecond)).join(', ')}; p99 ` +
        `${m.rounds.map((r) => ms(r.holdP99)).join(', ')}; checks ${m.check.ok ? 'hold' : 'FAIL'}${versus}`,
    );
    const c = cpuPerHoldUs(m);
    log(
      `  CPU per hold request: ${server} ${c.server} µs, PostgreSQL ${c.postgres} µs, load generator ${c.bench} µs; ` +
        `cores busy ${c.busy}% (others ${c.others} µs)`,
    );
  };
  return scratch('rush', async (name) => {
    const warm = parts.includes('rush') ? WARMUP_ROUNDS : 1;
    const bareSets = parts.includes('bare') ? WARMUP_ROUNDS + rounds : 0;
    const sets = warm + rounds + bareSets + 1;
    const customers = await customersFor(name, sets, settings.customers, 'rush');
    const seed = await openPg(name);
    const [reader] = await insertCustomers(seed.db, 1, 'reader').finally(() => seed.close());
    const server = await startServerProcess(serverEnv(name, 1), { nodeArgs: settings.serverNodeArgs });
    const result: RushCpuResult = { reads: [] };
    try {
      const cinema = await prepareCinema(server, sets);
      log(`rush: ${warm} warm-up rounds, then ${rounds} timed`);
      await warmUp(server, cinema.hall, cinema.showtimeIds.slice(0, warm), customers.slice(0, warm));
      if (parts.includes('rush')) {
        const m = await measuredRounds(
          server,
          name,
          cinema.hall,
          cinema.showtimeIds.slice(warm, warm + rounds),
          customers.slice(warm, warm + rounds),
          settings.concurrency,
          {
            holdsStart: async () => void windows.push({ kind: 'holds', start: nowUs(), end: 0 }),
            holdsEnd: async () => void (windows.at(-1)!.end = nowUs()),
          },
        );
        logRounds(m, 'server');
        result.rush = m;
      }
      if (parts.includes('bare')) {
        // Not while the app's confirmation emails are still drawn: they would share the cores with the bare rounds.
        log('bare hold server: waiting for the server to be idle (every confirmation email written)');
        await outboxDrained(server, name);
        log(`bare hold server: ${WARMUP_ROUNDS} warm-up rounds, then ${rounds} timed`);
        const at = warm + rounds;
        const m = await bareRush(
          name,
          databaseUrl(name),
          cinema.hall,
          cinema.showtimeIds.slice(at, at + WARMUP_ROUNDS),
          cinema.showtimeIds.slice(at + WARMUP_ROUNDS, at + bareSets),
          customers.slice(at, at + WARMUP_ROUNDS),
          customers.slice(at + WARMUP_ROUNDS, at + bareSets),
          // The sizes as autocannon gets them (no Accept-Encoding), for the reads' yardstick.
          {
            mapBytes: (
              await bodyBytes(`${server.url}/api/showtimes/${cinema.showtimeIds.at(-1)}/seats`, {
                authorization: `Bearer ${reader!.token}`,
              })
            ).bytes,
            bareBytes: (await bodyBytes(`${server.url}/api/health/live`, {})).bytes,
          },
        );
        logRounds(m, 'bare server');
        result.bare = m;
      }
      if (parts.includes('reads')) {
        // Not while the rush's confirmation emails are still drawn: the reads would measure them too.
        log('reads: waiting for the server to be idle (every confirmation email written)');
        await outboxDrained(server, name);
        const showtimeId = cinema.showtimeIds.at(-1)!;
        const bare = `${server.url}/api/health/live`;
        const seats = `${server.url}/api/showtimes/${showtimeId}/seats`;
        await hammer(bare, settings.readConnections, 2);
        await hammer(seats, settings.readConnections, 2, reader!.token);
        // In turns, so that a change in the machine's other load weighs on both alike.
        for (const [url, token] of [
          [bare, undefined],
          [seats, reader!.token],
          [seats, reader!.token],
          [bare, undefined],
        ] as const) {
          const meter = await cpuMeter(server.pid, () => backendsOf(name));
          const window = { kind: token ? 'seat map' : 'bare', start: nowUs(), end: 0 };
          const rate = await hammer(url, settings.readConnections, READ_SECONDS, token);
          window.end = nowUs();
          windows.push(window);
          const use = await meter.stop();
          const n = rate.requestsPerSecond * use.wallSeconds;
          const read: ReadCpu = {
            path: rate.path,
            requestsPerSecond: rate.requestsPerSecond,
            p99: rate.p99,
            server: (use.server * 1e6) / n,
            postgres: (use.postgres * 1e6) / n,
            bench: (use.bench * 1e6) / n,
          };
          log(
            `  ${read.path.includes('seats') ? 'seat map' : 'bare'}: ${round(read.requestsPerSecond)}/s, CPU per read: ` +
              `server ${round(read.server)} µs, PostgreSQL ${round(read.postgres)} µs, autocannon ${round(read.bench)} µs` +
              `${rate.failed ? `; ${rate.failed} failed` : ''}`,
          );
          result.reads.push(read);
        }
        const avg = (kind: boolean, key: 'requestsPerSecond' | 'server') => {
          const of = result.reads.filter((r) => r.path.includes('seats') === kind);
          return of.reduce((n, r) => n + r[key], 0) / of.length;
        };
        log(
          `  seat map ${round(avg(true, 'requestsPerSecond'))}/s vs bare ${round(avg(false, 'requestsPerSecond'))}/s ` +
            `(${round(avg(true, 'requestsPerSecond') / avg(false, 'requestsPerSecond'), 2)}×); server CPU per read ` +
            `${round(avg(true, 'server'))} µs vs ${round(avg(false, 'server'))} µs`,
        );
      }
    } finally {
      await server.stop();
      if (windowsFile) writeFileSync(windowsFile, JSON.stringify(windows));
    }
    return result;
  });
}
