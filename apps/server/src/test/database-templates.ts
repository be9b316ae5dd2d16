import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/database.ts';
import { serverRoot } from '../paths.ts';
import { lockDownDataDir } from '../../../../scripts/data-dir.mjs';

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

/** One file or directory of a data directory; `name` is relative to PGDATA, with a leading slash. */
interface DataDirEntry {
  name: string;
  directory: boolean;
  data: Uint8Array;
}

let pgliteDataDir: Promise<DataDirEntry[]> | undefined;

/**
 * A new in-memory filesystem for PGlite holding a copy of the migrated data directory: hand it to
 * `openDatabase({ dataDir: 'memory://', pgliteFs })`, one per database.
 *
 * PGlite's own `loadDataDir` took 0.3 s of CPU per database (of 0.67 s in all): it reads the 42 MB tarball out of a
 * Blob, untars it into copies and writes each file by its path, looking every parent directory up again. Here the
 * tarball is parsed once per process and each new engine's memory filesystem gets the files straight from it, in
 * the engine's `initialSyncFs` (after the filesystem is mounted, before PostgreSQL starts, which then finds its data
 * directory as after a restart): one copy of each file's bytes, each directory looked up once.
 */
export async function migratedPgliteFs(): Promise<MemoryFS> {
  return new PreloadedMemoryFS(await migratedPgliteDataDir());
}

class PreloadedMemoryFS extends MemoryFS {
  constructor(private readonly entries: DataDirEntry[]) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    const fs = this.pg!.Module.FS;
    fs.mkdirTree(PGlite.paths.PGDATA);
    // The memory filesystem's own node operations, as FS.mkdir and FS.writeFile call them after resolving the path.
    const directories = new Map([['', fs.lookupPath(PGlite.paths.PGDATA, {}).node]]);
    for (const { name, directory, data } of this.entries) {
      const slash = name.lastIndexOf('/');
      const parent = directories.get(name.slice(0, slash));
      if (!parent) throw new Error(`PGlite template: ${name} comes before its directory`);
      const node = parent.node_ops.mknod!(parent, name.slice(slash + 1), directory ? DIRECTORY : FILE, 0);
      if (directory) {
        directories.set(name, node);
      } else if (data.length > 0) {
        // This database's own copy of the bytes, handed over (`canOwn`): PostgreSQL writes into it. FS.open takes
        // a node as well as a path (the types know only the path).
        const stream = fs.open(node as unknown as string, O_WRONLY);
        fs.write(stream, new Uint8Array(data), 0, data.length, 0, true);
        fs.close(stream);
      }
    }
  }
}

// The modes FS.mkdir and FS.writeFile give by default (0777, 0666), as PGlite's loadDataDir made them.
const DIRECTORY = 0o040777;
const FILE = 0o100666;
const O_WRONLY = 1;

function migratedPgliteDataDir(): Promise<DataDirEntry[]> {
  pgliteDataDir ??= loadOrMakePgliteDump().then(parseTar);
  pgliteDataDir.catch(() => (pgliteDataDir = undefined));
  return pgliteDataDir;
}

/**
 * The entries of a ustar archive as `dumpDataDir` writes them (directories and regular files); the data are views
 * of `archive`, not copies.
 */
function parseTar(archive: Uint8Array): DataDirEntry[] {
  const text = (offset: number, length: number) => {
    const field = archive.subarray(offset, offset + length);
    const end = field.indexOf(0);
    return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
  };
  const entries: DataDirEntry[] = [];
  let offset = 0;
  while (offset + 512 <= archive.length && archive[offset] !== 0) {
    if (!text(offset + 257, 6).startsWith('ustar'))
      throw new Error(`PGlite template: no tar header at ${offset}`);
    const prefix = text(offset + 345, 155);
    const name = prefix ? `${prefix}/${text(offset, 100)}` : text(offset, 100);
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(archive[offset + 156]!);
    if (type !== '0' && type !== '\0' && type !== '5')
      throw new Error(`PGlite template: ${name} has tar type ${type}`);
    const start = offset + 512;
    if (start + size > archive.length) throw new Error(`PGlite template: ${name} is cut short`);
    entries.push({
      name: (name.startsWith('/') ? name : `/${name}`).replace(/\/$/, ''),
      directory: type === '5',
      data: archive.subarray(start, start + size),
    });
    offset = start + Math.ceil(size / 512) * 512;
  }
  return entries;
}

let pgliteDataDirOnDisk: Promise<string> | undefined;

/**
 * Fills `dataDir` (missing or empty) with a copy of a migrated PGlite data directory, as a server's first start leaves
 * it before its own steps (the admin account and the rest still run in the server). A first start on an empty
 * DATA_DIR runs PGlite's initdb and every migration: 8–10 s of CPU in the child, where the copy takes a fraction of a
 * second. The files are the server's alone (lockDownDataDir), as after its first start.
 */
export async function copyMigratedPgliteDataDir(dataDir: string): Promise<void> {
  pgliteDataDirOnDisk ??= loadOrMakePgliteDataDir();
  pgliteDataDirOnDisk.catch(() => (pgliteDataDirOnDisk = undefined));
  const template = await pgliteDataDirOnDisk;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // cp(1) copies the 41 MB with half the CPU of node's fs.cp (0.5 against 1 s), keeping the modes.
  await promisify(execFile)('cp', ['-a', `${template}/.`, dataDir]);
  await lockDownDataDir(dataDir);
}

/**
 * The migrated data directory on disk, made once per machine and set of migrations by the server's own openDatabase
 * (kept in the temporary directory, named like the dump below). Built under a temporary name and renamed, so that a
 * process never copies half of one: of two processes building it at once, the second rename fails and that process
 * uses the first one's.
 */
async function loadOrMakePgliteDataDir(): Promise<string> {
  const dir = await pgliteTemplatePath('pglite-dir-');
  if ((await readdir(dir).catch(() => [])).length > 0) return dir;
  await mkdir(path.dirname(dir), { recursive: true });
  const building = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const database = await openDatabase({ dataDir: building });
    await database.close();
    await rename(building, dir);
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    if ((await readdir(dir).catch(() => [])).length === 0) throw err;
  }
  return dir;
}

/** Where a PGlite template is kept between processes: named by the migrations and the PGlite version. */
async function pgliteTemplatePath(prefix: string, suffix = ''): Promise<string> {
  return path.join(
    tmpdir(),
    'cinema-test-templates',
    `${prefix}${await hashOf([await pgliteVersion()])}${suffix}`,
  );
}

async function pgliteVersion(): Promise<string> {
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglitePackage = await readFile(path.join(path.dirname(pgliteEntry), '..', 'package.json'), 'utf8');
  return (JSON.parse(pglitePackage) as { version: string }).version;
}

/**
 * A PGlite data directory (a `dumpDataDir` tarball) with every migration applied. Kept in the temporary directory
 * for the processes after this one, named by the migrations and the PGlite version; written to a temporary name
 * and renamed, so a process never reads half a file.
 */
async function loadOrMakePgliteDump(): Promise<Uint8Array> {
  const file = await pgliteTemplatePath('pglite-', '.tar');
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.pglite!.exec('checkpoint');
    const dump = new Uint8Array(await (await database.pglite!.dumpDataDir('none')).arrayBuffer());
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await writeFile(partial, dump);
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
