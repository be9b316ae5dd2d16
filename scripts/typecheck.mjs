// `npm run typecheck`: each TypeScript program of the repository checked by TypeScript 7's native compiler
// (decision 059). It is installed as `typescript-7` beside TypeScript 5.9, which stays the `typescript` package
// because typescript-eslint and editors need its JavaScript API (TypeScript 7 has none yet); both packages name
// their binary `tsc`, so this runs 7's by its path rather than trusting node_modules/.bin.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './build-web.mjs';

const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')),
  'bin/tsc',
);
const projects = ['packages/contract', 'apps/server', 'apps/web', 'e2e'];

let failed = 0;
for (const project of projects) {
  // Every program is checked even after one fails, so one run lists every error.
  const { status, error } = spawnSync(process.execPath, [tsc, '-p', project], {
    cwd: root,
    stdio: 'inherit',
  });
  if (error) throw error;
  if (status !== 0) {
    console.error(`typecheck: ${project} has type errors`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
