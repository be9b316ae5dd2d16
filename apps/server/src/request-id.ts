import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The id of the request being answered, for log lines written through the app's logger (services' `deps.log`). */
const current = new AsyncLocalStorage<string>();

/** An incoming X-Request-Id is kept when it is a sane token; anything else (long, spaces, markup) is replaced. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the caller's X-Request-Id when sane (a proxy's or a client's), else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

/**
 * pino's `mixin`: a line written while a request is answered carries its `reqId`, also when written through the
 * app's logger rather than `request.log` (which already binds it, so it is not added twice).
 */
export function requestIdMixin(
  _merge: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): object {
  const reqId = current.getStore();
  if (reqId === undefined || logger.bindings().reqId !== undefined) return {};
  return { reqId };
}

/** Echoes the request id in `X-Request-Id` and keeps it for the request's asynchronous work. */
export const requestIdPlugin = fp(
  async function requestIdPlugin(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      current.run(request.id, done);
    });
    // Reading the body runs on the socket's events, outside the request's context: entered again after it.
    app.addHook('preValidation', (request, _reply, done) => current.run(request.id, done));
  },
  { name: 'request-id' },
);
