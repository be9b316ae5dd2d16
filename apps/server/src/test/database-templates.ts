import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/database.ts';
import { serverRoot } from '../paths.ts';

// Migrating a fresh database costs 1.6 s of CPU on PGlite (most of it initdb) and 0.2 s on PostgreSQL, and the tests
// make hundreds of them. Each engine is migrated once, for real, and every test database starts as a copy of that:
// a template database on PostgreSQL, a dump of the data directory on PGlite. Both are named by a hash of the
// committed migrations, so a changed migration makes a new one; openDatabase still runs the migrator on every copy
// (it finds nothing left to do).

const migrationsFolder = path.join(serverRoot, 'drizzle');

async function hashOf(extra: string[]): Promise<string> {
  const hash = createHash('sha256');
  const journal = path.join('meta', '_journal.json');
  const files = (await readdir(migrationsFolder)).filter((f) => f.endsWith('.sql')).sort();
  for (const file of [journal, ...files]) {
    hash.update(`${file}\0`);
    hash.update(await readFile(path.join(migrationsFolder, file)));
  }
  for (const e of extra) hash.update(`\0${e}`);
  return hash.digest('hex').slice(0, 16);
}

/** `url` with its database name replaced. */
function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const TEMPLATE_LOCK = 727_001;
const PG_DUPLICATE_DATABASE = '42P04';
const templates = new Map<string, Promise<string>>();

/**
 * The name of a migrated template database on `adminUrl`'s server. Made once for a set of migrations, under an
 * advisory lock (test processes migrating at once wait for the first), and never dropped by a test run: another
 * run may be cloning it. It accepts no connections, since a clone fails while anyone is connected to its template.
 */
function postgresTemplate(adminUrl: string): Promise<string> {
  let template = templates.get(adminUrl);
  if (!template) {
    template = makePostgresTemplate(adminUrl);
    templates.set(adminUrl, template);
    template.catch(() => templates.delete(adminUrl));
  }
  return template;
}

async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `cinema_template_${await hashOf([])}`;
  return withClient(adminUrl, async (admin) => {
    const ready = async () =>
      (await admin.query('select 1 from pg_database where datname = $1 and datistemplate', [name]))
        .rowCount === 1;
    if (await ready()) return name;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (await ready()) return name;
      // Built under another name and renamed when complete: a run whose admin database differs (so its advisory
      // lock is another lock) never sees a half-migrated template, and whichever rename comes second loses.
      const building = `${name}_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${building}`);
      try {
        const database = await openDatabase({
          databaseUrl: databaseUrl(adminUrl, building),
          dataDir: 'memory://',
        });
        await database.close();
        await admin.query(`alter database ${building} with allow_connections false is_template true`);
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (err) {
        await admin.query(`alter database ${building} with is_template false`).catch(() => undefined);
        await admin.query(`drop database if exists ${building} with (force)`).catch(() => undefined);
        if ((err as { code?: string }).code === PG_DUPLICATE_DATABASE && (await ready())) return name;
        throw err;
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
    }
  });
}

/**
 * A fresh database on `adminUrl`'s server named `<prefix>_<random>`: empty, or `migrated` (a copy of the template);
 * `drop` removes it.
 */
export async function newPostgresDatabase(
  adminUrl: string,
  prefix: string,
  { migrated }: { migrated: boolean },
): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = migrated ? await postgresTemplate(adminUrl) : undefined;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (admin) =>
    admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

let pgliteDump: Promise<Blob> | undefined;

/**
 * A PGlite data directory (a `dumpDataDir` tarball) with every migration applied. Kept in the temporary directory
 * for the processes after this one, named by the migrations and the PGlite version; written to a temporary name
 * and renamed, so a process never reads half a file.
 */
export function migratedPgliteDataDir(): Promise<Blob> {
  pgliteDump ??= loadOrMakePgliteDump();
  pgliteDump.catch(() => (pgliteDump = undefined));
  return pgliteDump;
}

async function loadOrMakePgliteDump(): Promise<Blob> {
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglitePackage = await readFile(path.join(path.dirname(pgliteEntry), '..', 'package.json'), 'utf8');
  const version = (JSON.parse(pglitePackage) as { version: string }).version;
  const file = path.join(tmpdir(), 'cinema-test-templates', `pglite-${await hashOf([version])}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.pglite!.exec('checkpoint');
    const dump = await database.pglite!.dumpDataDir('none');
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
      await rename(partial, file);
    } catch {
      // Not kept (a full disk, say): the next process makes its own.
      await rm(partial, { force: true });
    }
    return dump;
  } finally {
    await database.close();
  }
}
