import { describe, expect, it } from 'vitest';
import { isUnavailable } from './unavailable.ts';

const pgError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });
/** As drizzle wraps a driver's error. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('telling a dependency away from a fault', () => {
  it('calls a database away, restarting, out of disk or too slow unavailable, through drizzle’s wrapper', () => {
    for (const code of ['57P01', '57P03', '08006', '53100', '57014', '55P03'])
      expect(isUnavailable(wrapped(pgError(code)))).toBe(true);
    expect(isUnavailable(wrapped(pgError('ECONNREFUSED')))).toBe(true);
    expect(isUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('leaves bad requests and our own bugs alone (they stay 4xx and 500)', () => {
    for (const code of ['23505', '23P01', '22P02', '42703', '40001'])
      expect(isUnavailable(wrapped(pgError(code)))).toBe(false);
    expect(isUnavailable(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isUnavailable(undefined)).toBe(false);
  });
});
