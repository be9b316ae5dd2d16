import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from './helpers.ts';
import { createTestAppWithWebBuild } from './web-build.ts';
import { CHILD_ADMIN, startChildServer } from './reliability/child-server.ts';
import { multipart, tinyPng } from './reliability/world.ts';

function expectJsonError(res: LightMyRequestResponse, status: number, code?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(res.json()).toMatchObject({ error: expect.any(String), ...(code ? { code } : {}) });
}

const directives = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );

describe('security headers and content security policy', () => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await createTestAppWithWebBuild({
      'index.html': '<!doctype html><title>Cinema</title><div id="root"></div>',
      'assets/app.js': 'console.log(1)',
    });
    app = t.app;
  });
  afterAll(() => t.close());

  it('sends the app policy on pages and API: own origin only, no framing, no plugins, no inline script', async () => {
    for (const url of ['/', '/login', '/movies', '/showtimes/abc/seats', '/admin/showtimes', '/api/health']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['style-src']).toEqual(["'self'"]);
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp['connect-src']).toEqual(["'self'", 'ws:', 'wss:']);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it("allows WebAssembly ('wasm-unsafe-eval') on the scanner and kitchen pages only", async () => {
    for (const url of ['/admin/scan', '/admin/scan/', '/admin/kitchen']) {
      const scan = await app.inject({ method: 'GET', url });
      expect(directives(scan.headers['content-security-policy'])['script-src']).toEqual([
        "'self'",
        "'wasm-unsafe-eval'",
      ]);
    }
    for (const url of [
      '/admin',
      '/admin/scanner',
      '/admin/scan/x',
      '/admin/kitchens',
      '/movies',
      '/assets/app.js',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(String(res.headers['content-security-policy'])).not.toContain('wasm-unsafe-eval');
    }
  });

  it('keeps Swagger UI working under its own hashed policy, without upgrade-insecure-requests', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    const csp = directives(page.headers['content-security-policy']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
    expect(csp['script-src']).toContain("'self'");
    const spec = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
  });

  it('keeps the local checkout page on its own stricter policy (inline style and script by hash)', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/pay/local/${randomUUID()}` });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['style-src']![0]).toMatch(/^'sha256-/);
  });

  it('keeps CORS closed: no Access-Control-Allow-Origin for other origins, preflights refused', async () => {
    const evil = { origin: 'https://evil.example' };
    const get = await app.inject({ method: 'GET', url: '/api/movies', headers: evil });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: {
        ...evil,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('keeps Socket.IO closed to other origins too', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('size limits', () => {
  let t: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    app = t.app;
  });
  afterAll(() => t.close());

  it('refuses a JSON body over 1 MB with 413 JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expectJsonError(res, 413, 'payload_too_large');
  });

  it('answers headers over 16 KB with 431 and a garbled request with 400, both as {error, code}', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // What Node's HTTP parser answers before any route runs: read off the socket as a client would.
    const raw = (request: string) =>
      new Promise<{ status: number; type: string; body: unknown }>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('utf8')));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head = '', body = ''] = text.split('\r\n\r\n');
          resolve({
            status: Number(head.split(' ')[1]),
            type: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
            body: JSON.parse(body),
          });
        });
      });
    const big = await raw(`GET /api/movies HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toEqual({
      status: 431,
      type: expect.stringMatching(/^application\/json/),
      body: { error: 'The request headers are too large', code: 'request_headers_too_large' },
    });
    const garbled = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbled).toEqual({
      status: 400,
      type: expect.stringMatching(/^application\/json/),
      body: { error: 'Bad request', code: 'bad_request' },
    });
  });

  it('refuses a poster over 5 MB with 413 JSON and keeps no movie', async () => {
    const admin = await signedInAdmin(app);
    const title = `Too Big ${Date.now()}`;
    const form = multipart([
      { name: 'title', value: title },
      {
        name: 'poster',
        value: Buffer.concat([tinyPng(), Buffer.alloc(5 * 1024 * 1024)]),
        filename: 'big.png',
        type: 'image/png',
      },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/movies',
      headers: { ...admin.headers, ...form.headers },
      payload: form.payload,
    });
    expectJsonError(res, 413, 'payload_too_large');
    const movies = (await app.inject({ method: 'GET', url: '/api/movies' })).json() as { title: string }[];
    expect(movies.map((m) => m.title)).not.toContain(title);
  });

  it('accepts a poster just under 5 MB', async () => {
    const admin = await signedInAdmin(app);
    const form = multipart([
      { name: 'title', value: `Big But Fine ${Date.now()}` },
      {
        name: 'poster',
        value: Buffer.concat([tinyPng(), Buffer.alloc(5 * 1024 * 1024 - 1024)]),
        filename: 'big.png',
        type: 'image/png',
      },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/movies',
      headers: { ...admin.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe.each(engines)('rate limits on %s', (engine) => {
  let on: TestApp;
  let off: TestApp;

  beforeAll(async () => {
    [on, off] = await Promise.all([createTestApp(engine), createTestApp(engine, { RATE_LIMIT: 'off' })]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  /** Sends `count` requests one after another; returns the statuses. */
  async function burst(
    app: FastifyInstance,
    count: number,
    request: () => Promise<InjectOptions> | InjectOptions,
  ) {
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < count; i++) {
      last = await app.inject(await request());
      statuses.push(last.statusCode);
    }
    return { statuses, last: last! };
  }

  const limited = [
    {
      name: 'login',
      max: 30,
      request: async () => ({ method: 'POST' as const, url: '/api/auth/login', payload: { email: '' } }),
    },
    {
      name: 'register',
      max: 20,
      request: async () => ({ method: 'POST' as const, url: '/api/auth/register', payload: { name: 'x' } }),
    },
  ];

  for (const { name, max, request } of limited) {
    it(`limits ${name} to ${max} requests per address with a 429 JSON, lifted by RATE_LIMIT=off`, async () => {
      const { statuses, last } = await burst(on.app, max + 1, request);
      expect(statuses.slice(0, max).every((s) => s === 400)).toBe(true);
      expectJsonError(last, 429, 'too_many_requests');
      const free = await burst(off.app, max + 5, request);
      expect(free.statuses.every((s) => s === 400)).toBe(true);
    });
  }

  it('limits holds to 60 a minute per customer with a 429 JSON, lifted by RATE_LIMIT=off', async () => {
    for (const t of [on, off]) {
      const customer = await signedInUser(t.app);
      const request = () => ({
        method: 'POST' as const,
        url: `/api/showtimes/${randomUUID()}/hold`,
        headers: customer.headers,
        payload: { seatIds: [randomUUID()] },
      });
      const { statuses, last } = await burst(t.app, 61, request);
      expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
      if (t === on) expectJsonError(last, 429, 'too_many_requests');
      else expect(last.statusCode).toBe(404);
    }
  });

  it('limits door scans to 300 a minute with a 429 JSON, lifted by RATE_LIMIT=off', async () => {
    for (const t of [on, off]) {
      const admin = await signedInAdmin(t.app);
      const request = () => ({
        method: 'POST' as const,
        url: '/api/admin/scan',
        headers: admin.headers,
        payload: { bookingId: randomUUID() },
      });
      const { statuses, last } = await burst(t.app, 301, request);
      expect(statuses.slice(0, 300).every((s) => s === 404)).toBe(true);
      if (t === on) expectJsonError(last, 429, 'too_many_requests');
      else expect(last.statusCode).toBe(404);
    }
  });

  it('keeps the login-failure lock with RATE_LIMIT=off: the 11th wrong password is a 429', async () => {
    const victim = await signedInUser(off.app);
    const { statuses, last } = await burst(off.app, 11, () => ({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: victim.email, password: 'Wrong#Pass1' },
    }));
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expectJsonError(last, 429);
    // Even the right password waits out the lock.
    const right = await off.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: victim.email, password: STRONG_PASSWORD },
    });
    expect(right.statusCode).toBe(429);
  });
});

describe('no secrets or tokens in the logs', () => {
  it('logs nothing secret while people register, sign in, fail, change passwords and pay (real server, trace level)', async () => {
    const secrets = {
      stripeKey: `sk_test_${randomUUID().replaceAll('-', '')}`,
      webhookSecret: `whsec_${randomUUID().replaceAll('-', '')}`,
    };
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-logs-'));
    const server = await startChildServer({
      dataDir,
      env: {
        LOG_LEVEL: 'trace',
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: secrets.stripeKey,
        STRIPE_WEBHOOK_SECRET: secrets.webhookSecret,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_public',
        // Nobody listens there: every Stripe call fails, and failures get logged.
        STRIPE_API_URL: 'http://127.0.0.1:9',
      },
    });
    const seen: string[] = [secrets.stripeKey, secrets.webhookSecret, CHILD_ADMIN.password];
    try {
      const post = async (route: string, body: unknown, token?: string, method = 'POST') => {
        const res = await fetch(`${server.url}/api${route}`, {
          method,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json().catch(() => null)) as any };
      };
      const email = uniqueEmail('logs');
      const newPassword = 'Changed#Secret9';
      const registered = await post('/auth/register', {
        name: 'Logan Logs',
        email,
        password: STRONG_PASSWORD,
      });
      expect(registered.status).toBe(201);
      const login = await post('/auth/login', { email, password: STRONG_PASSWORD });
      const wrong = await post('/auth/login', { email, password: 'Wrong#Guess42' });
      expect(wrong.status).toBe(401);
      const changed = await post(
        '/user/password',
        { currentPassword: STRONG_PASSWORD, newPassword },
        login.body.token,
        'PUT',
      );
      expect(changed.status).toBe(200);
      const admin = await post('/auth/login', CHILD_ADMIN);
      seen.push(
        STRONG_PASSWORD,
        newPassword,
        'Wrong#Guess42',
        registered.body.token,
        login.body.token,
        admin.body.token,
      );

      // A checkout the provider cannot be reached for (a logged failure), and a webhook with a forged signature.
      const show = await (async () => {
        const movie = await fetch(`${server.url}/api/admin/movies`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${admin.body.token}`,
            ...multipart([{ name: 'title', value: 'Log Film' }]).headers,
          },
          body: new Uint8Array(multipart([{ name: 'title', value: 'Log Film' }]).payload),
        }).then((r) => r.json() as Promise<{ id: string }>);
        const halls = await fetch(`${server.url}/api/admin/rooms`, {
          headers: { authorization: `Bearer ${admin.body.token}` },
        }).then((r) => r.json() as Promise<{ id: string }[]>);
        const st = await post(
          '/admin/showtimes',
          {
            movieId: movie.id,
            auditoriumId: halls[0]!.id,
            startsAt: new Date(Date.now() + 72 * 3600_000).toISOString(),
            priceCents: 1000,
          },
          admin.body.token,
        );
        return st.body as { id: string };
      })();
      const seats = await fetch(`${server.url}/api/showtimes/${show.id}/seats`).then(
        (r) => r.json() as Promise<{ seats: { id: string }[] }>,
      );
      const token = (await post('/auth/login', { email, password: newPassword })).body.token as string;
      seen.push(token);
      const hold = await post(`/showtimes/${show.id}/hold`, { seatIds: [seats.seats[0]!.id] }, token);
      expect(hold.status).toBe(201);
      const checkout = await post('/pay/checkout', { bookingIds: hold.body.bookingIds }, token);
      expect(checkout.status).toBeGreaterThanOrEqual(500);
      const forged = `t=${Math.floor(Date.now() / 1000)},v1=${'ab'.repeat(32)}`;
      seen.push(forged);
      const webhook = await fetch(`${server.url}/api/pay/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': forged },
        body: '{"id":"evt_1","type":"checkout.session.completed"}',
      });
      expect(webhook.status).toBe(400);
      await post('/auth/logout', {}, token);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    const output = server.output();
    // The log really is at trace level and saw those requests.
    expect(output).toContain('"url":"/api/auth/login"');
    expect(output).toContain('/api/pay/checkout');
    const lines = output.split('\n');
    for (const secret of seen) expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    expect(output).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/);
    expect(output).not.toMatch(/\$argon2id\$/);
  }, 120_000);
});
