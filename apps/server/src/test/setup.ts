import pg from 'pg';
import { afterEach, vi } from 'vitest';

// A stray console.error means something failed that no assertion looked at: fail the test.
const original = console.error;
afterEach(() => {
  vi.restoreAllMocks();
});
console.error = (...args: unknown[]) => {
  original(...args);
  throw new Error(`console.error was called: ${args.map(String).join(' ').slice(0, 500)}`);
};

// One query at a time on a node-postgres connection (a transaction is one): a query sent while its connection still
// runs another (Promise.all over a transaction's queries; runTogether is the way) is refused here as pg 9 will refuse
// it, a 500 to the user. pg 8 queues it and warns once per process, and only from the third query at once. Recorded
// too, in case the code around it swallows the error; queries at once on the pool are fine (one connection each).
// Patched once per worker: with `isolate: false` this file runs again for every test file.
type Connection = { _activeQuery?: unknown; _queryQueue?: unknown[]; pipeline?: boolean };
const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const SENT_AT_ONCE = Symbol.for('cinema.test.queriesAtOnce');
const store = globalThis as { [SENT_AT_ONCE]?: string[] };
if (!store[SENT_AT_ONCE]) {
  const atOnce: string[] = (store[SENT_AT_ONCE] = []);
  const query = client.query;
  client.query = function (this: Connection, ...args: unknown[]) {
    if (!this.pipeline && (this._activeQuery || (this._queryQueue?.length ?? 0) > 0)) {
      const sql = (args[0] as { text?: string } | string | undefined) ?? '';
      const err = new Error(
        `A query was sent on a database connection still running another one (pg 9 refuses it): ${
          typeof sql === 'string' ? sql : sql.text
        }`.slice(0, 400),
      );
      atOnce.push(err.message);
      throw err;
    }
    return query.apply(this, args);
  };
}
afterEach(() => {
  const found = store[SENT_AT_ONCE]!.splice(0);
  if (found.length > 0) throw new Error(`Queries at once on one database connection:\n${found.join('\n')}`);
});
