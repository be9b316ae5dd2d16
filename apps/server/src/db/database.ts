import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import {
  PGlite,
  types,
  type ParserOptions,
  type PGliteOptions,
  type Transaction,
} from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { PgTransaction, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { serverRoot } from '../paths.ts';
import * as schema from './schema/index.ts';
import { lockDownDataDir } from '../../../../scripts/data-dir.mjs';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** node-postgres's pool (connections total, idle, and callers waiting for one); none for the embedded engine. */
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  /** The embedded engine itself (backups); none for PostgreSQL. */
  pglite?: PGlite;
  close(): Promise<void>;
}

const migrationsFolder = path.join(serverRoot, 'drizzle');

export interface DatabaseOptions {
  /** postgres:// URL; without it the embedded engine (PGlite) is used. */
  databaseUrl?: string;
  /** PGlite data directory; `memory://` keeps it in memory. */
  dataDir: string;
  /**
   * PGlite only, with `memory://`: the filesystem the engine starts on (the tests hand it a copy of a migrated data
   * directory: test/database-templates.ts).
   */
  pgliteFs?: PGliteOptions['fs'];
  poolSize?: number;
  /** PostgreSQL's timeouts (ms); the defaults when absent. */
  timeouts?: Partial<DatabaseTimeouts>;
}

export interface DatabaseTimeouts {
  /** Waiting for a connection (a new one, or a free one from the pool). */
  connectMs: number;
  /** One statement. */
  statementMs: number;
  /** Waiting for a lock on a row or table. */
  lockMs: number;
}

export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectMs: 5000, statementMs: 15_000, lockMs: 5000 };

const MIGRATION_LOCK = 727_000;

/** Opens the configured database and applies the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      // Connections opened stay open (a fixed-size pool once warm): pg's default closed them after 10 s idle, and
      // an on-sale rush after a quiet spell then waited for new PostgreSQL backends (p99 208 against 166 ms,
      // decision 031). TCP keepalive keeps an idle one from being cut by a firewall or NAT in between.
      idleTimeoutMillis: 0,
      keepAlive: true,
      keepAliveInitialDelayMillis: 60_000,
      // A database that does not answer fails a request after this long instead of queueing it for ever.
      connectionTimeoutMillis: timeouts.connectMs,
      // A statement (or a wait for a row lock) that takes longer is cancelled: Pay never waits for ever.
      options: `-c statement_timeout=${timeouts.statementMs} -c lock_timeout=${timeouts.lockMs}`,
    });
    // A client losing its connection must not crash the process: an idle one reports to the pool, and one checked
    // out (a transaction in flight when PostgreSQL restarts) to its own listener; its query fails and the request
    // answers 503 (plugins/errors.ts).
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    // Migrations run on their own connections, without the statement timeout (rewriting a big table may take long).
    // Several processes starting at once on a fresh database would race to create the same objects (and fail):
    // they take turns, and the later ones find nothing left to do.
    const migrations = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
    migrations.on('error', () => {});
    migrations.on('connect', (client) => client.on('error', () => {}));
    try {
      const lock = await migrations.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg({ client: migrations, schema }) as never, { migrationsFolder });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        lock.release();
      }
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    } finally {
      await migrations.end().catch(() => undefined);
    }
    return { db, engine: 'postgres', pool, close: () => pool.end() };
  }
  const dataDir = options.dataDir === 'memory://' ? undefined : path.resolve(options.dataDir);
  if (dataDir) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const client = await PGlite.create(dataDir ?? 'memory://', {
    extensions: { btree_gist },
    ...(options.pgliteFs && { fs: options.pgliteFs }),
    parsers: DRIZZLE_PARSERS,
    // PGlite's default buffer cache (160 MB) lives in this process's memory; a cinema's data fits in a fraction.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  });
  const db = drizzlePglite({ client: withoutPerQueryParsers(client), schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  // The files PGlite wrote at its first start are world-writable: the data are the server's alone.
  if (dataDir) await lockDownDataDir(dataDir);
  return { db, engine: 'pglite', pglite: client, close: () => client.close() };
}

const asText = (value: string) => value;
/** What drizzle's PGlite driver asks for: dates, times and intervals (and arrays of them) as PostgreSQL's text. */
const DRIZZLE_PARSERS: ParserOptions = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

/**
 * drizzle hands PGlite its parsers with every query, and PGlite then copies its 300-odd parsers into a new map
 * for that query: about 0.2 ms each time, as much as running a small statement. The instance is created with
 * drizzle's parsers instead (DRIZZLE_PARSERS), and drizzle gets this view of it, which leaves the per-query copy out.
 */
function withoutPerQueryParsers<T extends PGlite | Transaction>(target: T): T {
  return new Proxy(target, {
    get(obj, prop) {
      if (prop === 'query') {
        return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
          obj.query(query, params, options && { ...options, parsers: undefined });
      }
      if (prop === 'transaction' && obj instanceof PGlite) {
        return <R>(work: (tx: Transaction) => Promise<R>) =>
          obj.transaction((tx) => work(withoutPerQueryParsers(tx)));
      }
      // PGlite keeps private state: its methods must run on the instance itself, not on this view.
      const value: unknown = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(obj) : value;
    },
  });
}

/**
 * Runs queries at once on the pool, one after the other on one connection (a transaction, or the app's query builder
 * over a single client): node-postgres runs one query at a time on a connection, and pg 9 refuses a query sent while
 * its connection runs another. Promise.all over a handle that may be a transaction is that mistake; this is the way.
 */
export async function runTogether<T extends readonly unknown[]>(
  db: Queryable,
  queries: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  const oneConnection =
    db instanceof PgTransaction || (db as { $client?: unknown }).$client instanceof pg.Client;
  if (!oneConnection) return (await Promise.all(queries.map((q) => q()))) as unknown as T;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as unknown as T;
}

/** The rows of a raw SQL query, on either engine (both drivers answer a raw query with `{ rows }`). */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The SQLSTATE of a database error, looking through drizzle's wrapper. */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_EXCLUSION_VIOLATION = '23P01';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
/** A delete refused by an ON DELETE RESTRICT foreign key (NO ACTION answers PG_FOREIGN_KEY_VIOLATION). */
export const PG_RESTRICT_VIOLATION = '23001';

/** True when the database refused a change because other rows still refer to the row (either kind of foreign key). */
export const isStillReferenced = (err: unknown) =>
  [PG_FOREIGN_KEY_VIOLATION, PG_RESTRICT_VIOLATION].includes(pgErrorCode(err) ?? '');
export const PG_SERIALIZATION_FAILURE = '40001';
export const PG_DEADLOCK = '40P01';
