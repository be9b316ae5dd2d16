import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { showtimes } from './catalogue.ts';

const pgSnapshot = customType<{ data: string }>({ dataType: () => 'pg_snapshot' });
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * The sales report's figures of a showtime, computed once and kept (DESIGN §6.4: a year of data answers in under
 * 300 ms; the coming days' report does not grow with the history, decision 028). `snapshot` is the database snapshot they were read in: a change to the showtime's sales that snapshot did
 * not see (a row of sales_report_changes) makes them stale, and the report computes them again.
 */
export const salesReportShowtimes = pgTable('sales_report_showtimes', {
  showtimeId: uuid('showtime_id')
    .primaryKey()
    .references(() => showtimes.id, { onDelete: 'cascade' }),
  snapshot: pgSnapshot('snapshot').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A showtime's paid lines summed by ticket type and by whether they were test-mode sales. */
export const salesReportLines = pgTable(
  'sales_report_lines',
  {
    showtimeId: uuid('showtime_id')
      .notNull()
      .references(() => salesReportShowtimes.showtimeId, { onDelete: 'cascade' }),
    ticketType: text('ticket_type'),
    testMode: boolean('test_mode').notNull(),
    admits: integer('admits').notNull(),
    checkedIn: integer('checked_in').notNull(),
    gross: bigint('gross', { mode: 'number' }).notNull(),
    discounts: bigint('discounts', { mode: 'number' }).notNull(),
    refunds: bigint('refunds', { mode: 'number' }).notNull(),
    due: bigint('due', { mode: 'number' }).notNull(),
    /** The tax of the tickets still standing; booking fees kept and their tax (a row of its own, no ticket type). */
    tax: bigint('tax', { mode: 'number' }).notNull().default(0),
    fees: bigint('fees', { mode: 'number' }).notNull().default(0),
    feeTax: bigint('fee_tax', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('sales_report_lines_showtime_idx').on(t.showtimeId)],
);

/**
 * Written by triggers (see the migrations) when the sales of a showtime change: a sold booking's status, check-in or
 * showtime, a line of a paid order, a refund, an order's payment. `xid` is the writing transaction's; one row per
 * showtime and transaction however many rows it changed.
 */
export const salesReportChanges = pgTable(
  'sales_report_changes',
  {
    showtimeId: uuid('showtime_id').notNull(),
    xid: xid8('xid').notNull(),
  },
  (t) => [uniqueIndex('sales_report_changes_showtime_xid_unique').on(t.showtimeId, t.xid)],
);
