// The web app's first load: what /login, /movies and the seat map download (from the build), and Lighthouse's
// mobile scores for cold loads of /login and /movies against a real server with the demo catalogue.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../../apps/server/src/test/server-process.ts';
import {
  buildWebApp,
  bundleTable,
  JS_GZIP_TARGETS,
  kB,
  measureFirstLoads,
  type RouteLoad,
} from './bundle.ts';
import { ADMIN } from './cinema.ts';
import { auditFirstLoads, PERFORMANCE_TARGET, type LighthouseAudit } from './lighthouse.ts';
import type { Row } from './report.ts';
import { round } from './stats.ts';

export interface WebFirstLoad {
  loads: RouteLoad[];
  audits: LighthouseAudit[];
  /** The machine's 1-minute load average as Lighthouse started (the cores are shared: it moves the scores). */
  loadAverage?: number;
}

const CUSTOMER = {
  name: 'Lighthouse Customer',
  email: 'lighthouse@example.com',
  password: 'Lighthouse#2026',
};

/**
 * Builds the web app and counts each route's first load, then starts a server on a fresh embedded database with
 * the demo catalogue (movies with posters), registers a customer and runs Lighthouse.
 */
export async function measureWebFirstLoad({
  runs,
  log,
}: {
  runs: number;
  log: (line: string) => void;
}): Promise<WebFirstLoad> {
  log('web app: building and counting what each route loads');
  buildWebApp();
  const loads = await measureFirstLoads();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cinema-bench-web-'));
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  try {
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(CUSTOMER),
    });
    if (res.status !== 201) throw new Error(`Registering the Lighthouse customer: ${res.status}`);
    log('web app: Lighthouse, mobile, cold loads');
    const loadAverage = os.loadavg()[0]!;
    const audits = await auditFirstLoads(server.url, CUSTOMER, { runs, log });
    return { loads, audits, loadAverage };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The rows of the results table: JS of each route with a target, and each Lighthouse audit. */
export function webRows({ loads, audits }: WebFirstLoad): Row[] {
  const bundleRows: Row[] = loads.flatMap((l) => {
    const target = JS_GZIP_TARGETS[l.route];
    if (!target) return [];
    return [
      {
        figure: `First load of ${l.route}: JS (gzip)`,
        measured: kB(l.js.gzip),
        reference: '',
        ratio: '',
        target: `≤ ${kB(target)}`,
        met: l.js.gzip <= target,
      },
    ];
  });
  const auditRows: Row[] = audits.map((a) => ({
    figure: `Lighthouse mobile performance, cold ${a.route}`,
    measured: `${a.performance} (LCP ${round(a.lcpMs)} ms, TBT ${round(a.tbtMs)} ms, CLS ${round(a.cls, 3)})`,
    reference: '',
    ratio: '',
    target: `≥ ${PERFORMANCE_TARGET}`,
    met: a.performance >= PERFORMANCE_TARGET,
  }));
  return [...bundleRows, ...auditRows];
}

function lighthouseTable(audits: LighthouseAudit[]): string {
  const head = ['cold load of', 'performance', 'accessibility', 'FCP', 'LCP', 'TBT', 'CLS', 'runs'];
  const rows = audits.map((a) => [
    `\`${a.route}\``,
    String(a.performance),
    String(a.accessibility),
    `${round(a.fcpMs)} ms`,
    `${round(a.lcpMs)} ms`,
    `${round(a.tbtMs)} ms`,
    String(round(a.cls, 3)),
    a.runs.join(', '),
  ]);
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/**
 * Before issue 15 (commit f1ea156, measured on 2026-11-24 by this code): one 538 kB entry chunk with every screen,
 * zod and socket.io-client, served uncompressed.
 */
const BEFORE: WebFirstLoad = {
  loads: ['/login', '/movies', '/showtimes/:id/seats'].map((route) => ({
    route,
    js: { raw: 537_600, gzip: 160_400, brotli: 138_700 },
    css: { raw: 37_600, gzip: 7_000, brotli: 6_200 },
    files: [],
  })),
  audits: [
    {
      route: '/login',
      performance: 79,
      accessibility: 100,
      fcpMs: 3886,
      lcpMs: 3886,
      tbtMs: 84,
      cls: 0,
      runs: [79, 78, 79],
    },
    {
      route: '/movies',
      performance: 75,
      accessibility: 100,
      fcpMs: 3895,
      lcpMs: 4428,
      tbtMs: 77,
      cls: 0.04,
      runs: [75, 73, 75],
    },
  ],
};

export const WEB_SECTION_TITLE = '## Web app: first load';

/** The page's section on the web app's first load: figures now, the same figures before issue 15, and how. */
export function renderWebSection(now: WebFirstLoad, date: string): string {
  const runs = now.audits[0]?.runs.length ?? 0;
  return `${WEB_SECTION_TITLE}

Measured on ${date} (\`BENCH_ONLY=lighthouse npm run bench\` measures this section alone). What a first visit
downloads, counted from the built files by Vite's manifest (\`npm run bundle-report\`): the entry chunk and its
static imports, the route's lazy chunks and theirs (for a screen: its code and react-query; for the seat map also
the Socket.IO client it loads as it opens), and their CSS; compressed as the server sends them (brotli to browsers
that accept it, else gzip).

${bundleTable(now.loads)}

Lighthouse 12 in its mobile configuration (an emulated mid-range phone on a slow 4G line, 4× CPU slowdown,
simulated), on Debian's Chromium against a server on the embedded engine with the demo catalogue; each route
audited ${runs} time${runs === 1 ? '' : 's'} on a cold load (HTTP cache emptied; /movies with a customer signed in through the
login form first), the run with the median performance score shown. The machine's cores are shared (load average
${round(now.loadAverage ?? 0, 1)} on ${os.cpus().length} cores as it started): a busy moment costs a run a few points, mostly in TBT.

${lighthouseTable(now.audits)}

On /movies the largest paint is the first poster, at the end of a chain: the page, the entry, the screen's chunks,
\`GET /api/movies\`, then the image (the demo's posters are sent as uploaded, 17–70 kB each for a 180 px card).
Posters in sizes for their cards (§6.1's \`srcset\`) would shorten the last link. Marking the first posters
\`fetchpriority="high"\` and not lazy made Lighthouse's LCP worse (3.0 s against 2.5 s), so they stay lazy. How
the figures came down: \`docs/decisions/015-lean-web-app.md\` and \`054-preact-for-react.md\`.

Before issue 15 (commit f1ea156) every route loaded the same single entry chunk, zod and the Socket.IO client
included, and the server sent it uncompressed (the same measurements, same machine, 2026-11-24):

${bundleTable(BEFORE.loads)}

${lighthouseTable(BEFORE.audits)}
`;
}
