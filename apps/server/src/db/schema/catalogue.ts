import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

/**
 * Poster images live in the database so every server process can serve them. The row holds the poster at its
 * default width (WebP, re-encoded from the upload); narrower copies for `srcset` are its variants. `width` is null
 * for a poster stored before posters were re-encoded (converted at the next start).
 */
export const posters = pgTable('posters', {
  id: uuid('id').primaryKey().defaultRandom(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  etag: text('etag').notNull(),
  width: integer('width'),
  height: integer('height'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A poster re-encoded at a narrower width, for browsers that show it small (`srcset`). */
export const posterVariants = pgTable(
  'poster_variants',
  {
    posterId: uuid('poster_id')
      .notNull()
      .references(() => posters.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    etag: text('etag').notNull(),
  },
  (t) => [primaryKey({ columns: [t.posterId, t.width] })],
);

export const movies = pgTable('movies', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  description: text('description'),
  durationMinutes: integer('duration_minutes'),
  /** A certificate of the cinema's RATING_SYSTEM (older rows may hold other text: shown, with no age rule). */
  rating: text('rating'),
  /** Genre codes (DESIGN §7.5), in the order given. */
  genres: text('genres')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  castMembers: text('cast_members')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  director: text('director'),
  releaseDate: date('release_date', { mode: 'string' }),
  trailerUrl: text('trailer_url'),
  posterId: uuid('poster_id').references(() => posters.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A hall (an auditorium: the API keeps that word, as `auditoriumId` and `auditorium`). */
export const halls = pgTable('halls', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique('halls_name_unique'),
  /** The layout's grid: its number of rows, and its width in columns (seats and gaps). */
  rows: integer('rows').notNull(),
  cols: integer('cols').notNull(),
  /** Each row's label, front (by the screen) to back: "A", "B", … or the cinema's own. */
  rowLabels: text('row_labels').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const SEAT_TYPES = ['STANDARD', 'PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION'] as const;

/**
 * A seat of a hall's layout (DESIGN §6.2): `row` is the layout row (1 = the front), `number` counts the seats of
 * the row from the left, `col` is its grid column counting gaps (0-based). A seat taken out of the layout that has
 * bookings in its history is kept, `retired`, so nothing a customer paid for loses its seat.
 */
export const seats = pgTable(
  'seats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hallId: uuid('hall_id')
      .notNull()
      .references(() => halls.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    number: integer('number').notNull(),
    col: integer('col').notNull(),
    rowLabel: text('row_label').notNull(),
    type: text('type', { enum: SEAT_TYPES }).notNull().default('STANDARD'),
    /** House seats and broken ones: never sold online (staff may sell them at the counter). */
    blocked: boolean('blocked').notNull().default(false),
    /** The two seats of a sofa share it (unique in the hall). */
    pairId: text('pair_id'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    unique('seats_position_unique').on(t.hallId, t.row, t.number),
    index('seats_pair_idx')
      .on(t.hallId, t.pairId)
      .where(sql`${t.pairId} is not null`),
    check('seats_type_check', sql`${t.type} in ('STANDARD', 'PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION')`),
    check('seats_sofa_pair_check', sql`(${t.type} = 'SOFA') = (${t.pairId} is not null)`),
  ],
);

/**
 * ends_at = starts_at + duration (120 min when unknown) + 15 min cleaning. A gist exclusion constraint over
 * (hall_id, [starts_at, ends_at)) keeps showtimes of one hall from overlapping (see the custom migration).
 */
export const showtimes = pgTable(
  'showtimes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    movieId: uuid('movie_id')
      .notNull()
      .references(() => movies.id, { onDelete: 'restrict' }),
    hallId: uuid('hall_id')
      .notNull()
      .references(() => halls.id, { onDelete: 'restrict' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Without a price card, every seat sells at this price; with one, it is the lowest price of the default type. */
    priceCents: integer('price_cents').notNull(),
    /** The price card chosen for this showtime; null: the card valid at its start, or priceCents for every seat. */
    priceCardId: uuid('price_card_id'),
    /** Format, language, accessibility and audience (DESIGN §7.5): `IMAX`, `CAPTIONED`, `SUBTITLES_EN`, … */
    attributes: text('attributes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * When staff released its wheelchair spaces and companion seats to everyone before ACCESSIBLE_RELEASE_MINUTES
     * (DESIGN §7.5; null: not released early). hold_seats reads it.
     */
    accessibleReleasedAt: timestamp('accessible_released_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('showtimes_movie_idx').on(t.movieId, t.startsAt),
    // The sales report finds a span's showtimes by their start.
    index('showtimes_starts_idx').on(t.startsAt),
    check('showtimes_price_check', sql`${t.priceCents} between 1 and 100000`),
    check('showtimes_range_check', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);
