import type { Product, ProductOrder } from '@cinema/contract';
import type { Queryable, Tx } from '../../db/database.ts';
import { orderLines } from '../../db/schema/index.ts';
import { reserveStock } from './stock.ts';
import { AppError, badRequest, conflictSaying } from '../../errors.ts';
import { textsIn } from '../../i18n.ts';
import { loadMenu } from './menu.service.ts';
import { lineAmounts, type LineAmounts } from '../orders/line-amounts.ts';

/** A priced product line, as an order line keeps it (DESIGN §7.2). */
export interface PricedProductLine extends LineAmounts {
  kind: 'PRODUCT';
  product: Product;
  /** The chosen options, in the product's group order. */
  choices: { id: string; name: string; priceDeltaCents: number }[];
  /** "Popcorn (Large, Sweet)": what receipts, emails and the kitchen call it. */
  description: string;
}

/** "Popcorn (Large, Sweet)". */
export const productDescription = (name: string, options: readonly string[]) =>
  options.length > 0 ? `${name} (${options.join(', ')})` : name;

/**
 * Prices the products asked for from the menu as it is (the client never sends a price): the product's price plus
 * each chosen option's delta, times the quantity. Refused: a product not on the menu (404), one no longer sold or,
 * when `stock` is asked, without enough left (409 `product_unavailable` / `sold_out`, naming the items), an option
 * that is not the product's, two choices of one group or a required group left out (400).
 */
export async function priceProducts(
  q: Queryable,
  asked: readonly ProductOrder[],
  opts: { stock: boolean },
): Promise<PricedProductLine[]> {
  if (asked.length === 0) return [];
  const menu = await loadMenu(q);
  const byId = new Map(menu.products.map((p) => [p.id, p]));
  const lines = asked.map((item): PricedProductLine => {
    const product = byId.get(item.productId.toLowerCase());
    if (!product) throw new AppError(404, 'not_found', 'Product not found', { productIds: [item.productId] });
    const chosen = [...new Set((item.options ?? []).map((id) => id.toLowerCase()))];
    const choices: PricedProductLine['choices'] = [];
    for (const group of product.options) {
      const picked = group.choices.filter((c) => chosen.includes(c.id));
      if (picked.length > 1) throw badRequest(`Choose one ${group.name} for ${product.name}`);
      if (picked.length === 0 && group.required)
        throw badRequest(`Choose a ${group.name} for ${product.name}`);
      choices.push(...picked);
    }
    if (choices.length !== chosen.length) throw badRequest(`An option is not one of ${product.name}'s`);
    const unit = Math.max(0, product.priceCents + choices.reduce((sum, c) => sum + c.priceDeltaCents, 0));
    return {
      kind: 'PRODUCT',
      product,
      choices,
      description: productDescription(
        product.name,
        choices.map((c) => c.name),
      ),
      quantity: item.quantity,
      unitPriceCents: unit,
      listPriceCents: unit * item.quantity,
      discountCents: 0,
      priceCents: unit * item.quantity,
      taxRateBp: 0,
      taxCents: 0,
    };
  });
  const inactive = lines.filter((l) => !l.product.active);
  if (inactive.length > 0) {
    throw conflictSaying(
      (language) =>
        textsIn(language)('errors.product_unavailable', {
          items: [...new Set(inactive.map((l) => l.product.name))].join(', '),
        }),
      'product_unavailable',
      { productIds: inactive.map((l) => l.product.id) },
    );
  }
  if (opts.stock) {
    // What the menu says is left now (the checkout's reservation is what decides under a race).
    const wanted = new Map<string, number>();
    for (const l of lines) {
      const takes = l.product.components ?? [{ productId: l.product.id, quantity: 1 }];
      for (const t of takes)
        wanted.set(t.productId, (wanted.get(t.productId) ?? 0) + t.quantity * l.quantity);
    }
    const short = lines.filter((l) =>
      (l.product.components ?? [{ productId: l.product.id, quantity: 1 }]).some((t) => {
        const stock = byId.get(t.productId)?.stock ?? null;
        return stock !== null && stock < wanted.get(t.productId)!;
      }),
    );
    if (short.length > 0) {
      throw conflictSaying(
        (language) =>
          textsIn(language)('errors.sold_out', {
            items: [...new Set(short.map((l) => l.product.name))].join(', '),
          }),
        'sold_out',
        { productIds: short.map((l) => l.product.id) },
      );
    }
  }
  return lines;
}

/** An order line's columns from a priced product line. */
export function productLineValues(l: PricedProductLine, orderId: string) {
  return {
    orderId,
    kind: 'PRODUCT' as const,
    productId: l.product.id,
    description: l.description,
    ageRestricted: l.product.ageRestricted,
    ...lineAmounts(l),
  };
}

/**
 * Writes an order's product lines and takes their stock, in the caller's transaction (checkout, counter sale): no two
 * orders can both have the last one (DESIGN §7.2); a 409 `sold_out` names what is short and rolls the order back.
 */
export async function writeProductLines(tx: Tx, orderId: string, lines: readonly PricedProductLine[]) {
  if (lines.length === 0) return;
  const written = await tx
    .insert(orderLines)
    .values(lines.map((l) => productLineValues(l, orderId)))
    .returning({ id: orderLines.id });
  await reserveStock(
    tx,
    lines.map((l, i) => ({
      lineId: written[i]!.id,
      productId: l.product.id,
      quantity: l.quantity,
      name: l.product.name,
    })),
  );
}
