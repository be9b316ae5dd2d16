import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { badRequest } from '../errors.ts';

/**
 * What never reaches a log line: credentials in headers, passwords and tokens in any logged object, the
 * payment provider's keys and webhook signatures.
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  // Plugins log request headers of their own (multipart logs busboy's options at trace level).
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["stripe-signature"]',
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'secretKey',
  'webhookSecret',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.token',
  '*.tokenHash',
  '*.secretKey',
  '*.webhookSecret',
  '*.*.secretKey',
  '*.*.webhookSecret',
];

// Secrets a URL can carry (issue 31), which no log line may hold. A checkout session id opens its hosted payment
// page (like a provider's checkout URL): logs keep a prefix only (UUID v7: its first 8 digits are a clock). A link's
// token (password reset, email verification, guest order, and any later link: every one is a query parameter named
// `token` or `…token`) is cut whole, percent-encoded too. A long opaque path segment (40 or more URL-safe characters:
// longer than a UUID) is cut whole as well, so a token a future route puts in its path is masked before anyone
// remembers to list it.
const SESSION_IN_PATH = /(\/pay\/local\/)([^/?#"\s\\]{8})[^/?#"\s\\]*/g;
const SESSION_IN_QUERY = /([?&]session_id=)([^&#"\s\\]{0,8})[^&#"\s\\]*/gi;
const TOKEN_IN_QUERY = /((?:[?&;]|%3F|%26)[\w.-]*token(?:=|%3D))[^&#"\s\\]*/gi;
const OPAQUE_SEGMENT = /(\/)[A-Za-z0-9_-]{40,}(?=[/?#"\s\\]|$)/g;

/** A text (a URL, a whole log line) with every secret a URL can carry masked. */
export function maskUrlSecrets(text: string): string {
  return text
    .replace(SESSION_IN_PATH, '$1$2…')
    .replace(SESSION_IN_QUERY, '$1$2…')
    .replace(TOKEN_IN_QUERY, '$1[redacted]')
    .replace(OPAQUE_SEGMENT, '$1[redacted]');
}

/** The request URL as logged: checkout session ids cut to a prefix, link tokens cut whole. */
export const loggableUrl = maskUrlSecrets;

/**
 * pino's last step before a line is written: whatever logged it (fastify's request lines, a plugin, a service's
 * error with a URL in its message), the line leaves with its URL secrets masked.
 */
export const LOG_HOOKS = { streamWrite: maskUrlSecrets };

/**
 * Pino serializers: requests log method, shortened URL and addresses (never headers or bodies); a failed
 * database query logs its SQL but not its parameters, which may be password or token hashes.
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: loggableUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  err(err: Error) {
    const { params: _params, ...fields } = err as Error & Record<string, unknown>;
    const scrub = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');
    const cause =
      err.cause instanceof Error
        ? { type: err.cause.name, message: err.cause.message, code: (err.cause as { code?: unknown }).code }
        : undefined;
    return { ...fields, type: err.name, message: scrub(err.message), stack: scrub(err.stack ?? ''), cause };
  },
};

/**
 * The app's Content-Security-Policy. Everything comes from our own origin: the SPA's bundles and styles,
 * posters, QR codes drawn as data: URLs, Socket.IO over ws/wss. `wasm` adds 'wasm-unsafe-eval' for the door
 * scanner and the kitchen's hand-over, whose QR decoder is WebAssembly: only /admin/scan and /admin/kitchen get it
 * (see plugins/web.ts).
 */
export function contentSecurityPolicy(opts: { wasm?: boolean } = {}): string {
  return Object.entries(cspDirectives(opts))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

function cspDirectives({ wasm = false }: { wasm?: boolean }): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': wasm ? ["'self'", "'wasm-unsafe-eval'"] : ["'self'"],
    'script-src-attr': ["'none'"],
    // The SPA's CSS is one built file; React's style props go through the CSSOM, which CSP does not block.
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'ws:', 'wss:'],
    'media-src': ["'self'", 'blob:'],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Swagger UI's own policy (from @fastify/swagger-ui's `staticCSP`: its scripts from our origin only), adjusted:
 * its bundle injects <style> elements at run time, so styles (not scripts) may be inline on the docs page; no
 * framing; no upgrade-insecure-requests, which would break it on plain-http localhost.
 */
export function swaggerCsp(header: string): string {
  const replaced: Record<string, string> = {
    'frame-ancestors': "frame-ancestors 'none'",
    'style-src': "style-src 'self' 'unsafe-inline'",
  };
  return header
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !d.startsWith('upgrade-insecure-requests'))
    .map((d) => replaced[d.split(/\s+/)[0]!] ?? d)
    .join('; ');
}

/**
 * Security headers on every response (helmet): the CSP above, nosniff, no framing, no referrer leaks to other
 * origins. CORS is closed unless CORS_ORIGINS opens it (plugins/cors.ts).
 */
export const securityPlugin = fp(
  async function securityPlugin(app: FastifyInstance) {
    // Built once: @fastify/helmet built helmet's middleware again for every request (parsing the CSP each time).
    const secureHeaders = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives({}) },
      // Posters and the SPA's assets are all same-origin; nothing is embedded from elsewhere.
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
      // The same answer as frame-ancestors 'none', for browsers that only know the older header.
      frameguard: { action: 'deny' },
    });
    // What helmet sets does not depend on the request (no nonces): it is read once off a probe response and set from
    // that list, which costs about half of running helmet's twelve middlewares on every response.
    const headers = secureHeadersOnce(secureHeaders);
    // Set on the raw response: a header a route sets itself (reply.header, e.g. the scanner's CSP) takes precedence.
    app.addHook('onRequest', (request, reply, done) => {
      // API answers carry tokens, tickets and personal details: no browser or proxy keeps them, unless a route says
      // otherwise (posters are cached by their own headers).
      if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs')) {
        reply.raw.setHeader('cache-control', 'no-store');
      }
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      done();
    });
    // No text the app keeps may hold a NUL: PostgreSQL cannot store one, so say so before any query runs.
    app.addHook('preValidation', (request, _reply, done) => {
      if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) {
        return done(badRequest('Text may not contain NUL characters'));
      }
      done();
    });
  },
  { name: 'security' },
);

/** The headers a helmet middleware sets on a response, by their names as it spells them. */
function secureHeadersOnce(secureHeaders: ReturnType<typeof helmet>): [string, string | number | string[]][] {
  const request = new IncomingMessage(new Socket());
  const probe = new ServerResponse(request);
  let failed: unknown;
  secureHeaders(request, probe, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  // Node has had getRawHeaderNames since 15.13; @types/node does not list it yet.
  const names = (probe as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames();
  return names.map((name) => [name, probe.getHeader(name)!]);
}

/** True when a parsed JSON value (of any depth) holds a string or key with a NUL character. */
export function hasNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next && typeof next === 'object' && !Buffer.isBuffer(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
