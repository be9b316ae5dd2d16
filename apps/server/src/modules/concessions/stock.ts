import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/database.ts';
import { comboComponents, orderLines, products, stockReservations } from '../../db/schema/index.ts';
import { conflictSaying } from '../../errors.ts';
import { textsIn } from '../../i18n.ts';

/** A product line whose stock is to be taken: the line, what it sells and how many. */
export interface StockLine {
  lineId: string;
  productId: string;
  quantity: number;
  /** The name the customer is told when it is sold out. */
  name: string;
}

/** What each line takes from which counted product: a combo takes each of its components. */
async function needsOf(q: Queryable, lines: readonly StockLine[]) {
  if (lines.length === 0) return [];
  const ids = [...new Set(lines.map((l) => l.productId))];
  const components = await q
    .select({
      comboId: comboComponents.comboId,
      productId: comboComponents.productId,
      quantity: comboComponents.quantity,
    })
    .from(comboComponents)
    .where(inArray(comboComponents.comboId, ids));
  const parts = [...new Set([...ids, ...components.map((c) => c.productId)])];
  const counted = new Set(
    (
      await q
        .select({ id: products.id })
        .from(products)
        .where(and(inArray(products.id, parts), isNotNull(products.stock)))
    ).map((p) => p.id),
  );
  return lines.flatMap((line) => {
    const own = components.filter((c) => c.comboId === line.productId);
    const takes =
      own.length > 0
        ? own.map((c) => ({ productId: c.productId, per: c.quantity }))
        : [{ productId: line.productId, per: 1 }];
    return takes
      .filter((t) => counted.has(t.productId))
      .map((t) => ({ line, productId: t.productId, quantity: t.per * line.quantity }));
  });
}

/** "Sold out: Nachos" in the customer's language, naming every item that could not be had. */
const soldOut = (names: string[], productIds: string[]) =>
  conflictSaying(
    (language) => textsIn(language)('errors.sold_out', { items: names.join(', ') }),
    'sold_out',
    {
      productIds,
    },
  );

/**
 * Takes the stock these lines sell, inside the caller's transaction: one conditional UPDATE per counted product
 * (`stock = stock - n WHERE stock >= n`, in product order so two orders never deadlock), so stock never goes below
 * zero however many checkouts race; a product without enough is a 409 `sold_out` naming it (the caller's transaction
 * rolls back what was taken). Each line's share is written to `stock_reservations`, to give back exactly that.
 */
export async function reserveStock(tx: Tx, lines: readonly StockLine[]): Promise<void> {
  const failed = await takeStock(tx, lines);
  if (failed.length > 0) {
    throw soldOut(
      failed.map((l) => l.name),
      failed.map((l) => l.productId),
    );
  }
}

/**
 * The same without refusing: takes what each line needs, line by line (a savepoint each), and answers the lines that
 * could not be had. For a closed order paid after all (markPaid), whose lines either get their stock back or are lost.
 */
export async function takeStock(tx: Tx, lines: readonly StockLine[]): Promise<StockLine[]> {
  const needs = await needsOf(tx, lines);
  const total = new Map<string, number>();
  for (const n of needs) total.set(n.productId, (total.get(n.productId) ?? 0) + n.quantity);
  const short = new Set<string>();
  for (const productId of [...total.keys()].sort()) {
    const n = total.get(productId)!;
    const taken = await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${n}` })
      .where(and(eq(products.id, productId), sql`${products.stock} >= ${n}`))
      .returning({ id: products.id });
    if (taken.length === 0) short.add(productId);
  }
  if (short.size > 0) {
    // Give back what was taken for the others: the caller either refuses the whole order or loses these lines.
    for (const [productId, n] of total) {
      if (short.has(productId)) continue;
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${n}` })
        .where(and(eq(products.id, productId), isNotNull(products.stock)));
    }
    return lines.filter((l) => needs.some((n) => n.line === l && short.has(n.productId)));
  }
  if (needs.length > 0) {
    await tx
      .insert(stockReservations)
      .values(needs.map((n) => ({ lineId: n.line.lineId, productId: n.productId, quantity: n.quantity })));
  }
  return [];
}

/**
 * Gives back the stock these lines hold (an order closed unpaid, a line refunded), once: the reservation rows are
 * deleted as the stock returns, so a second call finds nothing.
 */
export async function releaseStock(tx: Tx, lineIds: readonly string[]): Promise<void> {
  if (lineIds.length === 0) return;
  const freed = await tx
    .delete(stockReservations)
    .where(inArray(stockReservations.lineId, [...lineIds]))
    .returning({ productId: stockReservations.productId, quantity: stockReservations.quantity });
  const total = new Map<string, number>();
  for (const f of freed) total.set(f.productId, (total.get(f.productId) ?? 0) + f.quantity);
  for (const productId of [...total.keys()].sort()) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${total.get(productId)!}` })
      .where(and(eq(products.id, productId), isNotNull(products.stock)));
  }
}

/** Gives back the stock of orders closed unpaid (expired, cancelled, replaced): every product line of theirs. */
export async function releaseOrderStock(tx: Tx, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const lines = await tx
    .select({ id: orderLines.id })
    .from(orderLines)
    .where(and(inArray(orderLines.orderId, [...orderIds]), eq(orderLines.kind, 'PRODUCT')))
    .orderBy(asc(orderLines.id));
  await releaseStock(
    tx,
    lines.map((l) => l.id),
  );
}

/** The lines among these that hold their stock now. */
export async function linesHoldingStock(tx: Tx, lineIds: readonly string[]): Promise<Set<string>> {
  if (lineIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ lineId: stockReservations.lineId })
    .from(stockReservations)
    .where(inArray(stockReservations.lineId, [...lineIds]));
  return new Set(rows.map((r) => r.lineId));
}
