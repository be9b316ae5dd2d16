import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@cinema/contract';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { translateMessage } from '../i18n.ts';
import { issueOf, validationText } from '../validation.ts';
import { sql } from 'drizzle-orm';
import { pgErrorCode } from '../db/database.ts';
import { isUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.ts';
import { checkDisk } from '../modules/health/health.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's outages as requests met them (plugins/errors.ts). */
    outages: Outages;
  }
}

/** How often the database is tried while it is away, to say when it is back. */
const PROBE_EVERY_MS = 1000;

/**
 * Requests that met the database away: the first is logged with its error, the rest are counted, and a probe every
 * second says (once) when it is back and how many requests were answered 503 meanwhile.
 */
export class Outages {
  private since: number | null = null;
  private answered = 0;
  private probe: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: FastifyInstance['log'],
    private readonly check: () => Promise<unknown>,
  ) {}

  /** True while an outage is under way. */
  get active(): boolean {
    return this.since !== null;
  }

  /** A request met the dependency away (it answers 503). */
  noted(err: unknown): void {
    this.answered++;
    if (this.since !== null) return;
    this.since = Date.now();
    this.log.warn(
      { err },
      'the database is unavailable (away, too slow, or out of disk): requests answer 503 until it is back',
    );
    this.probe = setInterval(() => void this.tryAgain(), PROBE_EVERY_MS);
    this.probe.unref();
  }

  private probing = false;
  private async tryAgain() {
    if (this.probing || this.since === null) return;
    this.probing = true;
    try {
      await this.check();
      this.log.warn({ downMs: Date.now() - this.since, answered503: this.answered }, 'the database is back');
      this.stop();
    } catch {
      // still away
    } finally {
      this.probing = false;
    }
  }

  stop(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.since = null;
    this.answered = 0;
  }
}

/** The 503 body (and Retry-After header) of a request that met a dependency away. */
export const UNAVAILABLE_BODY = {
  error: 'The service is briefly unavailable, please try again in a few seconds',
  code: 'service_unavailable',
  retryAfterSeconds: RETRY_AFTER_SECONDS,
} as const;

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

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused before any route saw it (headers over its 16 KB,
 * a garbled request line, too slow to arrive) leaves in the API's one envelope `{ error, code }` too, in English: its
 * Accept-Language was never read.
 */
export function answerClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
  // A connection reset or already closed: nobody is left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [statusCode, code, error]: [number, ErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request_headers_too_large', 'The request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive']
        : [400, 'bad_request', 'Bad request'];
  this.log.trace({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ error, code });
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** One error handler: every failure leaves as `{ error, code }` with its status; a 500 never shows internals. */
export const errorsPlugin = fp(
  async function errorsPlugin(app: FastifyInstance) {
    // Back means answering again, and (on the embedded engine) room on its disk again: a full disk still reads.
    const embeddedDir = () =>
      app.database.engine === 'pglite' && app.config.dataDir !== 'memory://' ? app.config.dataDir : null;
    const outages = new Outages(app.log, async () => {
      await app.database.db.execute(sql`select 1`);
      const dir = embeddedDir();
      if (dir && !(await checkDisk(dir)).ok) throw new Error('the disk is still full');
    });
    app.decorate('outages', outages);
    app.addHook('onClose', async () => outages.stop());
    // Every `error` text goes out in the client's language (Accept-Language); codes and shapes stay as they are.
    // The handler sends and returns nothing: a reply it returned is a thenable, which fastify waits on by listening
    // for the response's end (listeners on the response and a promise for every refusal; docs/benchmarks.md).
    const answerError = (err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
      const say = (message: string) => translateMessage(message, request.language);
      if (err instanceof AppError) {
        const error =
          err.localized && request.language !== 'en' ? err.localized(request.language) : say(err.message);
        return reply.status(err.statusCode).send({ error, code: err.code, ...err.extra });
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        const first = err.validation[0];
        const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
        const issue = first ? issueOf(first) : { code: 'custom', message: 'Invalid input' };
        return reply.status(400).send({
          error: validationText(where, issue, request.language),
          code: 'bad_request',
          context: err.validationContext,
        });
      }
      if (PG_UNSTORABLE_TEXT.has(pgErrorCode(err) ?? '')) {
        return reply
          .status(400)
          .send({ error: say('Text contains characters that cannot be stored'), code: 'bad_request' });
      }
      if (isUnavailable(err)) {
        outages.noted(err);
        return reply
          .status(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({ ...UNAVAILABLE_BODY, error: say(UNAVAILABLE_BODY.error) });
      }
      const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
      if (status >= 400 && status < 500) {
        const message =
          status === 429 ? 'Too many requests, please try again later' : err.message || 'Bad request';
        return reply.status(status).send({ error: say(message), code: statusCodes[status] ?? 'bad_request' });
      }
      request.log.error({ err }, 'request failed');
      return reply
        .status(500)
        .send({ error: say('Something went wrong on our side'), code: 'internal_error' });
    };
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      answerError(err, request, reply);
    });

    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send({
        error: translateMessage(
          `No route for ${request.method} ${request.url.split('?')[0]}`,
          request.language,
        ),
        code: 'not_found',
      });
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);
