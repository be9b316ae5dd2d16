import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * `none`: an order that costs nothing (a 100% promo code) is complete without a payment provider. `box_office`: sold
 * at the counter by staff, paid in cash or on the card terminal (DESIGN §6.4).
 */
export const PAYMENT_PROVIDERS = ['local', 'stripe', 'none', 'box_office'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** Provider webhook events already handled, by the provider's event id: a replay changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
