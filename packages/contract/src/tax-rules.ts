// Taxes as a line keeps them (DESIGN §7.4, decision 047): a rate in basis points (7% = 700) and the tax in whole
// minor units, rounded once per line. Imports nothing, so the server prices with it and the web app and the receipts
// add up with it.

/** `inclusive`: prices include tax (the tax is the part of the price); `exclusive`: tax is added on top. */
export const TAX_MODES = ['inclusive', 'exclusive'] as const;
export type TaxMode = (typeof TAX_MODES)[number];

/** What a line is taxed as: tickets, food and drink (per product or category), booking fees. */
export const TAX_KINDS = ['TICKET', 'PRODUCT', 'FEE'] as const;
export type TaxKind = (typeof TAX_KINDS)[number];

/** A rate's percentage as basis points: 7.5 → 750. */
export const percentToBp = (percent: number): number => Math.round(percent * 100);
/** Basis points as a percentage: 750 → 7.5. */
export const bpToPercent = (bp: number): number => bp / 100;

/** Half up, in integers only: `numerator / denominator` rounded (both ≥ 0, denominator > 0). */
const roundedDivision = (numerator: number, denominator: number) =>
  Math.floor((2 * numerator + denominator) / (2 * denominator));

/**
 * A line's tax from what it costs before tax is settled: with `inclusive` prices `amountCents` is the gross and the
 * tax its part, round(gross × r / (1 + r)); with `exclusive` prices it is the net and the tax, round(net × r), is
 * added. Rounded half up per line in minor units. `priceCents` is what the customer pays for the line.
 */
export function taxOn(
  amountCents: number,
  rateBp: number,
  mode: TaxMode,
): { priceCents: number; taxCents: number } {
  if (rateBp <= 0 || amountCents <= 0) return { priceCents: amountCents, taxCents: 0 };
  if (mode === 'inclusive') {
    return { priceCents: amountCents, taxCents: roundedDivision(amountCents * rateBp, 10_000 + rateBp) };
  }
  const taxCents = roundedDivision(amountCents * rateBp, 10_000);
  return { priceCents: amountCents + taxCents, taxCents };
}

/** One rate's share of a receipt: what was sold at it before tax, its tax, and with tax. */
export interface TaxBand {
  rateBp: number;
  netCents: number;
  taxCents: number;
  grossCents: number;
}

/**
 * A receipt's tax by rate (lowest rate first) and its totals, from its lines as charged (`priceCents` with tax,
 * `taxCents` of it); lines given back (refunded) are left out by the caller. The bands add up to the totals exactly.
 */
export function taxBreakdown(lines: readonly { priceCents: number; taxCents: number; taxRateBp: number }[]): {
  bands: TaxBand[];
  netCents: number;
  taxCents: number;
  grossCents: number;
} {
  const byRate = new Map<number, TaxBand>();
  for (const l of lines) {
    const band = byRate.get(l.taxRateBp) ?? { rateBp: l.taxRateBp, netCents: 0, taxCents: 0, grossCents: 0 };
    band.grossCents += l.priceCents;
    band.taxCents += l.taxCents;
    band.netCents += l.priceCents - l.taxCents;
    byRate.set(l.taxRateBp, band);
  }
  const bands = [...byRate.values()].sort((a, b) => a.rateBp - b.rateBp);
  const add = (key: 'netCents' | 'taxCents' | 'grossCents') => bands.reduce((sum, b) => sum + b[key], 0);
  return { bands, netCents: add('netCents'), taxCents: add('taxCents'), grossCents: add('grossCents') };
}

/** "7%", "7.5%", "0%" in the viewer's locale. */
export const formatRate = (rateBp: number, locale?: string): string =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(rateBp / 10_000);

/** How a booking fee line is described when written (receipts, emails and screens name it in the reader's language). */
export const FEE_DESCRIPTIONS = { TICKET: 'Booking fee', ORDER: 'Booking fee per order' } as const;
/** A fee line's kind (per ticket or per order) from its description. */
export const feePer = (description: string): 'TICKET' | 'ORDER' =>
  description === FEE_DESCRIPTIONS.ORDER ? 'ORDER' : 'TICKET';
