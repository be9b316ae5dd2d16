import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { productCategories, products } from './concessions.ts';

// Taxes and booking fees (DESIGN §7.4, decision 047), set at /admin/taxes. Migration 0037. An order line keeps a copy
// of the rate and the tax it was charged (order_lines.tax_rate_bp, tax_cents), so nothing here rewrites a past order.

/**
 * One tax rate in basis points (7% = 700): for tickets, fees, or food and drink (all products, one category or one
 * product; the most precise applies). No rate for a kind: 0%.
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    kind: text('kind', { enum: ['TICKET', 'PRODUCT', 'FEE'] }).notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'cascade' }),
    categoryId: uuid('category_id').references(() => productCategories.id, { onDelete: 'cascade' }),
    rateBp: integer('rate_bp').notNull(),
  },
  (t) => [
    uniqueIndex('tax_rates_scope_unique').on(
      t.kind,
      sql`coalesce(${t.productId}, ${t.categoryId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    check('tax_rates_kind_check', sql`${t.kind} in ('TICKET', 'PRODUCT', 'FEE')`),
    check('tax_rates_rate_check', sql`${t.rateBp} between 0 and 10000`),
    check(
      'tax_rates_scope_check',
      sql`(${t.productId} is null or ${t.categoryId} is null)
        and (${t.kind} = 'PRODUCT' or (${t.productId} is null and ${t.categoryId} is null))`,
    ),
  ],
);

/** The tax mode chosen at /admin/taxes (one row at most); without it, `TAX_MODE` is in force. */
export const taxSettings = pgTable(
  'tax_settings',
  {
    id: boolean('id').primaryKey().default(true),
    mode: text('mode', { enum: ['inclusive', 'exclusive'] }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('tax_settings_one_row', sql`${t.id}`),
    check('tax_settings_mode_check', sql`${t.mode} in ('inclusive', 'exclusive')`),
  ],
);

/** The booking fee online and at the counter: per ticket, per order, ticket types exempt, refundable or not. */
export const bookingFees = pgTable(
  'booking_fees',
  {
    channel: text('channel', { enum: ['ONLINE', 'COUNTER'] }).primaryKey(),
    perTicketCents: integer('per_ticket_cents').notNull().default(0),
    perOrderCents: integer('per_order_cents').notNull().default(0),
    exemptTicketTypeIds: uuid('exempt_ticket_type_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    refundable: boolean('refundable').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('booking_fees_channel_check', sql`${t.channel} in ('ONLINE', 'COUNTER')`),
    check('booking_fees_amounts_check', sql`${t.perTicketCents} >= 0 and ${t.perOrderCents} >= 0`),
  ],
);
