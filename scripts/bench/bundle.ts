// What a first visit to a route downloads, counted from the built files by Vite's manifest: the entry chunk and
// its static imports (recursively), the route's own lazy chunks and theirs, and the CSS of every chunk counted.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { compressors } from '../../apps/web/build/precompress.ts';
import { repoRoot } from '../../apps/server/src/test/server-process.ts';

export const webDist = path.join(repoRoot, 'apps/web/dist');

/** One chunk of Vite's build manifest (`build.manifest: true`), keyed by its source (or `_name.js`). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The English texts: the shell's part of `common`, which every first render waits for (a chunk of its own since
 * decision 034), and the other parts of `common` a screen brings with its code (decision 052).
 */
const english = (part: 'shell' | 'seatMap' | 'catalogue' | 'rest') =>
  `src/locales/en/common.json?part=${part}`;
const ENGLISH = english('shell');

/**
 * The routes measured, each with the modules it loads lazily as soon as it renders: the English texts, its
 * screen, the query client every lazy screen gets, the seat map's Socket.IO client, the staff texts (a module
 * missing from the manifest is part of a chunk already counted: before the routes were split, everything was in the
 * entry; before decision 034, the English texts too).
 */
export const FIRST_LOAD_ROUTES = [
  { route: '/login', lazy: [ENGLISH, 'src/features/auth/components/login-screen.tsx'] },
  {
    route: '/movies',
    lazy: [
      ENGLISH,
      english('catalogue'),
      english('seatMap'),
      'src/features/catalogue/components/movies-screen.tsx',
      'src/lib/query-client.tsx',
    ],
  },
  {
    route: '/showtimes/:id/seats',
    lazy: [
      ENGLISH,
      english('seatMap'),
      'src/features/seat-map/components/seat-map-screen.tsx',
      'src/lib/query-client.tsx',
      'src/lib/socket.ts',
    ],
  },
  // The only route that loads the chart library (uPlot, decision 022).
  {
    route: '/admin/reports',
    lazy: [
      ENGLISH,
      english('seatMap'),
      english('catalogue'),
      english('rest'),
      'src/locales/en/admin.json',
      'src/features/admin-reports/components/reports-screen.tsx',
      'src/lib/query-client.tsx',
    ],
  },
] as const;

/** The most JavaScript (gzip bytes) a first load of the route may download. */
// Issue 32: back to decision 015's budgets with three languages.
export const JS_GZIP_TARGETS: Partial<Record<string, number>> = {
  '/login': 90_000,
  '/showtimes/:id/seats': 120_000,
};

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface RouteLoad {
  route: string;
  js: Sizes;
  css: Sizes;
  /** The built files counted, relative to dist. */
  files: string[];
}

/** `vite build` of the web app (with its precompressed copies); throws when it fails. */
export function buildWebApp(): void {
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`Building the web app failed (exit ${result.status ?? result.signal})`);
}

async function sizesOf(dist: string, files: string[]): Promise<Sizes> {
  const total: Sizes = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const data = await readFile(path.join(dist, file));
    total.raw += data.length;
    total.gzip += (await compressors.gz(data)).length;
    total.brotli += (await compressors.br(data)).length;
  }
  return total;
}

/** The first-load downloads of each route in FIRST_LOAD_ROUTES, from a build in `dist`. */
export async function measureFirstLoads(dist = webDist): Promise<RouteLoad[]> {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error(`No entry chunk in ${manifestFile}`);

  const loads: RouteLoad[] = [];
  for (const { route, lazy } of FIRST_LOAD_ROUTES) {
    const chunks = new Set<string>();
    const visit = (key: string) => {
      if (chunks.has(key) || !manifest[key]) return;
      chunks.add(key);
      for (const imported of manifest[key].imports ?? []) visit(imported);
    };
    visit(entry);
    lazy.forEach(visit);
    const js = [...chunks].map((key) => manifest[key]!.file);
    const css = [...new Set([...chunks].flatMap((key) => manifest[key]!.css ?? []))];
    loads.push({
      route,
      js: await sizesOf(dist, js),
      css: await sizesOf(dist, css),
      files: [...js, ...css],
    });
  }
  return loads;
}

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The figures as a Markdown table: route, then JS and CSS in gzip and brotli (raw in brackets). */
export function bundleTable(loads: RouteLoad[]): string {
  const rows = loads.map((l) => {
    const target = JS_GZIP_TARGETS[l.route];
    return [
      `\`${l.route}\``,
      `${kB(l.js.gzip)}${target ? ` (target ≤ ${kB(target)})` : ''}`,
      kB(l.js.brotli),
      kB(l.css.gzip),
      kB(l.css.brotli),
      `${kB(l.js.raw)} + ${kB(l.css.raw)}`,
    ];
  });
  const head = ['first load of', 'JS gzip', 'JS brotli', 'CSS gzip', 'CSS brotli', 'JS + CSS uncompressed'];
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
