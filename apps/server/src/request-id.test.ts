import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { testConfig } from './config.ts';
import { createTestDatabase, type TestDatabase } from './test/helpers.ts';

describe('request ids in the logs', () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase('pglite');
    app = await buildApp(testConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'info' }), {
      database: testDb.database,
      logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    // A route that logs through the app's logger (as services do with deps.log) after reading a body.
    app.post('/test/log-through-app', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      app.log.info({ seen: request.body }, 'service line');
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const linesOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

  it('keeps a sane incoming X-Request-Id, echoes it, and puts it on every line of the request', async () => {
    const reqId = 'proxy-7f3a.42:9';
    const res = await app.inject({
      method: 'POST',
      url: '/test/log-through-app',
      headers: { 'x-request-id': reqId },
      payload: { hello: 'world' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe(reqId);
    const mine = linesOf(reqId);
    expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'service line', 'request completed']);
    // Not twice in one line, though request.log binds it already.
    const raw = JSON.stringify(mine[0]);
    expect(raw.split('"reqId"').length - 1).toBe(1);
  });

  it('replaces an id that is not a sane token with a fresh one, echoed', async () => {
    for (const bad of ['<script>alert(1)</script>', 'a'.repeat(200), 'two words']) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/health/live',
        headers: { 'x-request-id': bad },
      });
      const echoed = res.headers['x-request-id'];
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect(linesOf(String(echoed)).map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      expect(lines.some((l) => l.reqId === bad)).toBe(false);
    }
  });

  it('gives each request without one its own id, on errors too', async () => {
    const a = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    const b = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(a.statusCode).toBe(404);
    expect(a.headers['x-request-id']).toBeTruthy();
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(linesOf(String(a.headers['x-request-id'])).length).toBeGreaterThanOrEqual(2);
  });
});

describe('the request logger, made when first written to', () => {
  it('writes the enabled lines of a request with its id, and nothing below the level', async () => {
    const lines: Record<string, unknown>[] = [];
    const testDb = await createTestDatabase('pglite');
    const app = await buildApp(testConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'warn' }), {
      database: testDb.database,
      logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    try {
      app.get('/test/warn', async (request) => {
        request.log.info('below the level');
        expect(request.log.level).toBe('warn');
        request.log.warn({ n: 1 }, 'a warning');
        request.log.child({ part: 'inner' }).error('an error');
        return { ok: true };
      });
      await app.ready();
      const res = await app.inject({
        method: 'GET',
        url: '/test/warn',
        headers: { 'x-request-id': 'lazy-1' },
      });
      expect(res.statusCode).toBe(200);
      const mine = lines.filter((l) => l.reqId === 'lazy-1');
      expect(mine.map((l) => l.msg)).toEqual(['a warning', 'an error']);
      expect(mine[0]!.n).toBe(1);
      expect(mine[1]!.part).toBe('inner');
      expect(lines.some((l) => l.msg === 'below the level')).toBe(false);
    } finally {
      await app.close();
      await testDb.drop();
    }
  });
});
