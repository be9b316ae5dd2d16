import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/** A file sent with a message; `cid` makes it an inline image the HTML shows (`<img src="cid:…">`). */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  /**
   * The bytes, base64, while the message waits to be sent. Once sent (or kept for admins without SMTP) only the
   * name and type stay: a year of confirmations would otherwise keep every ticket's QR code twice (decision 027).
   */
  content?: string;
  cid?: string;
}

export const MAIL_STATUSES = ['pending', 'sent', 'failed', 'stored'] as const;

/**
 * Every email the cinema sends, written before it is sent (DESIGN §6.6). With SMTP_URL a message is `pending`
 * until the SMTP server took it (`sent`), retried with a growing pause, `failed` after the last try; without
 * SMTP_URL it is `stored`: the outbox is where it is read (admins, `/admin/outbox`).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** order_confirmation, refund_notice, password_reset, email_verification. */
    kind: text('kind').notNull(),
    /** One message per key (e.g. the confirmation of one order), however often it is asked for. */
    dedupeKey: text('dedupe_key').unique('mail_outbox_dedupe_key_unique'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    attachments: jsonb('attachments').$type<StoredAttachment[]>().notNull().default([]),
    status: text('status', { enum: MAIL_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sent', 'failed', 'stored')`),
    index('mail_outbox_created_idx').on(t.createdAt, t.id),
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Password reset links: only a hash of the token is stored; single use, valid one hour. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('password_resets_token_hash_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Email verification links: only a hash of the token is stored; single use, for the email they were sent to (a
 * change of email or password ends them, as it ends reset links).
 */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique('email_verifications_token_hash_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId, t.createdAt)],
);
