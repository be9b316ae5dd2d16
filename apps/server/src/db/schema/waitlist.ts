import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  boolean,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { showtimes } from './catalogue.ts';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'taken', 'passed', 'left', 'ended'] as const;
export const WAITLIST_OFFER_STATUSES = ['open', 'taken', 'passed', 'declined'] as const;

/**
 * A customer in line for a showtime (DESIGN §7.6): `count` seats, together or not, of a type. In line while
 * `waiting` (by `joined_at`, then id); `offered` while an offer is open; then taken, passed, left or ended. One entry
 * in line per customer per showtime (the partial unique index).
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    showtimeId: uuid('showtime_id')
      .notNull()
      .references(() => showtimes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seatCount: integer('seat_count').notNull(),
    together: boolean('together').notNull().default(true),
    seatType: text('seat_type'),
    status: text('status', { enum: WAITLIST_STATUSES }).notNull().default('waiting'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('waitlist_entries_count_check', sql`${t.seatCount} between 1 and 10`),
    check(
      'waitlist_entries_status_check',
      sql`${t.status} in ('waiting', 'offered', 'taken', 'passed', 'left', 'ended')`,
    ),
    uniqueIndex('waitlist_entries_in_line_unique')
      .on(t.showtimeId, t.userId)
      .where(sql`${t.status} in ('waiting', 'offered')`),
    index('waitlist_entries_line_idx')
      .on(t.showtimeId, t.joinedAt, t.id)
      .where(sql`${t.status} in ('waiting', 'offered')`),
    index('waitlist_entries_user_idx').on(t.userId, t.joinedAt),
  ],
);

/**
 * Seats held for a waiting customer (their bookings, HELD in the customer's name for WAITLIST_OFFER_MINUTES). At
 * most one open offer per entry (the partial unique index); the seats' own live-booking index gives a seat to one
 * offer at most.
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: 'cascade' }),
    showtimeId: uuid('showtime_id')
      .notNull()
      .references(() => showtimes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookingIds: uuid('booking_ids').array().notNull(),
    seatIds: uuid('seat_ids').array().notNull(),
    status: text('status', { enum: WAITLIST_OFFER_STATUSES }).notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('waitlist_offers_status_check', sql`${t.status} in ('open', 'taken', 'passed', 'declined')`),
    uniqueIndex('waitlist_offers_open_entry_unique')
      .on(t.entryId)
      .where(sql`${t.status} = 'open'`),
    index('waitlist_offers_showtime_idx').on(t.showtimeId, t.createdAt),
    index('waitlist_offers_open_idx')
      .on(t.showtimeId)
      .where(sql`${t.status} = 'open'`),
  ],
);
