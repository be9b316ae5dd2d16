import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * `Idempotency-Key` requests (hold, checkout), as Stripe keeps them: the first answer to a key is kept for a day and
 * replayed to every retry with the same body; a retry with another body is refused. A row without a status is a
 * request still running (or one whose answer could not be recorded).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `POST /api/showtimes/:id/hold` or `POST /api/pay/checkout`. */
    route: text('route').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request's path and body. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    /** The answer's JSON as it was sent. */
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.route, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
