import type { FastifyInstance, FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { pgErrorCode } from '../db/database.ts';

// Text the database cannot store (a NUL character, bytes that are not UTF-8) came from the client: a 400.
const PG_UNSTORABLE_TEXT = new Set(['22021', '22P05']);

const statusCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'bad_request',
  406: 'bad_request',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/** One error handler: every failure leaves as `{ error, code }` with its status; a 500 never shows internals. */
export const errorsPlugin = fp(
  async function errorsPlugin(app: FastifyInstance) {
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      if (err instanceof AppError) {
        return reply.status(err.statusCode).send({ error: err.message, code: err.code, ...err.extra });
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        const first = err.validation[0];
        const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
        const message = first?.message ?? 'Invalid input';
        return reply.status(400).send({
          error: where ? `${where}: ${message}` : message,
          code: 'bad_request',
          context: err.validationContext,
        });
      }
      if (PG_UNSTORABLE_TEXT.has(pgErrorCode(err) ?? '')) {
        return reply
          .status(400)
          .send({ error: 'Text contains characters that cannot be stored', code: 'bad_request' });
      }
      const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
      if (status >= 400 && status < 500) {
        const message =
          status === 429 ? 'Too many requests, please try again later' : err.message || 'Bad request';
        return reply.status(status).send({ error: message, code: statusCodes[status] ?? 'bad_request' });
      }
      request.log.error({ err }, 'request failed');
      return reply.status(500).send({ error: 'Something went wrong on our side', code: 'internal_error' });
    });

    app.setNotFoundHandler((request, reply) => {
      reply
        .status(404)
        .send({ error: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' });
    });
  },
  { name: 'errors' },
);
