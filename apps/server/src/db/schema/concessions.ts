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

// Concessions (DESIGN §7.2, decision 044): the menu of food and drink sold as PRODUCT order lines, and the stock an
// open order holds. Migration 0032.

/** Popcorn, Drinks, Snacks, Combos, Bar: how the menu is grouped, in `position` order. */
export const productCategories = pgTable(
  'product_categories',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_categories_name_unique').on(sql`lower(${t.name})`)],
);

/**
 * One thing on the menu. `stock` null: not counted (sold without limit); otherwise what is left to sell, never below
 * zero (the check backs the conditional UPDATE that reserves it). A combo (`is_combo`) is a price for a set of
 * components; it has no stock of its own: selling one takes each component's.
 */
export const products = pgTable(
  'products',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => productCategories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    description: text('description'),
    priceCents: integer('price_cents').notNull(),
    active: boolean('active').notNull().default(true),
    /** Alcohol and the like: staff check ID when handing it over. */
    ageRestricted: boolean('age_restricted').notNull().default(false),
    imageUrl: text('image_url'),
    stock: integer('stock'),
    isCombo: boolean('is_combo').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('products_category_idx').on(t.categoryId),
    check('products_price_check', sql`${t.priceCents} >= 0`),
    check('products_stock_check', sql`${t.stock} is null or ${t.stock} >= 0`),
    check('products_combo_stock_check', sql`not ${t.isCombo} or ${t.stock} is null`),
  ],
);

/** Size, Flavour: a choice the customer makes for a product; `required` groups need exactly one choice. */
export const productOptionGroups = pgTable(
  'product_option_groups',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    required: boolean('required').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('product_option_groups_product_idx').on(t.productId)],
);

/** Small / Medium +1.00 / Large +2.00: one choice of a group and what it adds to the product's price. */
export const productOptionChoices = pgTable(
  'product_option_choices',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    groupId: uuid('group_id')
      .notNull()
      .references(() => productOptionGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceDeltaCents: integer('price_delta_cents').notNull().default(0),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('product_option_choices_group_idx').on(t.groupId)],
);

/** What a combo is made of: each component and how many of it. */
export const comboComponents = pgTable(
  'combo_components',
  {
    comboId: uuid('combo_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.comboId, t.productId] }),
    index('combo_components_product_idx').on(t.productId),
    check('combo_components_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/** How an order's food and drink reaches the customer: collected at the counter, or brought to their seat. */
export const FULFILMENT_KINDS = ['PICKUP', 'SEAT'] as const;
/** Where the kitchen has an order's food and drink: being prepared, ready, then collected or delivered. */
export const CONCESSION_STATUSES = ['PREPARING', 'READY', 'COLLECTED', 'DELIVERED'] as const;
export type ConcessionStatus = (typeof CONCESSION_STATUSES)[number];
