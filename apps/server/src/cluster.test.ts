import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartDelayMs } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createPostgresDatabase, postgresUrl, redisUrl } from './test/helpers.ts';
import { startServerProcess, type ServerProcess } from './test/server-process.ts';

if (!postgresUrl || !redisUrl) {
  console.warn('cluster.test.ts: the WORKERS=2 run is skipped (set TEST_DATABASE_URL and TEST_REDIS_URL).');
}

const PG = 'postgres://db.example/cinema';
const REDIS = 'redis://cache.example:6379';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('WORKERS', () => {
  it('defaults to one process', () => {
    expect(loadConfig({}).workers).toBe(1);
  });

  it('refuses several workers on the embedded database, naming DATABASE_URL', () => {
    expect(configError({ WORKERS: '2', REDIS_URL: REDIS })).toMatch(/WORKERS: .*needs DATABASE_URL/);
  });

  it('refuses several workers without Redis, naming REDIS_URL', () => {
    expect(configError({ WORKERS: '2', DATABASE_URL: PG })).toMatch(/WORKERS: .*needs REDIS_URL/);
  });

  it('accepts several workers with PostgreSQL and Redis, and refuses nonsense', () => {
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: PG, REDIS_URL: REDIS }).workers).toBe(4);
    expect(configError({ WORKERS: '0' })).toMatch(/WORKERS/);
    expect(configError({ WORKERS: 'many' })).toMatch(/WORKERS/);
  });
});

const workerPids = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);

describe.skipIf(!postgresUrl || !redisUrl)('WORKERS=2 on PostgreSQL and Redis', () => {
  let server: ServerProcess;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await createPostgresDatabase();
    drop = fresh.drop;
    server = await startServerProcess({ WORKERS: '2', DATABASE_URL: fresh.url, REDIS_URL: redisUrl! });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await drop?.();
  });

  it('serves from two worker processes, replaces one that dies, and stops them all on SIGTERM', async () => {
    // Announced once both workers listen (the first may answer a little earlier).
    const announced = Date.now() + 60_000;
    while (!server.output().includes('(2 worker processes)') && Date.now() < announced) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(server.output()).toContain('Cinema is running at');
    expect(server.output()).toContain('(2 worker processes)');
    const workers = workerPids(server.pid);
    expect(workers).toHaveLength(2);
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/api/health`);
      expect(await res.json()).toEqual({
        ok: true,
        database: 'postgres',
        checks: { database: 'up', redis: 'up' },
      });
    }

    process.kill(workers[0]!, 'SIGKILL');
    const until = Date.now() + 60_000;
    let now = workerPids(server.pid);
    while (!(now.length === 2 && !now.includes(workers[0]!)) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      now = workerPids(server.pid);
    }
    expect(now).toHaveLength(2);
    expect(now).toContain(workers[1]);

    await server.stop();
    expect(server.child.exitCode).toBe(0);
    for (const pid of now) expect(() => process.kill(pid, 0)).toThrow();
  }, 90_000);
});

describe('replacing workers that keep dying', () => {
  it('replaces the first at once, then backs off up to 30 s, and never gives up', () => {
    expect(restartDelayMs(1)).toBe(0);
    expect(restartDelayMs(2)).toBe(250);
    expect(restartDelayMs(3)).toBe(500);
    expect(restartDelayMs(6)).toBe(4000);
    expect(restartDelayMs(100)).toBe(30_000);
  });
});
