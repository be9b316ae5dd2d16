import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { giftCards, orderPayments, orders } from './orders.ts';

// Gift cards (DESIGN §7.3, decision 045; the cards themselves are in orders.ts, which their payments point at): a card is a balance in the cinema's currency, changed only by entries of its
// ledger, each written in the same statement's transaction as the balance it leaves. The database keeps the balance
// between zero and what the card was sold for, so no race can take more than a card holds.

/**
 * `SOLD`: issued with its value; `REDEEMED`: taken by an order (reserved while it is open, kept when it is paid);
 * `RELEASED`: an order that was never paid gave its reservation back; `REFUNDED`: a refund of an order it paid went
 * back to it; `VOIDED`: staff voided it, or the purchase that issued it was refunded (its balance goes to zero).
 */
export const GIFT_CARD_ENTRY_KINDS = ['SOLD', 'REDEEMED', 'RELEASED', 'REFUNDED', 'VOIDED'] as const;
export type GiftCardEntryKind = (typeof GIFT_CARD_ENTRY_KINDS)[number];

/**
 * The ledger of a card: every change of its balance, signed (a credit is positive), with the balance it left, the
 * order and payment it belongs to, and who made it (staff, the customer, or null for the system). Never updated.
 */
export const giftCardEntries = pgTable(
  'gift_card_transactions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    giftCardId: uuid('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: GIFT_CARD_ENTRY_KINDS }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => orderPayments.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('gift_card_transactions_card_idx').on(t.giftCardId, t.createdAt),
    index('gift_card_transactions_created_idx').on(t.createdAt),
    check(
      'gift_card_transactions_kind_check',
      sql`${t.kind} in ('SOLD', 'REDEEMED', 'RELEASED', 'REFUNDED', 'VOIDED')`,
    ),
    check('gift_card_transactions_balance_check', sql`${t.balanceAfterCents} >= 0`),
  ],
);
