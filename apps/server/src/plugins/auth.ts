import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { Role } from '@cinema/contract';
import { batchPerTurn } from '../batch.ts';
import { setNewest } from '../bounded-map.ts';
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
    /** The signed-in user, once `requireUser` or `requireAdmin` has checked the session; null before and for visitors. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** onRequest/preHandler: checks the bearer token's session (into `request.user`); 401 unless it lives. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** onRequest/preHandler: as requireUser, then 403 for customers and staff. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /** onRequest/preHandler: as requireUser, then 403 for customers: admins and staff (the door, the counter). */
    requireStaff: (request: FastifyRequest) => Promise<void>;
    /**
     * For a route anyone may call whose answer differs only for some users: the caller's user, checked against the
     * database, if `wanted(user.id)`; null for visitors, dead sessions and users not wanted. A token this process
     * has seen before is known to belong to its user, so when that user is not wanted the session is not checked
     * at all: whether it still lives could not change the answer. Answered at once (no promise) when no session
     * has to be checked: a visitor, or a known token whose user is not wanted.
     */
    userIf: (
      request: FastifyRequest,
      wanted: (userId: string) => boolean,
    ) => AuthUser | null | Promise<AuthUser | null>;
  }
}

export const SESSION_DAYS = 30;

/** The signed-in staff member behind a guarded request, as the audit log names them. */
export function actorOf(request: FastifyRequest): { id: string; email: string } {
  if (!request.user) throw unauthorized();
  return { id: request.user.id, email: request.user.email };
}

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

/**
 * Tokens whose user a process remembers, the most recently checked kept. A token's user never changes (only
 * whether its session lives does), so this is never wrong; it only lets `userIf` skip checking sessions that could
 * not matter. About 200 bytes each.
 */
const KNOWN_TOKENS = 10_000;

export interface Sessions {
  /** The user of the token's live session, from the database. */
  user(token: string): Promise<AuthUser | null>;
  /** Null at once (no promise) for a known token whose user is not wanted. */
  userIf(token: string, wanted: (userId: string) => boolean): AuthUser | null | Promise<AuthUser | null>;
}

/**
 * Session checks of one process against one database. `lookup` answers for token hashes from the database (the
 * session_users function); every check asks it, except `userIf`'s for a known token whose user is not wanted.
 */
export function sessionChecks(lookup: (tokenHash: string) => Promise<AuthUser | undefined>): Sessions {
  const known = new Map<string, string>();
  const check = async (tokenHash: string): Promise<AuthUser | null> => {
    const user = await lookup(tokenHash);
    if (!user) return null;
    setNewest(known, tokenHash, user.id, KNOWN_TOKENS); // the Map's order is the order of the checks
    return user;
  };
  return {
    user: (token) => check(hashToken(token)),
    userIf(token, wanted) {
      const tokenHash = hashToken(token);
      const userId = known.get(tokenHash);
      if (userId !== undefined && !wanted(userId)) return null;
      return check(tokenHash).then((user) => (user && wanted(user.id) ? user : null));
    },
  };
}

// The session lookups of requests that arrive together (within one turn of the event loop) share one prepared
// query, so a busy server makes one database round trip for many of them instead of one each; every request is
// still checked against the database as it is now. The query is the session_users function (migration 0006), whose
// plan stays the token's index however the tables grew.
function databaseSessions(db: Db): Sessions {
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
  return sessionChecks(
    batchPerTurn(async (tokenHashes: string[]) => {
      const rows: SessionRow[] = await query.execute({ tokenHashes });
      return new Map(rows.map(({ tokenHash, ...user }) => [tokenHash, user]));
    }),
  );
}

const sessionsOf = new WeakMap<Db, Sessions>();

/** The session checks of a database handle (one per handle: its lookups share a prepared query). */
export function sessionsFor(db: Db): Sessions {
  let found = sessionsOf.get(db);
  if (!found) sessionsOf.set(db, (found = databaseSessions(db)));
  return found;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,200})$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Sessions are checked by the routes that need the user (`requireUser`, `requireAdmin`, `userIf`), not on every
 * request: the catalogue, showtimes and health checks a signed-in browser also sends its token to cost no database
 * round trip.
 */
export const authPlugin = fp(
  async function authPlugin(app: FastifyInstance) {
    app.decorateRequest('user', null);
    const signedIn = async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (token && !request.user) request.user = await sessionsFor(app.database.db).user(token);
      if (!request.user) throw unauthorized();
      return request.user;
    };
    app.decorate('requireUser', async (request: FastifyRequest) => {
      await signedIn(request);
    });
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      if ((await signedIn(request)).role !== 'ADMIN') throw forbidden('Admins only');
    });
    app.decorate('requireStaff', async (request: FastifyRequest) => {
      const { role } = await signedIn(request);
      if (role !== 'ADMIN' && role !== 'STAFF') throw forbidden('Staff only');
    });
    app.decorate('userIf', (request: FastifyRequest, wanted: (userId: string) => boolean) => {
      const token = bearerToken(request);
      return token ? sessionsFor(app.database.db).userIf(token, wanted) : null;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
