// `npm run reliability`: runs the bad-input fuzzing, the crash trials and the socket abuse checks in reporting
// mode (counting everything instead of stopping at the first failure) and writes the figures to
// docs/reliability.md. PostgreSQL joins in when TEST_DATABASE_URL is set. Exits 1 when anything was violated.
//
//   RELIABILITY_RUNS  generated requests per route and engine (default 200)
//   CRASH_KILLS       SIGKILLs per engine (default 3)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createShowtimeFixture } from '../apps/server/src/test/fixtures.ts';
import { createTestApp, engines, postgresUrl, type Engine } from '../apps/server/src/test/helpers.ts';
import { runCrashTrials, type CrashReport } from '../apps/server/src/test/reliability/crash.ts';
import {
  createFuzzContext,
  fuzzAllRoutes,
  type FuzzReport,
} from '../apps/server/src/test/reliability/fuzz.ts';
import { ROUTES } from '../apps/server/src/test/reliability/route-table.ts';
import {
  garbageJoins,
  joinFlood,
  slowReaders,
  type FloodReport,
  type GarbageReport,
  type SlowReaderReport,
} from '../apps/server/src/test/reliability/socket-abuse.ts';
import { createWorld } from '../apps/server/src/test/reliability/world.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RELIABILITY_RUNS ?? 200);
const KILLS = Number(process.env.CRASH_KILLS ?? 3);
const MB = 1024 * 1024;
const log = (line: string) => console.log(`[reliability] ${line}`);

async function fuzz(engine: Engine): Promise<FuzzReport> {
  const t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
  try {
    const ctx = await createFuzzContext(t.app, await createWorld(t.app));
    return await fuzzAllRoutes(ctx, { runsPerRoute: RUNS });
  } finally {
    await t.close();
  }
}

interface AbuseReport {
  engine: Engine;
  garbage: GarbageReport;
  flood: FloodReport;
  slow: SlowReaderReport;
}

async function abuse(engine: Engine): Promise<AbuseReport> {
  const t = await createTestApp(engine);
  try {
    const show = await createShowtimeFixture(t.app.database.db, { rows: 20, cols: 30 });
    const other = await createShowtimeFixture(t.app.database.db, { rows: 2, cols: 2 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const rss = () => process.memoryUsage().rss;
    const garbage = await garbageJoins(url, show.showtimeId);
    const flood = await joinFlood({
      url,
      showtimeIds: [show.showtimeId, other.showtimeId],
      clients: 10,
      durationMs: 5000,
      rss,
    });
    const seats = show.allSeatIds.map((id) => ({ id, status: 'HELD' as const }));
    const slow = await slowReaders({
      url,
      showtimeId: show.showtimeId,
      clients: 50,
      durationMs: 6000,
      rss,
      openOnServer: () => t.app.realtime.io.engine.clientsCount,
      update: async () => {
        t.app.realtime.broadcastSeats({ showtimeId: show.showtimeId, seats });
        await new Promise((r) => setImmediate(r));
      },
    });
    return { engine, garbage, flood, slow };
  } finally {
    await t.close();
  }
}

interface Audit {
  ran: boolean;
  counts: Record<string, number>;
  note: string;
}

function audit(): Audit {
  let raw: string;
  try {
    raw = execFileSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8' });
  } catch (err) {
    // npm audit exits non-zero when it finds anything; its JSON is still on stdout.
    raw = (err as { stdout?: string }).stdout ?? '';
  }
  try {
    const parsed = JSON.parse(raw) as {
      metadata?: { vulnerabilities?: Record<string, number> };
      error?: { summary?: string; code?: string };
      message?: string;
    };
    if (!parsed.metadata?.vulnerabilities) {
      const why = parsed.error?.summary || parsed.message || parsed.error?.code || 'no answer';
      return { ran: false, counts: {}, note: `the registry's audit endpoint failed: ${why.split('\n')[0]}` };
    }
    return { ran: true, counts: parsed.metadata.vulnerabilities, note: '' };
  } catch {
    return { ran: false, counts: {}, note: 'npm audit could not reach the registry' };
  }
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / MB).toFixed(0)} MB`);

const KEEP_FROM = '<!-- hand-written: kept by npm run reliability -->';
const KEEP_TO = '<!-- end of hand-written -->';

/** The hand-written block of the current docs/reliability.md, markers included, or null. */
function handWrittenSection(): string | null {
  let current = '';
  try {
    current = readFileSync(path.join(root, 'docs', 'reliability.md'), 'utf8');
  } catch {
    return null;
  }
  const from = current.indexOf(KEEP_FROM);
  const to = current.indexOf(KEEP_TO);
  return from >= 0 && to > from ? current.slice(from, to + KEEP_TO.length) : null;
}

function render(data: {
  fuzz: { engine: Engine; report: FuzzReport }[];
  crash: CrashReport[];
  abuse: AbuseReport[];
  audit: Audit;
  started: Date;
  seconds: number;
}): string {
  const fuzzRequests = data.fuzz.reduce((n, f) => n + f.report.requests, 0);
  const fuzz5xx = data.fuzz.reduce((n, f) => n + f.report.serverErrors, 0);
  const fuzzViolations = data.fuzz.flatMap((f) => f.report.violations);
  const crashes = data.crash.reduce((n, c) => n + c.kills, 0);
  const crashRequests = data.crash.reduce((n, c) => n + c.requests, 0);
  const crashViolations = data.crash.flatMap((c) => [...c.lost, ...c.doubleBookings, ...c.problems]);
  const abuseViolations = data.abuse.flatMap((a) => [
    ...a.garbage.accepted.map((g) => `garbage join accepted: ${g}`),
    ...(a.flood.health.failed ? [`health failed ${a.flood.health.failed}× during the join flood`] : []),
    ...(a.slow.health.failed ? [`health failed ${a.slow.health.failed}× during the slow-reader test`] : []),
    ...(a.slow.openOnServerAfter !== null && a.slow.openOnServerAfter > 1
      ? [`${a.slow.openOnServerAfter - 1} non-reading clients were never cut off`]
      : []),
    ...(!a.flood.politeJoinWorked ? ['a polite client could not join after the flood'] : []),
  ]);
  const auditHigh = (data.audit.counts.high ?? 0) + (data.audit.counts.critical ?? 0);
  const violations = fuzzViolations.length + crashViolations.length + abuseViolations.length + auditHigh;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';

  const lines: string[] = [];
  lines.push('# Reliability and security figures');
  lines.push('');
  lines.push(
    'Generated by `npm run reliability` (scripts/reliability.ts); do not edit by hand. The same checks run',
  );
  lines.push(
    'as tests (`apps/server/src/test/{bad-input,crash,authorization,security,socket-abuse}.test.ts`);',
  );
  lines.push('this script runs them in reporting mode, counting instead of stopping at the first failure.');
  lines.push('');
  lines.push(`- Date: ${data.started.toISOString()} (took ${data.seconds} s)`);
  lines.push(
    `- Machine: ${os.hostname()}, ${os.platform()} ${os.release()} ${os.arch()}, ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}`,
  );
  lines.push(
    `- Engines: ${engines.join(', ')}${postgresUrl ? '' : ' (set TEST_DATABASE_URL to add PostgreSQL)'}`,
  );
  lines.push('');
  lines.push('## Summary');
  lines.push('');
  lines.push('| figure | value |');
  lines.push('|---|---|');
  lines.push(
    `| requests tried (fuzzing, ${ROUTES.length} routes × ${RUNS} per engine, plus health checks) | ${fuzzRequests} |`,
  );
  lines.push(`| 5xx answers seen | ${fuzz5xx} |`);
  lines.push(`| requests in flight during crashes | ${crashRequests} |`);
  lines.push(`| crashes survived (SIGKILL, restart on the same data) | ${crashes} |`);
  lines.push(
    `| acknowledged holds / payments checked after restarts | ${data.crash.reduce((n, c) => n + c.holdsAcknowledged, 0)} / ${data.crash.reduce((n, c) => n + c.paymentsAcknowledged, 0)} |`,
  );
  lines.push(
    `| socket joins sent in floods | ${data.abuse.reduce((n, a) => n + a.flood.joinsSent + a.garbage.sent, 0)} |`,
  );
  lines.push(`| violations found | ${violations} |`);
  lines.push('');
  lines.push('## Bad input (property-based, fast-check)');
  lines.push('');
  lines.push(
    'Each request spoils a valid one (one field replaced by a nasty value, removed, or joined by an extra key) or',
  );
  lines.push(
    'replaces it (random JSON, non-JSON text and bytes under a dozen content types, `__proto__` and',
  );
  lines.push(
    '`constructor.prototype` keys, bodies over 1 MB, broken multipart forms, posters over 5 MB), with',
  );
  lines.push(
    'malformed ids in every path segment (bad percent-encoding, traversal, 5000 characters), odd unicode (NUL,',
  );
  lines.push(
    'RTL marks, lone surrogates, emoji), negative/huge numbers, dates in the past and impossible dates, and',
  );
  lines.push(
    'missing, foreign or garbage tokens. Judged: no 5xx; every 4xx a JSON `{error}` (the hosted checkout pages',
  );
  lines.push('answer HTML); Object.prototype untouched; /api/health answers after every route.');
  lines.push('');
  lines.push('| engine | requests | 5xx | violations | statuses |');
  lines.push('|---|---|---|---|---|');
  for (const f of data.fuzz) {
    const statuses = Object.entries(f.report.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    lines.push(
      `| ${f.engine} | ${f.report.requests} | ${f.report.serverErrors} | ${f.report.violations.length} | ${statuses} |`,
    );
  }
  for (const v of fuzzViolations.slice(0, 20)) {
    lines.push(`- ${v.route}: ${v.problem} — \`${v.request.replaceAll('`', "'")}\` → ${v.status}`);
  }
  lines.push('');
  lines.push('## Crash safety');
  lines.push('');
  lines.push(
    'The real server (`node apps/server/dist/server.js`, as `npm start` runs it) runs concurrent holds and local payments',
  );
  lines.push(
    'from 10 customers racing for the same seats; it is killed with SIGKILL at a random moment, restarted on the',
  );
  lines.push(
    'same PGlite directory or PostgreSQL database, and every acknowledged hold (201) and payment (303) is looked',
  );
  lines.push('up as its customer; the database is then asked for seats with two live bookings.');
  lines.push('');
  lines.push(
    '| engine | kills | requests | holds acked | payments acked | lost | double bookings | restart (ms) |',
  );
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const c of data.crash) {
    lines.push(
      `| ${c.engine} | ${c.kills} | ${c.requests} | ${c.holdsAcknowledged} | ${c.paymentsAcknowledged} | ${c.lost.length} | ${c.doubleBookings.length} | ${c.restartMs.join(', ')} |`,
    );
  }
  for (const v of crashViolations.slice(0, 20)) lines.push(`- ${v}`);
  lines.push('');
  lines.push(
    'PGlite note: its WebAssembly file system turns `fsync` into a no-op, so the embedded engine survives a',
  );
  lines.push(
    'killed process (every acknowledged write has reached the operating system) but not a power cut or kernel',
  );
  lines.push(
    'crash. Production deployments that need that should set `DATABASE_URL` to a PostgreSQL server.',
  );
  lines.push('');
  lines.push('## Socket abuse');
  lines.push('');
  lines.push(
    '| engine | garbage joins (accepted) | flood: joins sent, clients, disconnected | health during flood p50 / max | slow readers: clients, updates, still open after | RSS growth | health during slow readers max |',
  );
  lines.push('|---|---|---|---|---|---|---|');
  for (const a of data.abuse) {
    const growth =
      a.slow.rssPeak !== null && a.slow.rssBefore !== null ? a.slow.rssPeak - a.slow.rssBefore : null;
    lines.push(
      `| ${a.engine} | ${a.garbage.sent} (${a.garbage.accepted.length}) | ${a.flood.joinsSent}, ${a.flood.clients}, ${a.flood.disconnected} | ${a.flood.healthP50Ms} / ${a.flood.healthMaxMs} ms | ${a.slow.clients}, ${a.slow.updatesSent} × 600 seats, ${(a.slow.openOnServerAfter ?? 1) - 1} | ${mb(growth)} | ${a.slow.healthMaxMs} ms |`,
    );
  }
  for (const v of abuseViolations) lines.push(`- ${v}`);
  lines.push('');
  // The outage figures are measured by hand (apps/server/src/test/outage.test.ts needs root, a private PostgreSQL
  // cluster and redis-server) and written between the markers: they are carried over as they are.
  const kept = handWrittenSection();
  if (kept) {
    lines.push(kept);
    lines.push('');
  }
  lines.push('## Dependencies');
  lines.push('');
  if (data.audit.ran) {
    const c = data.audit.counts;
    lines.push(
      `\`npm audit --omit=dev\`: critical ${c.critical ?? 0}, high ${c.high ?? 0}, moderate ${c.moderate ?? 0}, low ${c.low ?? 0}, info ${c.info ?? 0}.`,
    );
  } else {
    lines.push(`\`npm audit --omit=dev\`: not run (${data.audit.note}).`);
  }
  lines.push('');
  // The threat model is written by hand (docs/threats.md) and carried into the report as it is.
  lines.push('');
  lines.push(readFileSync(path.join(root, 'docs', 'threats.md'), 'utf8').trimEnd());
  return lines.join('\n');
}

async function main() {
  const started = new Date();
  const fuzzReports: { engine: Engine; report: FuzzReport }[] = [];
  const crashReports: CrashReport[] = [];
  const abuseReports: AbuseReport[] = [];
  for (const engine of engines) {
    log(`${engine}: fuzzing ${ROUTES.length} routes × ${RUNS}`);
    fuzzReports.push({ engine, report: await fuzz(engine) });
    log(`${engine}: socket abuse`);
    abuseReports.push(await abuse(engine));
    log(`${engine}: ${KILLS} crash trials`);
    crashReports.push(await runCrashTrials({ engine, kills: KILLS, postgresUrl, log }));
  }
  log('npm audit --omit=dev');
  const auditReport = audit();
  const markdown = render({
    fuzz: fuzzReports,
    crash: crashReports,
    abuse: abuseReports,
    audit: auditReport,
    started,
    seconds: Math.round((Date.now() - started.getTime()) / 1000),
  });
  const target = path.join(root, 'docs', 'reliability.md');
  writeFileSync(target, markdown);
  log(`wrote ${path.relative(root, target)}`);
  const failed = /\| violations found \| (\d+) \|/.exec(markdown)?.[1];
  if (failed && failed !== '0') {
    log(`${failed} violations: see the report`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
