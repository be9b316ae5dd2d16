// The rush against the bare hold server (bare-hold-server.mjs, issue 32): the same rounds, customers and hall as the
// app's rush, on the same database, through a server that does nothing but look up the session (once per customer),
// call `hold_seats` and answer. Its rate is what any Node.js server could reach on this machine, so the app's rush
// against it says what the app's own work costs, and against pgbench -N how near the target the bare minimum is.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerProcess } from '../../apps/server/src/test/server-process.ts';
import type { Customer, Hall } from './cinema.ts';
import { hammer } from './reads.ts';
import { measuredRounds, type MeasuredRounds } from './scale.ts';
import { round } from './stats.ts';
import { log, rushRounds, settings } from './setup.ts';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-hold-server.mjs');

/** Starts the bare hold server on a free port; resolves once it listens. */
export function startBareHoldServer(databaseUrl: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-200_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = () =>
    new Promise<void>((resolve) =>
      child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the bare hold server did not start:\n${output}`)),
      15_000,
    );
    child.once('exit', (code) => reject(new Error(`the bare hold server exited (${code}):\n${output}`)));
    child.stdout.on('data', () => {
      const port = /listening on (\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid!,
        child,
        output: () => output,
        async stop() {
          child.kill('SIGTERM');
          await exited();
        },
        async crash() {
          child.kill('SIGKILL');
          await exited();
        },
        rss: () => null,
      });
    });
  });
}

/**
 * The rush through the bare hold server: warm-up rounds, then timed ones (each once the server is idle, with the
 * CPU each process spent), checked in SQL as the app's rounds are. Nobody pays: the server only holds.
 */
export async function bareRush(
  database: string,
  databaseUrl: string,
  hall: Hall,
  warmupShowtimes: string[],
  rushShowtimes: string[],
  warmup: Customer[][],
  customers: Customer[][],
  reads?: { mapBytes: number; bareBytes: number },
): Promise<MeasuredRounds & { reads?: BareReads }> {
  const server = await startBareHoldServer(databaseUrl);
  try {
    await rushRounds(server, hall, warmupShowtimes, warmup, settings.concurrency, {
      label: 'bare warm-up',
      seed: 1,
      pay: false,
    });
    log(`  ${rushShowtimes.length} timed rounds through the bare hold server`);
    const m = await measuredRounds(server, database, hall, rushShowtimes, customers, settings.concurrency, {
      label: 'bare rush',
      pay: false,
    });
    return reads ? { ...m, reads: await bareReads(server.url, reads.mapBytes, reads.bareBytes) } : m;
  } finally {
    await server.stop();
  }
}

export interface BareReads {
  mapBytes: number;
  bareBytes: number;
  /** Answers of the seat map's size per second, and of the bare route's size, on the bare server (averages). */
  map: number;
  bare: number;
}

/**
 * The seat-map reads' yardstick on the bare server: answers of the map's size against answers of the bare route's
 * size, with the reads' autocannon settings, in turns. Their ratio is the most a seat-map read of that size could
 * reach against the bare route on this machine: the cost of sending and receiving the bytes alone.
 */
async function bareReads(url: string, mapBytes: number, bareBytes: number): Promise<BareReads> {
  const seconds = 5;
  const small = `${url}/bytes?n=${bareBytes}`;
  const big = `${url}/bytes?n=${mapBytes}`;
  await hammer(small, settings.readConnections, 2);
  await hammer(big, settings.readConnections, 2);
  const rates = { small: [] as number[], big: [] as number[] };
  for (const [kind, target] of [
    ['small', small],
    ['big', big],
    ['big', big],
    ['small', small],
  ] as const)
    rates[kind].push((await hammer(target, settings.readConnections, seconds)).requestsPerSecond);
  const avg = (xs: number[]) => xs.reduce((n, x) => n + x, 0) / xs.length;
  const result = { mapBytes, bareBytes, map: avg(rates.big), bare: avg(rates.small) };
  log(
    `  bare server: ${mapBytes} bytes ${round(result.map)}/s vs ${bareBytes} bytes ${round(result.bare)}/s ` +
      `(${round(result.map / result.bare, 2)}×)`,
  );
  return result;
}
