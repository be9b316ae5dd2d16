// Summarises a V8 CPU profile of the server (`node --cpu-prof`, see BENCH_SERVER_NODE_ARGS) by where the time went:
// each sample's own function is put in a stage (a socket write, a timer or a native call in its caller's) (the request id's promise hooks, logging, the PostgreSQL driver,
// Redis, fastify, validation and serialisation, our own code, ...), and the heaviest functions are listed.
// `node --import tsx scripts/bench/profile-summary.ts <file.cpuprofile> [requests] [--windows <file> --kind holds]`:
// with the number of requests the profile covered, each stage is also given in µs per request; with the windows
// `BENCH_ONLY=rush` wrote (BENCH_RUSH_WINDOWS), only the samples taken while that kind of request ran count.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A stage by the module a function comes from (first match wins), then by its name. */
const BY_URL: [RegExp, string][] = [
  [
    /node_modules\/(pngjs|qrcode|dijkstrajs|pdfkit|pdf-lib)\/|node:zlib/,
    'confirmation emails (QR codes, in the background)',
  ],
  [
    /node:internal\/async_hooks|node:async_hooks|async_local_storage/,
    'request id: async hooks (AsyncLocalStorage)',
  ],
  [
    /node_modules\/(pino|sonic-boom|fast-redact|@pinojs\/redact|pino-std-serializers|thread-stream)\//,
    'logging (pino)',
  ],
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-\w+|pgpass)\//, 'PostgreSQL driver (pg)'],
  [/node_modules\/drizzle-orm\//, 'query builder and row mapping (drizzle)'],
  [/node_modules\/(@redis|redis|cluster-key-slot|generic-pool)\//, 'Redis client'],
  [
    /node_modules\/(socket\.io|engine\.io|ws|@socket\.io|socket\.io-adapter|socket\.io-parser|notepack\.io|@socket\.io\/redis-adapter)\//,
    'Socket.IO',
  ],
  [/node_modules\/@fastify\/rate-limit\//, 'rate limit'],
  [/node_modules\/helmet\//, 'security headers (helmet)'],
  [
    /node_modules\/(zod|fastify-type-provider-zod|fast-json-stringify|ajv|fast-uri|json-schema)/,
    'validation, serialisation',
  ],
  [
    /node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify\/\w+|fast-querystring|toad-cache|process-warning|abstract-logging|rfdc|secure-json-parse|content-type|fastify-plugin)\//,
    'fastify',
  ],
  [/node_modules\/prom-client\//, 'metrics'],
  [/node_modules\//, 'other packages'],
  [
    /node:internal\/(http|_http|streams|stream|net|dns|url|tls)|node:(http|_http_\w+|net|stream|url)|node:internal\/deps\/undici/,
    'HTTP and sockets (node)',
  ],
  [
    /node:internal\/(timers|process\/task_queues|process\/promises|events|util|errors|buffer|validators)|node:(events|timers|buffer|util)/,
    'node: timers, events, microtasks',
  ],
  [/node:internal\/crypto|node:crypto/, 'crypto'],
];
/** Our own bundled code (dist/server.js) by function name. */
const BY_NAME: [RegExp, string][] = [
  [
    /cinemaTime|sendOrderConfirmation|queueMail|inBackground/,
    'confirmation emails (QR codes, in the background)',
  ],
  [/^(requestIdOf|requestIdMixin)$/, 'request id: our hooks'],
  [/hashToken|sessionChecks|userIf|signedIn|bearerToken|databaseSessions/, 'session lookup'],
  [/idempot|hashOf/, 'idempotency'],
  [/hasNul|cacheControl|secureHeaders/, 'security hooks'],
  [
    /seatMaps|SeatMapCache|render|buildEntry|presentSeat|loadSeatMap|holdsIn|redisVersions|settled/,
    'seat-map cache',
  ],
  [
    /hold|readHoldRows|withRetry|publishSeatChanges|broadcast|seatsChanged|invalidate|bestSeats/i,
    'hold and its events',
  ],
  [/batchPerTurn|flush/, 'shared lookups (batchPerTurn)'],
  [/validatorCompiler|validate|parse/i, 'validation, serialisation'],
  [/translate|language|i18n|texts/i, 'i18n'],
];

function stageOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: native, outside JavaScript)';
    if (/Stringify|JSON/.test(functionName)) return 'JSON (native)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  for (const [re, stage] of BY_URL) if (re.test(url)) return stage;
  if (/dist\/server\.js|apps\/server\/src|packages\/contract/.test(url)) {
    for (const [re, stage] of BY_NAME) if (re.test(functionName)) return stage;
    return 'our code: other';
  }
  return 'other';
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const windowsArg = option('--windows');
const kind = option('--kind') ?? 'holds';
const [file, requestsArg] = args;
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [requests]');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const requests = requestsArg ? Number(requestsArg) : 0;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const windows = windowsArg
  ? (JSON.parse(readFileSync(windowsArg, 'utf8')) as { kind: string; start: number; end: number }[]).filter(
      (w) => w.kind === kind,
    )
  : null;
const selfUs = new Map<number, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (windows && !windows.some((w) => at >= w.start && at <= w.end)) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
/** Stages that say only what ran, not for whom: the caller's stage is looked for instead. */
const vague = (stage: string) =>
  stage.startsWith('native:') ||
  stage === 'other' ||
  stage === 'HTTP and sockets (node)' ||
  stage === 'node: timers, events, microtasks' ||
  stage === 'JSON (native)' ||
  stage === 'crypto';
/** A sample's stage: its own function's, or (for a socket write, a timer, a native call) its nearest caller's. */
function sampleStage(id: number): string {
  const own = stageOf(byId.get(id)!.callFrame);
  if (!vague(own)) return own;
  for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
    const stage = stageOf(byId.get(at)!.callFrame);
    if (!vague(stage) && stage !== '(program: native, outside JavaScript)' && stage !== '(idle)')
      return stage;
  }
  return own;
}

const stages = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  const stage = sampleStage(id);
  stages.set(stage, (stages.get(stage) ?? 0) + us);
  if (stage !== '(idle)') busy += us;
  const where = frame.url
    ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '')}:${frame.lineNumber}`
    : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
}

const row = (name: string, us: number) =>
  `| ${name} | ${(us / 1000).toFixed(0)} ms | ${((us / busy) * 100).toFixed(1)}% |${requests ? ` ${(us / requests).toFixed(1)} µs |` : ''}`;
console.log(
  `profile: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(2)} s`,
);
console.log(
  `\n| stage | self time | share of busy |${requests ? ' per request |' : ''}\n| --- | --- | --- |${requests ? ' --- |' : ''}`,
);
for (const [stage, us] of [...stages].sort((a, b) => b[1] - a[1]))
  if (stage !== '(idle)') console.log(row(stage, us));
console.log(
  `\n| function | self time | share of busy |${requests ? ' per request |' : ''}\n| --- | --- | --- |${requests ? ' --- |' : ''}`,
);
for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(row(name, us));
