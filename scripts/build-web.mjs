// Builds the web app when apps/web/dist is missing or older than its sources (shared by `npm start` and the e2e setup).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const built = path.join(web, 'dist/index.html');
// Everything that ends up in the bundle: the app's sources and config (with its build plugins, such as the
// precompression), and the contract it imports (its package.json names the entries).
const inputs = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'build'),
  path.join(root, 'packages/contract/src'),
  path.join(root, 'packages/contract/package.json'),
];

export function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const child of readdirSync(entry, { withFileTypes: true })) {
    if (child.name === 'node_modules' || child.name === 'dist') continue;
    latest = Math.max(latest, newest(path.join(entry, child.name)));
  }
  return latest;
}

/** True when apps/web/dist is missing or older than any of its sources. */
export function webBuildIsStale() {
  if (!existsSync(built)) return true;
  const sources = Math.max(...inputs.map(newest));
  return statSync(built).mtimeMs < sources;
}

/** Runs `vite build` when the bundle is stale; throws when the build fails. Returns whether it built. */
export function ensureWebBuilt({ log = console.log } = {}) {
  if (!webBuildIsStale()) return false;
  log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`Building the web app failed (exit ${result.status ?? result.signal})`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (!ensureWebBuilt()) console.log('The web app is up to date.');
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
