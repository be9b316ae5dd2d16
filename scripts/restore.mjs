// `npm run restore -- FILE`: unpacks a backup made by `npm run backup` into DATA_DIR (default ./data), which must
// not hold a database yet (stop the server, move the old directory aside). Start the server on it afterwards.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { lockDownDataDir } from './data-dir.mjs';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- <backup.tar.gz>   (into DATA_DIR, default ./data)');
  process.exit(1);
}
const file = path.resolve(positionals[0]);
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');

try {
  const existing = await readdir(dataDir).catch(() => []);
  if (existing.length > 0) {
    throw new Error(
      `${dataDir} is not empty: restore into a new DATA_DIR (the server must not be running on it)`,
    );
  }
  const tarball = new Blob([await readFile(file)], { type: 'application/x-gzip' });
  // Opening with the tarball unpacks it and recovers it like after a crash: every committed change, none half done.
  const db = await PGlite.create(dataDir, { loadDataDir: tarball, extensions: { btree_gist } });
  const { rows } = await db.query(`select count(*)::int as n from bookings where status = 'CONFIRMED'`);
  await db.close();
  await lockDownDataDir(dataDir);
  console.log(`Restored ${file} into ${dataDir} (${rows[0]?.n ?? 0} paid seats)`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
