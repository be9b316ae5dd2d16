import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, gt } from 'drizzle-orm';
import type { Role } from '@cinema/contract';
import type { Queryable } from '../db/database.ts';
import { sessions, users } from '../db/schema/index.ts';
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

async function findSessionUser(db: Queryable, token: string): Promise<AuthUser | null> {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
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
