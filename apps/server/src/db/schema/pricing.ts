import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { movies, SEAT_TYPES, showtimes } from './catalogue.ts';

/** Adult, Child, Senior, Student, …: what a ticket is sold as. The first active one (by position) is the default. */
export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    position: integer('position').notNull().default(0),
    /** Certificates of RATING_SYSTEM this type is not sold for (no Child ticket for an R film: DESIGN §7.5). */
    excludedRatings: text('excluded_ratings')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ticket_types_name_unique').on(sql`lower(${t.name})`)],
);

/**
 * A price list valid on some weekdays (ISO: Monday 1 … Sunday 7) in a window of the day, in the cinema's time zone
 * (`starts_at` inclusive, `ends_at` exclusive, "HH:MM", ends_at "24:00" for the end of the day).
 */
export const priceCards = pgTable(
  'price_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    weekdays: integer('weekdays').array().notNull(),
    startsAt: text('starts_at').notNull(),
    endsAt: text('ends_at').notNull(),
    /** A card for showtimes with this attribute (`3D`, `IMAX`): only those, before any card without one. */
    attribute: text('attribute'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('price_cards_name_unique').on(sql`lower(${t.name})`),
    check('price_cards_window_check', sql`${t.startsAt} < ${t.endsAt}`),
  ],
);

/** A card's price for one ticket type on one seat type. */
export const priceCardPrices = pgTable(
  'price_card_prices',
  {
    priceCardId: uuid('price_card_id')
      .notNull()
      .references(() => priceCards.id, { onDelete: 'cascade' }),
    ticketTypeId: uuid('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id, { onDelete: 'restrict' }),
    seatType: text('seat_type', { enum: SEAT_TYPES }).notNull(),
    priceCents: integer('price_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.priceCardId, t.ticketTypeId, t.seatType] }),
    check('price_card_prices_price_check', sql`${t.priceCents} between 0 and 100000`),
  ],
);

/**
 * A discount code: percent or a fixed amount off, valid from/to, for one movie or one showtime or everything, at
 * most `max_uses` times in all and `max_uses_per_customer` per customer. `uses` counts the redemptions that are
 * reserved (a checkout is open) or used (paid), under the row's lock.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    maxUses: integer('max_uses'),
    maxUsesPerCustomer: integer('max_uses_per_customer'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    movieId: uuid('movie_id').references(() => movies.id, { onDelete: 'cascade' }),
    showtimeId: uuid('showtime_id').references(() => showtimes.id, { onDelete: 'cascade' }),
    uses: integer('uses').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_unique').on(sql`upper(${t.code})`),
    check(
      'promo_codes_discount_check',
      sql`(${t.percentOff} is null) <> (${t.amountOffCents} is null)
        and coalesce(${t.percentOff}, 1) between 1 and 100 and coalesce(${t.amountOffCents}, 1) > 0`,
    ),
    // maxUses is kept by the reserving UPDATE; a late payment of a released use still counts, past the cap.
    check('promo_codes_uses_check', sql`${t.uses} >= 0`),
  ],
);

export const REDEMPTION_STATUSES = ['reserved', 'used', 'released'] as const;

/** One use of a promo code by one checkout: reserved while it is open, used once paid, released if it is not. */
export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    promoCodeId: uuid('promo_code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    checkoutSessionId: uuid('checkout_session_id').notNull(),
    status: text('status', { enum: REDEMPTION_STATUSES }).notNull().default('reserved'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promo_redemptions_session_unique').on(t.checkoutSessionId),
    index('promo_redemptions_customer_idx').on(t.promoCodeId, t.userId),
    check('promo_redemptions_status_check', sql`${t.status} in ('reserved', 'used', 'released')`),
  ],
);
