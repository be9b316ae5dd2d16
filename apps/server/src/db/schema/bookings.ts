import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { seats, showtimes } from './catalogue.ts';

export const BOOKING_STATUSES = ['HELD', 'CONFIRMED', 'CANCELLED', 'EXPIRED', 'REFUNDED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * One row per seat per showtime per attempt. The partial unique index makes two live bookings (HELD or
 * CONFIRMED) for one seat of one showtime impossible, whatever the application does.
 */
export const bookings = pgTable(
  'bookings',
  {
    // Time-ordered (UUID version 7, migration 0024): a year of bookings takes new keys at the end of its index.
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    showtimeId: uuid('showtime_id')
      .notNull()
      .references(() => showtimes.id, { onDelete: 'restrict' }),
    seatId: uuid('seat_id')
      .notNull()
      .references(() => seats.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status', { enum: BOOKING_STATUSES }).notNull().default('HELD'),
    /** For HELD: the moment the hold stops counting. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    priceCents: integer('price_cents').notNull(),
    checkoutSessionId: uuid('checkout_session_id'),
    /** The client address the hold came from (after TRUST_PROXY), for the per-address hold limit; null when off. */
    clientAddress: text('client_address'),
    /** When checkout extended this hold to the payment window: a hold is extended once (DESIGN §6.1). */
    extendedAt: timestamp('extended_at', { withTimezone: true }),
    /** When the customer asked for "More time" on this hold: once in a hold's life (DESIGN §6.6). */
    moreTimeAt: timestamp('more_time_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    /** Who checked the ticket in at the door, and the label of the device they scanned with (DESIGN §6.5). */
    checkedInBy: uuid('checked_in_by').references(() => users.id, { onDelete: 'set null' }),
    checkedInDevice: text('checked_in_device'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bookings_live_seat_unique')
      .on(t.showtimeId, t.seatId)
      .where(sql`${t.status} in ('HELD', 'CONFIRMED')`),
    index('bookings_user_idx').on(t.userId, t.status),
    index('bookings_showtime_idx').on(t.showtimeId, t.status),
    index('bookings_held_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'HELD'`),
    index('bookings_checkout_idx').on(t.checkoutSessionId),
    // The per-address hold limit (hold_seats) counts an address's live holds by this key. An expression rather than
    // a partial index on status: a query naming the status could be planned into walking another partial index
    // over every live hold (bookings_live_seat_unique) once the table was analyzed while empty (decision 011).
    index('bookings_held_address_idx')
      .on(sql`(case when ${t.status} = 'HELD' then ${t.clientAddress} end)`, t.expiresAt)
      .where(sql`${t.clientAddress} is not null`),
    check(
      'bookings_status_check',
      sql`${t.status} in ('HELD', 'CONFIRMED', 'CANCELLED', 'EXPIRED', 'REFUNDED')`,
    ),
    check('bookings_held_expiry_check', sql`${t.status} <> 'HELD' or ${t.expiresAt} is not null`),
  ],
);
