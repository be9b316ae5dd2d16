import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { seededRandom } from '../../apps/server/src/modules/demo/seeded-random.ts';
import { percentile } from './stats.ts';

const run = promisify(execFile);

export interface PgbenchResult {
  tps: number;
  clients: number;
  seconds: number;
  command: string;
}

/** How the rush's reference runs, wherever it is measured: `pgbench -N` with these clients and threads. */
export const PGBENCH_REFERENCE = { clients: 16, threads: 2 } as const;

/**
 * PostgreSQL's own transaction rate on this machine: `pgbench -N` (per transaction: update one account, read it,
 * append to history) on a scratch database of the same server.
 */
export async function pgbenchTps(
  pgbench: string,
  scratchUrl: string,
  opts: { clients: number; threads: number; seconds: number },
): Promise<PgbenchResult> {
  await run(pgbench, ['-i', '-q', '-s', '1', scratchUrl], { maxBuffer: 16 * 1024 * 1024 });
  const args = ['-N', '-c', String(opts.clients), '-j', String(opts.threads), '-T', String(opts.seconds)];
  const { stdout } = await run(pgbench, [...args, scratchUrl], { maxBuffer: 16 * 1024 * 1024 });
  const match =
    /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout);
  if (!match) throw new Error(`could not read pgbench's tps from:\n${stdout}`);
  return {
    tps: Number(match[1]),
    clients: opts.clients,
    seconds: opts.seconds,
    command: `pgbench ${args.join(' ')}`,
  };
}

export interface PgliteRound {
  /** The median round's transactions per second. */
  tps: number;
  rounds: number[];
}

export interface PgliteRawResult {
  /** pgbench -N's transaction (the reference of the embedded rush, as pgbench -N is PostgreSQL's). */
  pgbench: PgliteRound;
  /** One INSERT per transaction, the lightest write there is (a diagnostic). */
  insert: PgliteRound;
  /** Transactions per round. */
  transactions: number;
}

/**
 * The embedded engine's own transaction rate, measured as the rush on PostgreSQL is: against pgbench -N's
 * transaction (update one account, read it back, append to the history), run by PGlite in this process on pgbench's
 * tables at scale 1 (100,000 accounts) in a scratch data directory on disk, one transaction after another (PGlite
 * runs one at a time). Also one INSERT per transaction, the lightest write there is. Three rounds each, in turns;
 * the median round of each is reported.
 */
export async function pgliteRawTps(transactions: number): Promise<PgliteRawResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cinema-bench-pglite-raw-'));
  const db = await PGlite.create(dir);
  try {
    // pgbench -i's two tables that -N touches (pgbench_branches and pgbench_tellers it does not).
    await db.exec(`
      create table pgbench_accounts (aid int not null primary key, bid int, abalance int, filler char(84))
        with (fillfactor = 100);
      create table pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
      insert into pgbench_accounts select aid, 1, 0, '' from generate_series(1, 100000) as aid;
      create table bench_tx (id serial primary key, seat int not null, at timestamptz default now());`);
    await db.exec('vacuum analyze');
    const random = seededRandom(42);
    const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
    // pgbench's built-in "simple update" script (-N), statement for statement.
    const pgbenchN = () =>
      db.transaction(async (tx) => {
        const [aid, tid, delta] = [between(1, 100_000), between(1, 10), between(-5000, 5000)];
        await tx.query('update pgbench_accounts set abalance = abalance + $1 where aid = $2', [delta, aid]);
        await tx.query('select abalance from pgbench_accounts where aid = $1', [aid]);
        await tx.query(
          'insert into pgbench_history (tid, bid, aid, delta, mtime) values ($1, 1, $2, $3, current_timestamp)',
          [tid, aid, delta],
        );
      });
    const insert = (i: number) =>
      db.transaction(async (tx) => {
        await tx.query('insert into bench_tx (seat) values ($1)', [i]);
      });
    for (let i = 0; i < 50; i++) {
      await pgbenchN(); // warm-up
      await insert(i);
    }
    const timed = async (once: (i: number) => Promise<unknown>) => {
      const started = performance.now();
      for (let i = 0; i < transactions; i++) await once(i);
      return transactions / ((performance.now() - started) / 1000);
    };
    // One round lasts about a second, at the mercy of the machine; PGlite's WebAssembly keeps warming up.
    const pgbenchRounds: number[] = [];
    const insertRounds: number[] = [];
    for (let round = 0; round < 3; round++) {
      pgbenchRounds.push(await timed(pgbenchN));
      insertRounds.push(await timed(insert));
    }
    const median = (rounds: number[]): PgliteRound => ({ tps: percentile(rounds, 50), rounds });
    return { pgbench: median(pgbenchRounds), insert: median(insertRounds), transactions };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The hold's own database work, without the server: `pgbench` (prepared, 16 clients) calling `hold_seats` directly
 * for every adjacent seat pair of the given showtimes once, in turn, each for a different customer: winning holds
 * only, the expensive kind (lock, count, insert). Returns holds per second.
 */
export async function holdFunctionTps(
  pgbench: string,
  databaseUrl: string,
  showtimeIds: string[],
): Promise<number> {
  const clients = 16;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const dir = await mkdtemp(path.join(tmpdir(), 'cinema-bench-pgbench-'));
  try {
    // Pairs (1,2), (3,4), … of each row: none overlaps another, so every hold can win.
    await client.query(
      `create table bench_pairs as
         select row_number() over () as n, sh.id as showtime_id, array[a.id, b.id] as seat_ids
           from showtimes sh
           join seats a on a.hall_id = sh.hall_id and a.number % 2 = 1
           join seats b on b.hall_id = a.hall_id and b.row = a.row and b.number = a.number + 1
          where sh.id = any($1::uuid[])`,
      [showtimeIds],
    );
    await client.query('create unique index on bench_pairs (n)');
    await client.query('create table bench_customers as select row_number() over () as n, id from users');
    await client.query('create unique index on bench_customers (n)');
    await client.query('create sequence bench_pair_seq');
    const pairs = (await client.query('select count(*)::int as n from bench_pairs')).rows[0].n as number;
    const customers = (await client.query('select count(*)::int as n from bench_customers')).rows[0]
      .n as number;
    const script = path.join(dir, 'hold.sql');
    // Pair after pair; customer after customer (none comes near the hold limit of one showtime).
    await writeFile(
      script,
      `select nextval('bench_pair_seq') as p \\gset\n\\set c 1 + :p % ${customers}\n` +
        `select h.outcome from bench_pairs p, bench_customers c, ` +
        `hold_seats(p.showtime_id, c.id, p.seat_ids, 10, 10, 10, NULL, 40) h where p.n = :p and c.n = :c;\n`,
    );
    const perClient = Math.floor(pairs / clients);
    const { stdout } = await run(
      pgbench,
      [
        '-n',
        '-M',
        'prepared',
        '-f',
        script,
        '-c',
        String(clients),
        '-j',
        '2',
        '-t',
        String(perClient),
        databaseUrl,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const match = /tps = ([\d.]+)/.exec(stdout);
    if (!match) throw new Error(`could not read pgbench's tps from:\n${stdout}`);
    const won = (
      await client.query(`select count(*)::int as n from bookings where showtime_id = any($1::uuid[])`, [
        showtimeIds,
      ])
    ).rows[0].n as number;
    if (won < perClient * clients * 2)
      throw new Error(`pgbench's holds did not all win: ${won / 2} of ${perClient * clients}`);
    return Number(match[1]);
  } finally {
    await client
      .query('drop table if exists bench_pairs, bench_customers; drop sequence if exists bench_pair_seq')
      .catch(() => undefined);
    await client.end();
    await rm(dir, { recursive: true, force: true });
  }
}
