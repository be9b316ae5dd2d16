import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from './helpers.ts';
import { createFuzzContext, requestPlans, tryPlan, type FuzzContext } from './reliability/fuzz.ts';
import { openApiPath, ROUTES, servedRoutes } from './reliability/route-table.ts';
import { createWorld, multipart, type World } from './reliability/world.ts';

/** Generated requests per route (FUZZ_RUNS raises it; FUZZ_SEED replays a reported failure). */
const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

function expectJsonError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(res.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
}

describe.each(engines)('bad input over every route on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let world: World;
  let ctx: FuzzContext;

  beforeAll(async () => {
    // No request-rate limits, so the generated requests reach validation and the services behind it.
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    world = await createWorld(app);
    ctx = await createFuzzContext(app, world);
  });
  afterAll(() => t.close());

  it('knows every route the server serves, and only those', () => {
    const served = servedRoutes(app)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    const table = ROUTES.map((r) => `${r.method} ${openApiPath(r.path)}`).sort();
    expect(table).toEqual(served);
  });

  for (const route of ROUTES) {
    it(
      `${route.method} ${route.path}: never a 5xx, every error a JSON {error}, still healthy after`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestPlans(route, world), async (plan) => {
            const { violation } = await tryPlan(route, ctx, plan);
            if (violation)
              throw new Error(
                `${violation.problem}: ${violation.request} → ${violation.status} ${violation.body}`,
              );
          }),
          // A slow route takes no body, query or ids: a few runs try its headers and tokens.
          { numRuns: route.slow ? Math.min(NUM_RUNS, 12) : NUM_RUNS, seed: SEED },
        );
        const health = await app.inject({ method: 'GET', url: '/api/health' });
        expect(health.statusCode).toBe(200);
      },
      route.slow ? 300_000 : undefined,
    );
  }

  // The generator reaches these only by chance; each is a bug that once shipped somewhere (size limits: security.test).
  it('answers non-JSON bodies and wrong content types with 400/415 JSON', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c", "password": NaN}',
    });
    expectJsonError(bad, 400);
    const xml = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expectJsonError(xml, 415);
  });

  it('refuses __proto__ and constructor.prototype keys without polluting anything', async () => {
    for (const payload of [
      `{"__proto__": {"role": "ADMIN", "polluted": 1}, "name": "P", "email": "${uniqueEmail()}", "password": "${STRONG_PASSWORD}"}`,
      `{"constructor": {"prototype": {"polluted": 1}}, "name": "P", "email": "${uniqueEmail()}", "password": "${STRONG_PASSWORD}"}`,
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectJsonError(res, 400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses text with NUL characters (PostgreSQL cannot store them) as 400, not a database error', async () => {
    const register = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Nul\u0000Name', email: uniqueEmail(), password: STRONG_PASSWORD },
    });
    expectJsonError(register, 400);
    const hall = await app.inject({
      method: 'POST',
      url: '/api/admin/rooms',
      headers: world.admin.headers,
      payload: { name: 'Hall\u0000', rows: 2, cols: 2 },
    });
    expectJsonError(hall, 400);
    const form = multipart([{ name: 'title', value: 'Movie\u0000Title' }]);
    const movie = await app.inject({
      method: 'POST',
      url: '/api/admin/movies',
      headers: { ...world.admin.headers, ...form.headers },
      payload: form.payload,
    });
    expectJsonError(movie, 400);
  });

  it('keeps names with RTL marks, emoji and lone surrogates as text, never a 5xx', async () => {
    for (const name of ['\u202eevil\u202c', 'Ana 🎬🍿', 'lone \ud800 half', '\u200f\u061c']) {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/user/profile',
        headers: ctx.fuzzer.headers,
        payload: { name, email: ctx.fuzzer.email },
      });
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode === 200) expect((res.json() as { name: string }).name.length).toBeGreaterThan(0);
    }
  });

  it('refuses a showtime in the past, negative or NaN prices and impossible dates with 400', async () => {
    const base = { movieId: world.show.movieId, auditoriumId: world.show.hallId, priceCents: 1200 };
    for (const body of [
      { ...base, startsAt: '2001-01-01T10:00:00Z' },
      { ...base, startsAt: new Date(Date.now() - 60_000).toISOString() },
      { ...base, startsAt: '2099-02-30T10:00:00Z' },
      { ...base, startsAt: new Date(Date.now() + 864e5).toISOString(), priceCents: -5 },
      { ...base, startsAt: new Date(Date.now() + 864e5).toISOString(), priceCents: 12.5 },
      { ...base, startsAt: new Date(Date.now() + 864e5).toISOString(), priceCents: '1200' },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/showtimes',
        headers: world.admin.headers,
        payload: body,
      });
      expectJsonError(res, 400);
    }
  });

  it('refuses a malformed id in every path with 400 JSON (HTML pages: their 404 page)', async () => {
    // A customer of its own: the fuzzer may have signed itself out by now, and who you are is checked first.
    const customer = await signedInUser(app);
    for (const route of ROUTES.filter((r) => r.path.includes(':id'))) {
      const headers = route.access === 'admin' ? world.admin.headers : customer.headers;
      const res = await app.inject({
        method: route.method,
        url: route.path.replace(':id', 'not-a-uuid'),
        headers,
      });
      if (route.html) expect(res.statusCode).toBe(404);
      else expectJsonError(res, 400);
    }
  });
});

describe('inputs refused with their own message', () => {
  it('refuses names and titles with text-direction overrides, keeps direction marks', async () => {
    const t = await createTestApp('pglite');
    try {
      const u = await signedInUser(t.app);
      const put = (name: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/user/profile',
          headers: u.headers,
          payload: { name, email: u.email },
        });
      for (const name of ['Bob\u202Eexe.pdf', 'a\u2066b\u2069', '\u202Aleft']) {
        const res = await put(name);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({
          error: 'name: Name must not contain text-direction override characters',
          code: 'bad_request',
        });
      }
      expect((await put('\u200fסבא')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('refuses CR, LF and other control characters in one-line texts, in the client’s language', async () => {
    const t = await createTestApp('pglite');
    try {
      const admin = await signedInAdmin(t.app);
      const send = (method: 'POST' | 'PUT', url: string, payload: object, language = 'en') =>
        t.app.inject({ method, url, headers: { ...admin.headers, 'accept-language': language }, payload });
      const id = '00000000-0000-4000-8000-000000000031';
      const cases: [() => Promise<{ statusCode: number; json(): { error: string } }>, string][] = [
        [
          () => send('POST', '/api/admin/ticket-types', { name: 'Child\rAdult' }),
          'name: Name must be one line',
        ],
        [
          () => send('POST', '/api/admin/rooms', { name: 'Hall\n1', rows: 2, cols: 2 }),
          'name: Name must be one line',
        ],
        [() => send('PUT', '/api/user/profile', { name: 'Eve\r\nBcc: x', email: admin.email }), 'name: Name'],
        [
          () => send('POST', '/api/admin/scan', { bookingId: id, deviceLabel: 'Door\u00851' }),
          'deviceLabel: Device label must be one line',
        ],
        [
          () =>
            send('POST', '/api/admin/box-office/sales', {
              showtimeId: id,
              seatIds: [id],
              paymentMethod: 'cash',
              customerName: 'Walk\u2028In',
            }),
          'customerName: Name must be one line',
        ],
        [
          () => send('POST', '/api/admin/orders/ABC-DEFG/refund', { reason: 'Ill\tfeeling' }),
          'reason: Reason must be one line',
        ],
      ];
      for (const [request, error] of cases) {
        const res = await request();
        expect(res.statusCode, error).toBe(400);
        expect(res.json().error).toContain(error);
      }
      const form = multipart([
        { name: 'title', value: 'Night\rShift' },
        { name: 'rating', value: 'PG\n13' },
      ]);
      const movie = await t.app.inject({
        method: 'POST',
        url: '/api/admin/movies',
        headers: { ...admin.headers, ...form.headers, 'accept-language': 'de' },
        payload: form.payload,
      });
      expect(movie.statusCode).toBe(400);
      expect(movie.json().error).toBe('title: Der Titel muss eine einzige Zeile ohne Steuerzeichen sein');
      // Inside a text, ordinary spaces stay; around it, whitespace (line breaks too) is trimmed as before.
      const kept = await send('POST', '/api/admin/ticket-types', { name: ' Family  Ticket\n' });
      expect(kept.statusCode, kept.body).toBe(201);
      expect(kept.json()).toMatchObject({ name: 'Family  Ticket' });
    } finally {
      await t.close();
    }
  });

  it('refuses text-direction overrides and isolates in device labels', async () => {
    const t = await createTestApp('pglite');
    try {
      const admin = await signedInAdmin(t.app);
      for (const deviceLabel of ['Door 1\u202Eevil', 'Door \u2067 2']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scan',
          headers: admin.headers,
          payload: { bookingId: '00000000-0000-4000-8000-000000000032', deviceLabel },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: 'deviceLabel: Device label must not contain text-direction override characters',
          code: 'bad_request',
        });
      }
    } finally {
      await t.close();
    }
  });

  it('answers an address it cannot decode with the API’s error shape', async () => {
    const t = await createTestApp('pglite');
    try {
      for (const url of ['/api/movies/%E0%A4%A', '/api/showtimes/%c0%af/seats', '/%zz']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: 'The address is not valid (bad percent-encoding)',
          code: 'bad_request',
        });
      }
    } finally {
      await t.close();
    }
  });

  it('tells browsers and proxies to keep no API answer (tokens, tickets), posters aside', async () => {
    const t = await createTestApp('pglite');
    try {
      const u = await signedInUser(t.app);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: u.email, password: STRONG_PASSWORD },
      });
      expect(login.headers['cache-control']).toBe('no-store');
      const tickets = await t.app.inject({ method: 'GET', url: '/api/me/tickets', headers: u.headers });
      expect(tickets.headers['cache-control']).toBe('no-store');
    } finally {
      await t.close();
    }
  });
});
