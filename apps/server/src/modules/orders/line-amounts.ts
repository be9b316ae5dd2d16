// The amounts every priced line carries (ticket, product, fee), as its order line keeps them (decision 039, 047).

/** What every priced line carries, as an order line keeps it. */
export interface LineAmounts {
  quantity: number;
  unitPriceCents: number;
  /** unit price × quantity: the line before its discount. */
  listPriceCents: number;
  discountCents: number;
  /** What the customer pays for the line: the list price less the discount, with the tax (DESIGN §7.4). */
  priceCents: number;
  /** Basis points (20% = 2000), and the tax included in priceCents. */
  taxRateBp: number;
  taxCents: number;
}

/** A priced line's amounts, as its order line's columns. */
export const lineAmounts = (l: LineAmounts): LineAmounts => ({
  quantity: l.quantity,
  unitPriceCents: l.unitPriceCents,
  listPriceCents: l.listPriceCents,
  discountCents: l.discountCents,
  priceCents: l.priceCents,
  taxRateBp: l.taxRateBp,
  taxCents: l.taxCents,
});
