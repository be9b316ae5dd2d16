/**
 * Telling a dependency being away (the database restarting, unreachable, out of disk, or too slow to answer) from a
 * fault in the request or in our code: the first is a 503 with Retry-After, said once per outage; the second a 500.
 */

/** SQLSTATEs of a database that is away, shutting down, out of room, or gave up waiting (timeouts). */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
  '53000', // insufficient_resources
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
  '55P03', // lock_not_available (lock_timeout)
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '58030', // io_error
]);

/** System errors of a connection that failed or of a disk that is full. */
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
  'EDQUOT',
  'EIO',
]);

/** node-postgres and pg-pool say these in words only. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Connection closed/i,
  /no space left on device/i,
  /could not extend file/i,
  /could not write to file/i,
];

/** True when the error (or one it wraps) says a dependency is away rather than the request or our code being wrong. */
export function isUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 6; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SYSTEM_CODES.has(code)))
      return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is told to wait before trying again while a dependency is away. */
export const RETRY_AFTER_SECONDS = 5;
