import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { movies } from './catalogue.ts';

// Film hire (DESIGN §7.4, decision 048): distributors, and the terms each movie is hired on.

/** A distributor films are hired from; names are unique whatever their case. */
export const distributors = pgTable(
  'distributors',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('distributors_name_unique').on(sql`lower(${t.name})`)],
);

/** One step of a sliding scale: from week `fromWeek` of the run on, `percentBp` basis points of the net. */
export interface FilmHireStepRow {
  fromWeek: number;
  percentBp: number;
}

/**
 * A movie's terms: its distributor, its share of the net box office in basis points (47.5% = 4750), a sliding scale
 * by week of run, and the least owed for a film week it plays (minor units). Read as they are now by every report.
 */
export const filmHireTerms = pgTable(
  'film_hire_terms',
  {
    movieId: uuid('movie_id')
      .primaryKey()
      .references(() => movies.id, { onDelete: 'cascade' }),
    distributorId: uuid('distributor_id')
      .notNull()
      .references(() => distributors.id, { onDelete: 'restrict' }),
    percentBp: integer('percent_bp').notNull(),
    guaranteeCents: integer('guarantee_cents'),
    scale: jsonb('scale').$type<FilmHireStepRow[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('film_hire_terms_distributor_idx').on(t.distributorId),
    check('film_hire_terms_percent_check', sql`${t.percentBp} between 0 and 10000`),
    check('film_hire_terms_guarantee_check', sql`${t.guaranteeCents} is null or ${t.guaranteeCents} >= 0`),
  ],
);
