import { z } from 'zod';
import { OneLineTextSchema } from './common.ts';
import { normalizeGiftCardCode } from './gift-card-codes.ts';

// Gift cards (DESIGN §7.3, decision 045).

/** A code as a client sends it: anything that normalizes to 16 characters of the alphabet. */
export const GiftCardCodeSchema = z
  .string()
  .max(40, 'Enter a gift card code')
  .refine((c) => normalizeGiftCardCode(c) !== null, { message: 'Enter a gift card code of 16 characters' });

export const GiftCardCodeParamsSchema = z.object({ code: GiftCardCodeSchema });

/** `redeem` on the checkout, its quote and the counter sale: each card once, applied in the order given. */
export const RedeemSchema = z
  .array(z.object({ code: GiftCardCodeSchema }))
  .max(10, 'At most 10 gift cards an order')
  .refine((r) => new Set(r.map((c) => normalizeGiftCardCode(c.code))).size === r.length, {
    message: 'Each gift card once',
  });

/** One change of a card's balance: what it was, by how much (signed), what it left, when. */
export const GiftCardMovementSchema = z.object({
  kind: z.enum(['SOLD', 'REDEEMED', 'RELEASED', 'REFUNDED', 'VOIDED']),
  amountCents: z.number().int(),
  balanceAfterCents: z.number().int(),
  at: z.string(),
});
export type GiftCardMovement = z.infer<typeof GiftCardMovementSchema>;

/** `GET /api/gift-cards/{code}`: what a card holds. */
export const GiftCardBalanceSchema = z.object({
  code: z.string(),
  balanceCents: z.number().int(),
  currency: z.string(),
  expiresAt: z.string(),
  /** `active`: it pays; `expired` or `voided`: it pays nothing any more. */
  status: z.enum(['active', 'expired', 'voided']),
  /** Its ledger as its holder sees it (no names, no orders), newest first, the last 50 at most. */
  history: z.array(GiftCardMovementSchema),
});
export type GiftCardBalance = z.infer<typeof GiftCardBalanceSchema>;

/** What each card takes from an order (a quote: would take; a checkout: has reserved). */
export const GiftCardUseSchema = z.object({
  code: z.string(),
  amountCents: z.number().int(),
  /** What is left on the card after this order. */
  balanceAfterCents: z.number().int(),
});
export type GiftCardUse = z.infer<typeof GiftCardUseSchema>;

/** One gift card to buy: its amount (a preset or the buyer's own within the range), who it is for, a message. */
export const GiftCardPurchaseSchema = z.object({
  amountCents: z.number().int().min(1, 'Choose an amount').max(10_000_000),
  /** Online: the card is emailed here (else to the buyer). */
  recipientEmail: z.email({ message: 'Enter a valid email address' }).max(254).optional(),
  message: OneLineTextSchema('Message', 300).optional(),
});
export type GiftCardPurchase = z.infer<typeof GiftCardPurchaseSchema>;
export const GiftCardPurchasesSchema = z
  .array(GiftCardPurchaseSchema)
  .max(10, 'At most 10 gift cards an order');

/** A gift card an order sold, as its buyer and staff see it on the order's line. */
export const OrderGiftCardSchema = z.object({
  /** Its line of the order (once the order is saved): what a staff refund names (`giftCardLineIds`). */
  lineId: z.string().optional(),
  /** Once the order is paid (the card exists). */
  code: z.string().nullable(),
  /** When the card stops paying (once paid). */
  expiresAt: z.string().nullable().optional(),
  recipientEmail: z.string().nullable(),
  message: z.string().nullable(),
});

/** A card as staff see it (`/admin/gift-cards`). */
export const StaffGiftCardSchema = z.object({
  code: z.string(),
  status: z.enum(['active', 'expired', 'voided']),
  initialCents: z.number().int(),
  balanceCents: z.number().int(),
  currency: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  recipientEmail: z.string().nullable(),
  /** The order that sold it. */
  orderRef: z.string().nullable(),
});
export type StaffGiftCard = z.infer<typeof StaffGiftCardSchema>;

export const GiftCardSearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'Enter a code or an email').max(254),
});
export const GiftCardSearchResponseSchema = z.object({ cards: z.array(StaffGiftCardSchema) });

/** One entry of a card's ledger: what changed its balance, by whom and when. */
export const GiftCardEntrySchema = GiftCardMovementSchema.extend({
  /** The staff member or customer who made it; null for the system (an order expiring). */
  by: z.string().nullable(),
  orderRef: z.string().nullable(),
  note: z.string().nullable(),
});
export const GiftCardLedgerSchema = z.object({
  card: StaffGiftCardSchema,
  entries: z.array(GiftCardEntrySchema),
});
export type GiftCardLedger = z.infer<typeof GiftCardLedgerSchema>;

export const VoidGiftCardBodySchema = z.object({ reason: OneLineTextSchema('Reason', 200).optional() });

/** `GET /api/admin/gift-cards/liability?date=`: what the cards held at the end of that day (cinema clocks). */
export const GiftCardLiabilityQuerySchema = z.object({
  date: z.iso.date({ message: 'Use a date as YYYY-MM-DD' }),
  format: z.enum(['json', 'csv']).optional(),
});
export const GiftCardLiabilitySchema = z.object({
  date: z.string(),
  currency: z.string(),
  /** Cards not expired that day, with a balance. */
  outstandingCents: z.number().int(),
  cards: z.array(z.object({ code: z.string(), balanceCents: z.number().int(), expiresAt: z.string() })),
});
export type GiftCardLiability = z.infer<typeof GiftCardLiabilitySchema>;
