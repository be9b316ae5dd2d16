import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const ADMIN = { email: 'admin@e2e.test', password: 'Projector#2026' } as const;

export interface RunningServer {
  /** http://127.0.0.1:<port>, the origin of the SPA and the API. */
  url: string;
  admin: { email: string; password: string };
  /** 'pglite' in a fresh DATA_DIR, or 'postgres' on a fresh database of TEST_DATABASE_URL's server. */
  engine: 'pglite' | 'postgres';
  /** Stops the server and removes its data (directory or database). */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database on the TEST_DATABASE_URL server, dropped by the returned function. */
async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cinema_e2e_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the REAL server (`node --import tsx apps/server/src/server.ts`) as a child process on a free port with its
 * own fresh database, an admin account, no demo catalogue and no request-rate limits; resolves once /api/health
 * answers. `env` adds or overrides variables.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-e2e-'));
  const postgres = process.env.TEST_DATABASE_URL ? await createPostgresDatabase() : undefined;

  // Only what this server should see: no DATABASE_URL/REDIS_URL leaking in from the shell running the tests.
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: '0',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (process.env.E2E_SERVER_LOG) process.stderr.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const cleanUp = async () => {
    await rm(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };
  const stop = async () => {
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 10_000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000);
    }
    await cleanUp();
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await cleanUp();
      throw new Error(`The server exited during start (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not answer /api/health within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return { url, admin: { ...ADMIN }, engine: postgres ? 'postgres' : 'pglite', stop };
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    method: string,
    route: string,
  ) {
    super(`${method} ${route} → ${status}: ${JSON.stringify(body)}`);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A tiny JSON client for setting up data over HTTP; `token` signs the calls in. Non-2xx throws HttpError. */
export function apiAs(url: string, token?: string) {
  async function call<T>(method: Method, route: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${url}/api${route}`, { method, headers, body: payload });
    const data: unknown = res.status === 204 ? undefined : await res.json().catch(() => undefined);
    if (!res.ok) throw new HttpError(res.status, data, method, route);
    return data as T;
  }
  return {
    get: <T = any>(route: string) => call<T>('GET', route),
    post: <T = any>(route: string, body?: unknown) => call<T>('POST', route, body),
    put: <T = any>(route: string, body?: unknown) => call<T>('PUT', route, body),
    delete: <T = any>(route: string, body?: unknown) => call<T>('DELETE', route, body),
  };
}

export interface Account {
  user: { id: string; name: string; email: string; role: 'ADMIN' | 'USER' };
  token: string;
  password: string;
}

let counter = 0;
/** A unique address per call, so tests never collide on a shared server. */
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`;
export const STRONG_PASSWORD = 'Popcorn#2026';

/** Registers a customer over HTTP and returns the session. */
export async function registerUser(
  url: string,
  input: { name?: string; email?: string; password?: string } = {},
): Promise<Account> {
  const password = input.password ?? STRONG_PASSWORD;
  const res = await apiAs(url).post<Omit<Account, 'password'>>('/auth/register', {
    name: input.name ?? 'Cathy Customer',
    email: input.email ?? uniqueEmail(),
    password,
  });
  return { ...res, password };
}

/** Signs in over HTTP (e.g. as the admin from startServer). */
export async function signIn(url: string, email: string, password: string): Promise<Account> {
  const res = await apiAs(url).post<Omit<Account, 'password'>>('/auth/login', { email, password });
  return { ...res, password };
}
