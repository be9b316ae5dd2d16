import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, lt, sql } from 'drizzle-orm';
import { idempotencyKeys } from '../db/schema/index.ts';
import { AppError, badRequest, conflict } from '../errors.ts';
import { runPeriodically } from '../periodic.ts';

/** How long an answer is kept for retries (Stripe keeps keys for 24 hours). */
export const IDEMPOTENCY_TTL_HOURS = 24;
const KEY = /^[\x21-\x7e]{1,255}$/;

interface Claim {
  userId: string;
  route: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler (after `requireUser`) of a request that accepts an `Idempotency-Key` header: the first answer to a
     * key is kept for a day and replayed (with `Idempotent-Replayed: true`) to a retry with the same body; another
     * body under the same key is a 422, and a retry while the first is still running a 409.
     */
    idempotent: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  }
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
}

const hashOf = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.url.split('?')[0]}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');

export const idempotencyPlugin = fp(
  async function idempotencyPlugin(app: FastifyInstance) {
    const db = () => app.database.db;

    app.decorate('idempotent', async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers['idempotency-key'];
      if (header === undefined) return;
      const key = Array.isArray(header) ? header[0] : header;
      if (!key || !KEY.test(key))
        throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters');
      const userId = request.user!.id;
      const route = `${request.method} ${request.routeOptions.url}`;
      const requestHash = hashOf(request);
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimed = await db()
          .insert(idempotencyKeys)
          .values({
            userId,
            route,
            key,
            requestHash,
            expiresAt: sql`now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
          })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (claimed.length > 0) {
          request.idempotencyClaim = { userId, route, key };
          return;
        }
        const where = and(
          eq(idempotencyKeys.userId, userId),
          eq(idempotencyKeys.route, route),
          eq(idempotencyKeys.key, key),
        );
        const [earlier] = await db()
          .select({
            requestHash: idempotencyKeys.requestHash,
            statusCode: idempotencyKeys.statusCode,
            responseBody: idempotencyKeys.responseBody,
            expired: sql<boolean>`${idempotencyKeys.expiresAt} <= now()`,
          })
          .from(idempotencyKeys)
          .where(where);
        if (!earlier) continue; // removed meanwhile: claim it again
        if (earlier.expired) {
          await db()
            .delete(idempotencyKeys)
            .where(and(where, lt(idempotencyKeys.expiresAt, sql`now()`)));
          continue;
        }
        if (earlier.requestHash !== requestHash) {
          throw new AppError(
            422,
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request: use a new key for a new request',
          );
        }
        if (earlier.statusCode === null || earlier.responseBody === null) {
          throw conflict(
            'A request with this Idempotency-Key is still being handled (or its answer was lost): look at your holds before trying again',
            'idempotency_key_in_progress',
          );
        }
        return reply
          .status(earlier.statusCode)
          .header('idempotent-replayed', 'true')
          .type('application/json; charset=utf-8')
          .send(earlier.responseBody);
      }
      throw conflict('The Idempotency-Key is being used concurrently', 'idempotency_key_in_progress');
    });

    // The answer is recorded before it goes out, so that a retry finds it. A server-side failure is not kept: the
    // retry runs again (the database was away, so nothing was done).
    const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: Claim) => {
      const where = and(
        eq(idempotencyKeys.userId, claim.userId),
        eq(idempotencyKeys.route, claim.route),
        eq(idempotencyKeys.key, claim.key),
      );
      try {
        if (reply.statusCode >= 500 || typeof payload !== 'string') {
          await db().delete(idempotencyKeys).where(where);
        } else {
          await db()
            .update(idempotencyKeys)
            .set({ statusCode: reply.statusCode, responseBody: payload })
            .where(where);
        }
      } catch (err) {
        request.log.warn({ err }, 'could not record the answer to an Idempotency-Key');
      }
    };
    // A request without a key (nearly all of them) goes on at once, without a promise of its own.
    app.addHook('onSend', (request, reply, payload, done) => {
      const claim = request.idempotencyClaim;
      if (!claim) return done(null, payload);
      request.idempotencyClaim = undefined;
      void record(request, reply, payload, claim).then(() => done(null, payload));
    });

    runPeriodically(app, 3600_000, 'removing expired idempotency keys', () =>
      db()
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.expiresAt, sql`now()`)),
    );
  },
  { name: 'idempotency', dependencies: ['db'] },
);
