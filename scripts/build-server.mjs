// Bundles the server (apps/server/src and the contract it imports) into apps/server/dist/server.js with esbuild
// when the bundle is missing or older than its sources: `npm start` runs plain JavaScript, without a TypeScript
// loader in the process. The packages in apps/server's dependencies stay outside the bundle (node_modules).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { newest, root } from './build-web.mjs';

const server = path.join(root, 'apps/server');
export const serverBundle = path.join(server, 'dist/server.js');
const inputs = [
  path.join(server, 'src'),
  path.join(server, 'package.json'),
  path.join(root, 'packages/contract/src'),
  path.join(root, 'scripts/data-dir.mjs'),
  fileURLToPath(import.meta.url),
];

/**
 * How `npm start` runs the bundle: node's arguments and the environment, from the environment the server will have
 * (`env`; a setting given there wins). See docs/decisions/013-server-memory.md, with the measurements.
 * - glibc's malloc: one arena, and blocks of 32 KB and more mapped on their own, so they go back to the system when
 *   freed. V8 compiles PGlite's WebAssembly (and hot JavaScript) in 32 KB zone segments from background threads;
 *   with glibc's defaults each thread's arena kept 20–40 MB of them, freed but never returned.
 * - The embedded engine (no `DATABASE_URL`) also has V8 grow its old generation by 30% of what survived the last
 *   full collection, instead of by up to four times that: PGlite lives in the same process, so it is the one that
 *   has to fit a small machine. On PostgreSQL the default growth costs less CPU and the process stays small anyway.
 */
export function serverCommand(env) {
  return {
    args: [...(env.DATABASE_URL ? [] : ['--heap-growing-percent=30']), serverBundle],
    env: { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '32768', ...env },
  };
}

/** True when apps/server/dist/server.js is missing or older than any of its sources. */
export function serverBuildIsStale() {
  if (!existsSync(serverBundle)) return true;
  return statSync(serverBundle).mtimeMs < Math.max(...inputs.map(newest));
}

/** Bundles the server when the bundle is stale; throws when the build fails. Returns whether it built. */
export async function ensureServerBuilt({ log = console.log } = {}) {
  if (!serverBuildIsStale()) return false;
  log('Building the server…');
  const { dependencies } = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
  const { outputFiles } = await build({
    entryPoints: [path.join(server, 'src/server.ts')],
    outfile: serverBundle,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Installed packages are loaded from node_modules as they are; the workspace's own TypeScript is bundled.
    external: Object.keys(dependencies).filter((name) => !name.startsWith('@cinema/')),
    logLevel: 'warning',
  });
  // Written whole, then renamed into place: a server starting meanwhile (or a second build racing this one, as
  // test files starting servers in parallel may) never reads half a file.
  mkdirSync(path.dirname(serverBundle), { recursive: true });
  const partial = `${serverBundle}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(partial, outputFiles[0].contents);
  renameSync(partial, serverBundle);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (!(await ensureServerBuilt())) console.log('The server is up to date.');
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
