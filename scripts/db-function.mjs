// `npm run db:function -- <function> <migration-name>`: a new migration that (re)creates an SQL function, and the
// triggers that run it, from its canonical text in apps/server/src/db/functions/<function>.sql (statements split by
// `--> statement-breakpoint`, triggers as CREATE OR REPLACE TRIGGER). Edit that file first; src/db/functions.test.ts
// fails until a migration carries the change.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './build-web.mjs';

const [fn, name] = process.argv.slice(2);
if (!fn || !name || !/^[a-z_]+$/.test(fn) || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:function -- <function> <migration_name>   (snake_case)');
  process.exit(2);
}
const canonical = readFileSync(path.join(root, 'apps/server/src/db/functions', `${fn}.sql`), 'utf8');
const drizzle = path.join(root, 'apps/server/drizzle');
const before = new Set(readdirSync(drizzle));
const result = spawnSync(
  'npx',
  ['drizzle-kit', 'generate', '--config', 'apps/server/drizzle.config.ts', '--custom', '--name', name],
  { cwd: root, stdio: 'inherit' },
);
if (result.status !== 0) process.exit(result.status ?? 1);
const created = readdirSync(drizzle).find((f) => f.endsWith('.sql') && !before.has(f));
if (!created) {
  console.error('drizzle-kit wrote no migration');
  process.exit(1);
}
writeFileSync(
  path.join(drizzle, created),
  `-- ${fn}, as apps/server/src/db/functions/${fn}.sql has it now.\n${canonical}`,
);
console.log(`apps/server/drizzle/${created}: ${fn} from its canonical file. Say why at its top.`);
