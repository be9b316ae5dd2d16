import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newPostgresDatabase } from '../../apps/server/src/test/database-templates.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/src/test/server-process.ts';

export const ADMIN = { email: 'admin@e2e.test', password: 'Projector#2026' } as const;

export interface RunningServer {
  /** http://127.0.0.1:<port>, the origin of the SPA and the API. */
  url: string;
  admin: { email: string; password: string };
  /**
   * 'pglite' in a fresh DATA_DIR (a copy of the migrated one: startServerProcess), or 'postgres' on a fresh database
   * of TEST_DATABASE_URL's server.
   */
  engine: 'pglite' | 'postgres';
  /** Stops the server and removes its data (directory or database). */
  stop(): Promise<void>;
}

/**
 * Starts the REAL server (`node apps/server/dist/server.js`, as `npm start` runs it) as a child process on a free port with its
 * own fresh database, an admin account, no demo catalogue and no request-rate limits; resolves once it answers.
 * `env` adds or overrides variables; E2E_SERVER_LOG=1 shows its output.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-e2e-'));
  // A copy of the migrated template (apps/server/src/test/database-templates.ts): the server finds nothing to migrate.
  const postgres = process.env.TEST_DATABASE_URL
    ? await newPostgresDatabase(process.env.TEST_DATABASE_URL, 'cinema_e2e', { migrated: true })
    : undefined;
  const cleanUp = async () => {
    await rm(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };
  let server: ServerProcess;
  try {
    server = await startServerProcess(
      {
        DATA_DIR: dataDir,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        ...env,
      },
      { echo: Boolean(process.env.E2E_SERVER_LOG) },
    );
  } catch (err) {
    await cleanUp();
    throw err;
  }
  const stop = async () => {
    await server.stop();
    await cleanUp();
  };
  return { url: server.url, admin: { ...ADMIN }, engine: postgres ? 'postgres' : 'pglite', stop };
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
  user: { id: string; name: string; email: string; role: 'ADMIN' | 'STAFF' | 'USER' };
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
