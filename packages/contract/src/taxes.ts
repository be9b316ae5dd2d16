import { z } from 'zod';
import { TAX_KINDS, TAX_MODES } from './tax-rules.ts';

// Taxes and booking fees (DESIGN §7.4, §7.8; decision 047): set at /admin/taxes.

/** A rate's percentage: 0 to 100 with at most two decimals (stored in basis points: 7.25% = 725). */
const RatePercentSchema = z
  .number()
  .min(0, 'A tax rate is between 0% and 100%')
  .max(100, 'A tax rate is between 0% and 100%')
  .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, 'A tax rate has at most two decimals');

/**
 * One rate: tickets, fees, or food and drink (all products; a category, by its id or name; or one product). The
 * most precise rate applies: a product's over its category's over the products' own; no rate at all is 0%.
 */
export const TaxRateSchema = z.object({
  kind: z.enum(TAX_KINDS),
  productId: z.uuid().optional(),
  category: z.string().trim().min(1).max(80).optional(),
  ratePercent: RatePercentSchema,
});
export type TaxRate = z.infer<typeof TaxRateSchema>;

/** `PUT /api/admin/taxes`: the mode (leave it out to keep the one in force) and every rate (the list replaces them). */
export const TaxesBodySchema = z.object({
  mode: z.enum(TAX_MODES).optional(),
  rates: z.array(TaxRateSchema).max(500),
});
export type TaxesBody = z.infer<typeof TaxesBodySchema>;

/** `GET /api/admin/taxes`: the mode in force and whether it was chosen here or comes from `TAX_MODE`. */
export const TaxesSchema = z.object({
  mode: z.enum(TAX_MODES),
  modeFrom: z.enum(['admin', 'environment']),
  rates: z.array(
    TaxRateSchema.extend({
      /** A category's id with its name; a product's name. */
      categoryName: z.string().optional(),
      productName: z.string().optional(),
    }),
  ),
});
export type Taxes = z.infer<typeof TaxesSchema>;

/**
 * A booking fee where tickets are sold (online or at the counter): an amount per ticket and one per order (an order
 * with at least one ticket that pays fees), ticket types that pay none, and whether a refund gives it back.
 */
export const BookingFeeSchema = z.object({
  perTicketCents: z.number().int().min(0).max(100_000_000),
  perOrderCents: z.number().int().min(0).max(100_000_000),
  exemptTicketTypeIds: z.array(z.uuid()).max(100),
  refundable: z.boolean(),
});
export type BookingFee = z.infer<typeof BookingFeeSchema>;

/** `GET`/`PUT /api/admin/fees`: the booking fees online and at the counter. */
export const FeesSchema = z.object({ online: BookingFeeSchema, counter: BookingFeeSchema });
export type Fees = z.infer<typeof FeesSchema>;
