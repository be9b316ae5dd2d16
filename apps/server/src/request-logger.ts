import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Whether the logger writes lines of this level (pino's isLevelEnabled; another logger: yes). */
const enabled = (logger: FastifyBaseLogger, level: string) =>
  (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? true;

/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`, with its `reqId`) is made the first time a
 * line of an enabled level is written through it. pino makes a child by running the redaction (its wildcard paths)
 * over the bindings, about 10–20 µs a request on the 2-core machine; at LOG_LEVEL=warn almost no request writes a
 * line, so almost none pays it. What is written, and with which bindings, is exactly what the child writes.
 * A route with logger options of its own (a `logLevel`) gets its child at once.
 */
export function lazyChildLogger(
  this: unknown,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  opts: ChildLoggerOptions,
): FastifyBaseLogger {
  if (Object.keys(opts).length > 0) return logger.child(bindings, opts);
  let child: FastifyBaseLogger | undefined;
  const real = () => (child ??= logger.child(bindings, opts));
  const lazy = {
    child: (more: Bindings, moreOpts?: ChildLoggerOptions) => real().child(more, moreOpts),
    silent: () => {},
    get level() {
      return child?.level ?? logger.level;
    },
    set level(level: string) {
      real().level = level;
    },
  } as unknown as FastifyBaseLogger;
  for (const level of LEVELS) {
    (lazy as unknown as Record<string, unknown>)[level] = (...args: unknown[]) => {
      if (!child && !enabled(logger, level)) return;
      (real()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  return lazy;
}
