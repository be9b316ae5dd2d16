import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { and, desc, eq } from 'drizzle-orm';
import { mailOutbox, users } from '../db/schema/index.ts';
import { settleMail } from '../modules/mail/outbox.service.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { createUser } from '../modules/accounts/accounts.service.ts';
import { createSession } from '../plugins/auth.ts';
import { migratedPgliteFs, newPostgresDatabase } from './database-templates.ts';

export type Engine = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL when TEST_DATABASE_URL points at a server (CI sets it). */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
export const postgresUrl = process.env.TEST_DATABASE_URL;
export const redisUrl = process.env.TEST_REDIS_URL;

if (!postgresUrl && !process.env.CINEMA_QUIET_SKIPS) {
  process.env.CINEMA_QUIET_SKIPS = '1';
  console.warn(
    'TEST_DATABASE_URL is not set: tests that need PostgreSQL are skipped (embedded engine only).',
  );
}

export interface TestDatabase {
  engine: Engine;
  /** postgres:// URL of the fresh database (postgres engine only). */
  url?: string;
  database: Database;
  drop(): Promise<void>;
}

/**
 * A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server, dropped afterwards: for tests of migrating
 * itself (createTestDatabase gives a migrated one).
 */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  return newPostgresDatabase(postgresUrl, 'cinema_test', { migrated: false });
}

/** A fresh, migrated database on the given engine (a copy of one migrated once: database-templates.ts). */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ dataDir: 'memory://', pgliteFs: await migratedPgliteFs() });
    return { engine, database, drop: async () => {} };
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const { url, drop } = await newPostgresDatabase(postgresUrl, 'cinema_test', { migrated: true });
  const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
  return { engine, url, database, drop };
}

export interface TestApp {
  app: FastifyInstance;
  engine: Engine;
  database: Database;
  /** postgres:// URL of this app's database (postgres engine only). */
  url?: string;
  close(): Promise<void>;
}

/** The real app on a fresh database; `env` overrides configuration (rate limits stay on unless set off). */
export async function createTestApp(
  engine: Engine = 'pglite',
  env: Record<string, string> = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase(engine);
  const app = await buildApp(testConfig({ DATA_DIR: 'memory://', ...env }), { database: testDb.database });
  await app.ready();
  return {
    app,
    engine,
    database: testDb.database,
    url: testDb.url,
    close: async () => {
      await app.close();
      await testDb.drop();
    },
  };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now()}-${++counter}@example.com`;
export const STRONG_PASSWORD = 'Popcorn#2026';

export interface SignedIn {
  id: string;
  email: string;
  name: string;
  token: string;
  headers: { authorization: string };
}

/** Creates a user directly (no HTTP, no rate limit) and signs them in; `verified`: as if the email link was opened. */
export async function signedInUser(
  app: FastifyInstance,
  opts: {
    role?: 'ADMIN' | 'STAFF' | 'USER';
    email?: string;
    name?: string;
    password?: string;
    verified?: boolean;
  } = {},
): Promise<SignedIn> {
  const email = opts.email ?? uniqueEmail(opts.role?.toLowerCase() ?? 'user');
  const name =
    opts.name ?? { ADMIN: 'Ada Admin', STAFF: 'Sam Staff', USER: 'Cathy Customer' }[opts.role ?? 'USER'];
  const user = await createUser(app.database.db, {
    name,
    email,
    password: opts.password ?? STRONG_PASSWORD,
    role: opts.role ?? 'USER',
  });
  if (opts.verified) {
    await app.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
  }
  const token = await createSession(app.database.db, user.id);
  return { id: user.id, email: user.email, name, token, headers: { authorization: `Bearer ${token}` } };
}

export const signedInAdmin = (app: FastifyInstance) => signedInUser(app, { role: 'ADMIN' });
export const signedInStaff = (app: FastifyInstance, name?: string) =>
  signedInUser(app, { role: 'STAFF', ...(name && { name }) });

/** The parsed JSON body of an injected response. */
export function json<T = any>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

/** The newest email of this kind to this address in the outbox, once the mail work started so far settled. */
export async function newestMail(app: FastifyInstance, to: string, kind: string) {
  await settleMail();
  const [mail] = await app.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return mail;
}
