import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { Role } from '@cinema/contract';
import { batchPerTurn } from '../batch.ts';
import type { Db, Queryable } from '../db/database.ts';
import { sessions } from '../db/schema/index.ts';
import { forbidden, unauthorized } from '../errors.ts';

export interface AuthUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid session token is sent. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** preHandler: 401 for visitors, 403 for customers. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
  }
}

export const SESSION_DAYS = 30;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session and returns its bearer token; only the token's hash is stored. */
export async function createSession(db: Queryable, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000),
  });
  return token;
}

type SessionRow = AuthUser & { tokenHash: string };

// Every signed-in request looks its session up. The lookups of requests that arrive together (within one turn of
// the event loop) share one prepared query, so a busy server makes one database round trip for many of them
// instead of one each; every request is still checked against the database as it is now. The query is the
// session_users function (migration 0006), whose plan stays the token's index however the tables grew.
function sessionLookup(db: Db) {
  const query = db
    .select({
      tokenHash: sql<string>`token_hash`,
      id: sql<string>`user_id`,
      name: sql<string>`user_name`,
      email: sql<string>`user_email`,
      role: sql<Role>`user_role`,
      sessionId: sql<string>`session_id`,
    })
    .from(sql`session_users(${sql.placeholder('tokenHashes')}::text[])`)
    .prepare('session_users');
  const lookup = batchPerTurn(async (tokenHashes: string[]) => {
    const rows: SessionRow[] = await query.execute({ tokenHashes });
    return new Map(rows.map(({ tokenHash, ...user }) => [tokenHash, user]));
  });
  return async (token: string): Promise<AuthUser | null> => (await lookup(hashToken(token))) ?? null;
}

const sessionLookups = new WeakMap<Db, ReturnType<typeof sessionLookup>>();

function findSessionUser(db: Db, token: string): Promise<AuthUser | null> {
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = sessionLookup(db)));
  return lookup(token);
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,200})$/i.exec(header);
  return match?.[1] ?? null;
}

/** Resolves the bearer token (if any) to `request.user` on every request. */
export const authPlugin = fp(async function authPlugin(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    request.user = token ? await findSessionUser(app.database.db, token) : null;
  });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
  });
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (!request.user) throw unauthorized();
    if (request.user.role !== 'ADMIN') throw forbidden('Admins only');
  });
});
