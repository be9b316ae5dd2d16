import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createSession } from '../../plugins/auth.ts';
import { signedInUser, type SignedIn } from '../helpers.ts';
import { ROUTES, type RouteSpec } from './route-table.ts';
import { multipart, tinyPng, type World } from './world.ts';

// ---------------------------------------------------------------------------------------------------------------
// Values nobody should send: generated, then spliced into otherwise valid requests.
// ---------------------------------------------------------------------------------------------------------------

/** Strings that broke real servers: NUL, bidi controls, lone surrogates, combining marks, injections, huge. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'Name\u0000with NUL',
  '\u202eevil\u202c',
  '\u200f\u200e\u061c',
  '👩‍👩‍👧‍👦🎬🍿',
  '\ud800',
  'lone \udfff low',
  'e\u0301\u0301\u0301',
  '\ufeffBOM',
  '\u2028\u2029',
  '<script>alert(1)</script>',
  "' or '1'='1' --",
  '../../etc/passwd',
  '%00',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  '2000-01-01T00:00:00Z',
  '1970-01-01T00:00:00.000Z',
  '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  '2026-02-30T25:61:61Z',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  'a@b',
  'A'.repeat(300),
  'x'.repeat(70_000),
  '\\',
  '"',
  '{}',
  '[]',
];

const oddString = fc.constantFrom(...ODD_STRINGS);

const anyString = fc.oneof(
  { arbitrary: oddString, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.uuid(), weight: 1 },
  { arbitrary: fc.emailAddress(), weight: 1 },
);

const anyNumber = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    1,
    0.5,
    26.5,
    1e308,
    -1e308,
    2 ** 31,
    -(2 ** 31) - 1,
    Number.MAX_SAFE_INTEGER + 2,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Arrays big enough to hurt: thousands of ids or strings (still under the 1 MB body limit). */
const hugeArray = fc.constantFrom(
  Array.from({ length: 20_000 }, (_, i) => i),
  Array.from({ length: 5_000 }, () => '3f1f8b3e-8b59-4b7f-9a67-6f4c9a7c2f10'),
  Array.from({ length: 1_000 }, () => 'x'.repeat(200)),
);

const deepObject = fc.constantFrom(
  JSON.parse('{"a":'.repeat(500) + '1' + '}'.repeat(500)) as unknown,
  JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as unknown,
);

/** Any JSON value, weighted towards the nasty ones. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyString, weight: 5 },
  { arbitrary: anyNumber, weight: 3 },
  { arbitrary: fc.constantFrom(true, false, null), weight: 1 },
  { arbitrary: fc.array(fc.oneof(anyString, anyNumber), { maxLength: 12 }), weight: 2 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), weight: 1 },
  { arbitrary: hugeArray, weight: 1 },
  { arbitrary: deepObject, weight: 1 },
);

/** Bodies that are not JSON at all, or JSON that JavaScript refuses. */
const rawText = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '{"a":1,}',
    "{'a': 1}",
    'NaN',
    '{"rows": NaN, "cols": Infinity}',
    '{"priceCents": -Infinity}',
    '{"seatIds": [undefined]}',
    '\u0000',
    '"\\ud800"',
    '{"name": "\\u0000"}',
    '[1,2',
    'null',
    '0',
    '""',
    'true',
    '<?xml version="1.0"?><a/>',
    'name=x&email=y',
    '\uFEFF{"a":1}',
    '{"a":1}{"b":2}',
    '9'.repeat(400),
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=nothing-here',
  'application/octet-stream',
  'application/vnd.api+json',
  'image/png',
  'garbage',
];
const contentType = fc.constantFrom(...CONTENT_TYPES);

/** Path segments taken verbatim: bad percent-encoding, traversal, overlong. */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%FF%FE',
  '%ED%A0%80',
  '%C0%AE%C0%AE',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  'a'.repeat(5000),
  '1',
  '-1',
  '0',
  'NaN',
  'null',
  '%20',
  '%E2%80%AE',
];

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as any client would send). */
export function encodeSegment(text: string): string {
  return Array.from(Buffer.from(text, 'utf8'))
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

// ---------------------------------------------------------------------------------------------------------------
// One plan per request: pure data (so fast-check can shrink it), turned into a request against the world.
// ---------------------------------------------------------------------------------------------------------------

type AuthPlan = { kind: 'proper' } | { kind: 'none' } | { kind: 'garbage'; header: string };

type BodyPlan =
  | { kind: 'none' }
  | { kind: 'valid' }
  | { kind: 'mutate'; field: string; op: 'replace' | 'delete' | 'extra'; value: unknown }
  | { kind: 'random'; value: unknown }
  | { kind: 'raw'; payload: string | Buffer; contentType: string }
  | { kind: 'pollute'; which: 'proto' | 'constructor' | 'nested' }
  | { kind: 'oversized' }
  | { kind: 'form'; fields: Record<string, string>; file: FilePlan; boundary?: string }
  | { kind: 'truncatedMultipart' };

type FilePlan = 'none' | 'png' | 'text' | 'random' | 'huge' | 'stray' | 'empty';

type IdPlan =
  { kind: 'known'; index: number } | { kind: 'text'; text: string } | { kind: 'raw'; segment: string };

type QueryPlan =
  | { kind: 'valid' }
  | { kind: 'mutate'; key: string; value: string }
  | { kind: 'repeat' }
  | { kind: 'random'; entries: [string, string][] };

export interface RequestPlan {
  auth: AuthPlan;
  id: IdPlan;
  query: QueryPlan;
  body: BodyPlan;
}

const GARBAGE_AUTH = [
  'Bearer',
  'Bearer ',
  'Bearer null',
  'Basic YWRtaW46YWRtaW4=',
  `Bearer ${'x'.repeat(300)}`,
  'Bearer a b c',
  'bearer 3f1f8b3e-8b59-4b7f-9a67-6f4c9a7c2f10',
  'Bearer %00',
  'Token abc',
  'Bearer ../../admin',
];

const authPlan: fc.Arbitrary<AuthPlan> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'proper' as const }), weight: 6 },
  { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
  {
    arbitrary: fc.constantFrom(...GARBAGE_AUTH).map((header) => ({ kind: 'garbage' as const, header })),
    weight: 1,
  },
);

const idPlan: fc.Arbitrary<IdPlan> = fc.oneof(
  { arbitrary: fc.nat(5).map((index) => ({ kind: 'known' as const, index })), weight: 3 },
  { arbitrary: fc.uuid().map((text) => ({ kind: 'text' as const, text })), weight: 1 },
  { arbitrary: anyString.map((text) => ({ kind: 'text' as const, text })), weight: 2 },
  {
    arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((segment) => ({ kind: 'raw' as const, segment })),
    weight: 1,
  },
);

const queryPlan = (route: RouteSpec): fc.Arbitrary<QueryPlan> =>
  fc.oneof(
    { arbitrary: fc.constant({ kind: 'valid' as const }), weight: 2 },
    {
      arbitrary: fc
        .record({
          key: fc.constantFrom(...(route.query ? ['session_id', 'movieId'] : ['x'])),
          value: anyString,
        })
        .map((q) => ({ kind: 'mutate' as const, ...q })),
      weight: 3,
    },
    { arbitrary: fc.constant({ kind: 'repeat' as const }), weight: 1 },
    {
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'a[b]', 'x', ''), anyString), {
          maxLength: 4,
        })
        .map((entries) => ({ kind: 'random' as const, entries })),
      weight: 1,
    },
  );

const jsonBodyPlan = (route: RouteSpec, world: World): fc.Arbitrary<BodyPlan> => {
  const fields = Object.keys(route.validBody?.(world) ?? {});
  return fc.oneof(
    { arbitrary: fc.constant({ kind: 'valid' as const }), weight: 1 },
    {
      arbitrary: fc
        .record({
          field: fc.constantFrom(...(fields.length ? fields : ['anything'])),
          op: fc.constantFrom(
            'replace' as const,
            'replace' as const,
            'replace' as const,
            'delete' as const,
            'extra' as const,
          ),
          value: nastyValue,
        })
        .map((m) => ({ kind: 'mutate' as const, ...m })),
      weight: 8,
    },
    {
      arbitrary: fc.oneof(nastyValue, fc.jsonValue()).map((value) => ({ kind: 'random' as const, value })),
      weight: 2,
    },
    {
      arbitrary: fc.record({ payload: rawText, contentType }).map((r) => ({ kind: 'raw' as const, ...r })),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom('proto' as const, 'constructor' as const, 'nested' as const)
        .map((which) => ({
          kind: 'pollute' as const,
          which,
        })),
      weight: 1,
    },
    { arbitrary: fc.constant({ kind: 'oversized' as const }), weight: 1 },
  );
};

const MOVIE_FIELDS = ['title', 'description', 'durationMinutes', 'rating', 'poster', 'extra'];
const multipartBodyPlan: fc.Arbitrary<BodyPlan> = fc.oneof(
  {
    arbitrary: fc
      .record({
        fields: fc.dictionary(
          fc.constantFrom(...MOVIE_FIELDS),
          fc.oneof(
            anyString,
            fc.constantFrom('NaN', 'Infinity', '-5', '0', '1e309', '90.5', '  ', '90', 'Valid Title'),
          ),
          { maxKeys: 5 },
        ),
        file: fc.constantFrom<FilePlan>('none', 'png', 'text', 'random', 'huge', 'stray', 'empty'),
        boundary: fc.option(fc.constantFrom('x', '"quoted"', '-'.repeat(80), 'b\u00e9'), { nil: undefined }),
      })
      .map((f) => ({ kind: 'form' as const, ...f })),
    weight: 6,
  },
  { arbitrary: fc.constant({ kind: 'truncatedMultipart' as const }), weight: 1 },
  {
    arbitrary: fc.record({ payload: rawText, contentType }).map((r) => ({ kind: 'raw' as const, ...r })),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'oversized' as const }), weight: 1 },
);

const rawBodyPlan: fc.Arbitrary<BodyPlan> = fc.oneof(
  {
    arbitrary: fc.record({ payload: rawText, contentType }).map((r) => ({ kind: 'raw' as const, ...r })),
    weight: 5,
  },
  {
    arbitrary: fc.oneof(nastyValue, fc.jsonValue()).map((value) => ({ kind: 'random' as const, value })),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'oversized' as const }), weight: 1 },
);

/** Every kind of bad request this route can get, as fast-check plans. */
export function requestPlans(route: RouteSpec, world: World): fc.Arbitrary<RequestPlan> {
  const body =
    route.body === 'json'
      ? jsonBodyPlan(route, world)
      : route.body === 'multipart'
        ? multipartBodyPlan
        : route.body === 'raw' || route.body === 'form'
          ? rawBodyPlan
          : fc.oneof(
              { arbitrary: fc.constant({ kind: 'none' as const }), weight: 4 },
              {
                arbitrary: fc
                  .record({ payload: rawText, contentType })
                  .map((r) => ({ kind: 'raw' as const, ...r })),
                weight: 1,
              },
            );
  return fc.record({
    auth: authPlan,
    id: idPlan,
    query: route.query ? queryPlan(route) : fc.constant({ kind: 'valid' as const }),
    body,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Turning a plan into a request, sending it, judging the answer.
// ---------------------------------------------------------------------------------------------------------------

export interface FuzzContext {
  app: FastifyInstance;
  world: World;
  /** The customer the fuzzer acts as (never the world's Alice, so her bookings stay as they are). */
  fuzzer: SignedIn;
}

/** A signed-in customer of its own for the fuzzer; every proper request gets a fresh session (logout ends one). */
export async function createFuzzContext(app: FastifyInstance, world: World): Promise<FuzzContext> {
  return { app, world, fuzzer: await signedInUser(app, { name: 'Fuzz Tester' }) };
}

function pathFor(route: RouteSpec, ctx: FuzzContext, plan: IdPlan): string {
  if (!route.path.includes(':id')) return route.path;
  const known = route.ids?.(ctx.world) ?? [];
  const segment =
    plan.kind === 'known'
      ? known.length
        ? encodeSegment(known[plan.index % known.length]!)
        : '3f1f8b3e-8b59-4b7f-9a67-6f4c9a7c2f10'
      : plan.kind === 'text'
        ? encodeSegment(plan.text) || '%20'
        : plan.segment;
  return route.path.replace(':id', segment);
}

function queryFor(route: RouteSpec, ctx: FuzzContext, plan: QueryPlan): string {
  const valid = route.query?.(ctx.world) ?? {};
  let entries: [string, string][] = Object.entries(valid);
  if (plan.kind === 'mutate') entries = [...entries.filter(([k]) => k !== plan.key), [plan.key, plan.value]];
  if (plan.kind === 'repeat') entries = [...entries, ...entries];
  if (plan.kind === 'random') entries = [...entries, ...plan.entries];
  if (entries.length === 0) return '';
  return `?${entries.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&')}`;
}

async function authFor(route: RouteSpec, ctx: FuzzContext, plan: AuthPlan): Promise<Record<string, string>> {
  if (plan.kind === 'garbage') return { authorization: plan.header };
  if (plan.kind === 'none' || route.access === 'session' || route.access === 'signed') return {};
  const userId = route.access === 'admin' ? ctx.world.admin.id : ctx.fuzzer.id;
  return { authorization: `Bearer ${await createSession(ctx.app.database.db, userId)}` };
}

function fileFor(plan: FilePlan): { name: string; value: Buffer; filename: string; type: string }[] {
  switch (plan) {
    case 'none':
      return [];
    case 'png':
      return [{ name: 'poster', value: tinyPng(), filename: 'p.png', type: 'image/png' }];
    case 'text':
      return [{ name: 'poster', value: Buffer.from('not an image'), filename: 'p.png', type: 'image/png' }];
    case 'random':
      return [
        {
          name: 'poster',
          value: Buffer.from([0xff, 0xd8, 0xff, 0x00, 1, 2]),
          filename: '',
          type: 'image/jpeg',
        },
      ];
    case 'huge':
      return [
        {
          name: 'poster',
          value: Buffer.alloc(5 * 1024 * 1024 + 10, 1),
          filename: 'big.png',
          type: 'image/png',
        },
      ];
    case 'stray':
      return [{ name: 'other', value: tinyPng(), filename: 'p.png', type: 'image/png' }];
    case 'empty':
      return [{ name: 'poster', value: Buffer.alloc(0), filename: 'e.png', type: 'image/png' }];
  }
}

/** The JSON text of an object with an own `__proto__`/`constructor` key, as an attacker would send it. */
function pollutedBody(route: RouteSpec, ctx: FuzzContext, which: 'proto' | 'constructor' | 'nested'): string {
  const valid = JSON.stringify(route.validBody?.(ctx.world) ?? {}).slice(1, -1);
  const comma = valid ? ',' : '';
  if (which === 'proto') return `{"__proto__":{"polluted":"yes","role":"ADMIN"}${comma}${valid}}`;
  if (which === 'constructor') return `{"constructor":{"prototype":{"polluted":"yes"}}${comma}${valid}}`;
  return `{${valid}${comma}"nested":{"__proto__":{"polluted":"yes"}}}`;
}

function bodyFor(
  route: RouteSpec,
  ctx: FuzzContext,
  plan: BodyPlan,
): { payload?: InjectOptions['payload']; headers: Record<string, string> } {
  const json = (value: unknown) => ({
    payload: JSON.stringify(value) ?? 'null',
    headers: { 'content-type': 'application/json' },
  });
  switch (plan.kind) {
    case 'none':
      return { headers: {} };
    case 'valid':
      return json(route.validBody?.(ctx.world) ?? {});
    case 'mutate': {
      const body: Record<string, unknown> = { ...(route.validBody?.(ctx.world) ?? {}) };
      if (plan.op === 'delete') delete body[plan.field];
      else if (plan.op === 'extra') body[`${plan.field}Extra`] = plan.value;
      else body[plan.field] = plan.value;
      return json(body);
    }
    case 'random':
      return json(plan.value);
    case 'raw':
      return { payload: plan.payload, headers: plan.contentType ? { 'content-type': plan.contentType } : {} };
    case 'pollute':
      return {
        payload: pollutedBody(route, ctx, plan.which),
        headers: { 'content-type': 'application/json' },
      };
    case 'oversized': {
      const padding = 'x'.repeat(1024 * 1024 + 100);
      return route.body === 'multipart'
        ? multipart([
            { name: 'title', value: 'Big' },
            {
              name: 'poster',
              value: Buffer.alloc(6 * 1024 * 1024, 7),
              filename: 'big.png',
              type: 'image/png',
            },
          ])
        : json({ ...(route.validBody?.(ctx.world) ?? {}), padding });
    }
    case 'form':
      return multipart(
        [...Object.entries(plan.fields).map(([name, value]) => ({ name, value })), ...fileFor(plan.file)],
        plan.boundary,
      );
    case 'truncatedMultipart': {
      const form = multipart([{ name: 'title', value: 'Cut short' }, ...fileFor('png')]);
      return { payload: form.payload.subarray(0, form.payload.length - 30), headers: form.headers };
    }
  }
}

/** A request as sent, for reports. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: InjectOptions['payload'];
}

/** Builds the request a plan describes (a fresh session token when it is meant to be signed in). */
export async function buildRequest(
  route: RouteSpec,
  ctx: FuzzContext,
  plan: RequestPlan,
): Promise<SentRequest> {
  const url = pathFor(route, ctx, plan.id) + queryFor(route, ctx, plan.query);
  const body = bodyFor(route, ctx, plan.body);
  const headers = { ...(await authFor(route, ctx, plan.auth)), ...body.headers };
  return { method: route.method, url, headers, payload: body.payload };
}

export interface Violation {
  route: string;
  request: string;
  status: number;
  problem: string;
  body: string;
}

const describeRequest = (req: SentRequest) => {
  const payload =
    req.payload === undefined
      ? ''
      : Buffer.isBuffer(req.payload)
        ? ` <${req.payload.length} bytes>`
        : ` ${String(req.payload).slice(0, 300)}`;
  return `${req.method} ${req.url.slice(0, 300)} ${JSON.stringify(req.headers['content-type'] ?? '')}${payload}`;
};

/**
 * What a client must always get: no 5xx; every 4xx a JSON `{error: string}` (the hosted checkout pages answer
 * HTML instead); the server never takes a request as a licence to change Object.prototype.
 */
export function judge(route: RouteSpec, req: SentRequest, res: LightMyRequestResponse): Violation | null {
  const at = (problem: string): Violation => ({
    route: `${route.method} ${route.path}`,
    request: describeRequest(req),
    status: res.statusCode,
    problem,
    body: res.body.slice(0, 300),
  });
  if ((Object.prototype as Record<string, unknown>).polluted !== undefined)
    return at('Object.prototype polluted');
  if (res.statusCode >= 500) return at('server error');
  if (res.statusCode < 400) return null;
  const type = String(res.headers['content-type'] ?? '');
  if (route.html && type.startsWith('text/html')) return null;
  if (!type.startsWith('application/json')) return at(`error answered as ${type || 'no content type'}`);
  try {
    const body = res.json() as { error?: unknown };
    if (typeof body.error !== 'string' || body.error === '') return at('error without an error message');
  } catch {
    return at('error body is not JSON');
  }
  return null;
}

/** Sends one planned request and judges the answer. */
export async function tryPlan(route: RouteSpec, ctx: FuzzContext, plan: RequestPlan) {
  const req = await buildRequest(route, ctx, plan);
  const res = await ctx.app.inject(req as InjectOptions);
  return { req, res, violation: judge(route, req, res) };
}

export interface FuzzReport {
  requests: number;
  serverErrors: number;
  violations: Violation[];
  statuses: Record<number, number>;
  healthAfterEveryRoute: boolean;
}

/**
 * Reporting mode: `runsPerRoute` generated requests against every route, counting instead of stopping at the
 * first failure. Tests use the same plans through fc.assert (which shrinks a failure to its smallest form).
 */
export async function fuzzAllRoutes(
  ctx: FuzzContext,
  opts: { runsPerRoute: number; seed?: number; routes?: RouteSpec[] },
): Promise<FuzzReport> {
  const report: FuzzReport = {
    requests: 0,
    serverErrors: 0,
    violations: [],
    statuses: {},
    healthAfterEveryRoute: true,
  };
  for (const route of opts.routes ?? ROUTES) {
    const plans = fc.sample(requestPlans(route, ctx.world), { numRuns: opts.runsPerRoute, seed: opts.seed });
    for (const plan of plans) {
      const { res, violation } = await tryPlan(route, ctx, plan);
      report.requests++;
      report.statuses[res.statusCode] = (report.statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode >= 500) report.serverErrors++;
      if (violation) report.violations.push(violation);
    }
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    report.requests++;
    if (health.statusCode !== 200) report.healthAfterEveryRoute = false;
  }
  return report;
}
