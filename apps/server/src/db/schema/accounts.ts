import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Stored trimmed and lower-cased, so the unique constraint is case-insensitive. */
    email: text('email').notNull().unique('users_email_unique'),
    /** Null: nobody can sign in to the account (the box office's walk-in account, see box-office/walk-in.ts). */
    passwordHash: text('password_hash'),
    /** ADMIN runs the cinema; STAFF works the door and the counter (DESIGN §6.5); USER is a customer. */
    role: text('role', { enum: ['ADMIN', 'STAFF', 'USER'] })
      .notNull()
      .default('USER'),
    /** The language of the customer's emails (en, es, de): the web app's, as of register, sign-in and checkout. */
    language: text('language').notNull().default('en'),
    /** When the owner opened a verification link sent to the current email; null: not verified (since the change). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('users_role_check', sql`${t.role} in ('ADMIN', 'STAFF', 'USER')`)],
);

/** Revocable sessions: only a hash of the bearer token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed sign-ins, counted per email and address to lock out password guessing across processes. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_lookup_idx').on(t.email, t.ip, t.at)],
);
