// `npm run backup [-- --out FILE] [-- --offline]`: a backup of the embedded database (PGlite, DATA_DIR) as a gzipped
// tarball for `npm run restore`. By default it asks the running server (BACKUP_URL, default
// http://localhost:$PORT), signing in as ADMIN_EMAIL / ADMIN_PASSWORD: the server copies its data directory between
// transactions, so the copy is consistent while it keeps selling. With --offline the server must be stopped: the
// data directory is opened directly (never do that while a server runs on it). PostgreSQL: use pg_dump (README).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tidyBackup } from './data-dir.mjs';

const { values } = parseArgs({
  options: { out: { type: 'string' }, offline: { type: 'boolean', default: false } },
});
const out = path.resolve(
  values.out ?? `cinema-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`,
);

async function fromServer() {
  const base = (process.env.BACKUP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
  const { ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = process.env;
  if (!email || !password)
    throw new Error('Set ADMIN_EMAIL and ADMIN_PASSWORD (an admin account) to back up');
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`Signing in at ${base} failed: ${login.status} ${await login.text()}`);
  const { token } = await login.json();
  const res = await fetch(`${base}/api/admin/backup`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`The backup failed: ${res.status} ${await res.text()}`);
  const body = Buffer.from(await res.arrayBuffer());
  await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return body;
}

async function fromDataDir() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const db = await PGlite.create(dataDir, { extensions: { btree_gist } });
  try {
    return await tidyBackup(await (await db.dumpDataDir('none')).arrayBuffer());
  } finally {
    await db.close();
  }
}

try {
  const body = values.offline ? await fromDataDir() : await fromServer();
  // A copy of every customer's data: readable by its owner only.
  await writeFile(out, body, { mode: 0o600 });
  console.log(`Backup written: ${out} (${body.length} bytes)`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
