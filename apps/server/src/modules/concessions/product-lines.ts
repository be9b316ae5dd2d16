import { and, eq, isNull } from 'drizzle-orm';
import { orderLines, orders } from '../../db/schema/index.ts';
import type { LineKindRules, OrderLineRef } from '../orders/line-kinds.ts';
import { linesHoldingStock, releaseStock, takeStock } from './stock.ts';

/**
 * Food and drink (DESIGN §7.2, decision 044). Paid: a line whose order still holds its stock is delivered; a line of
 * an order closed before its payment arrived (its stock given back) takes it again if it is still there, else it is
 * lost and refunded at once, as a seat taken meanwhile is. The order goes to the kitchen (`PREPARING`). Refunded: its
 * stock goes back on sale.
 */
export const productLines: LineKindRules = {
  async deliver(tx, orderId, lines) {
    const holding = await linesHoldingStock(
      tx,
      lines.map((l) => l.id),
    );
    const delivered: OrderLineRef[] = [];
    const lost: OrderLineRef[] = [];
    const missing = lines.filter((l) => !holding.has(l.id));
    const details = new Map(
      missing.length === 0
        ? []
        : (
            await tx
              .select({ id: orderLines.id, productId: orderLines.productId, quantity: orderLines.quantity })
              .from(orderLines)
              .where(eq(orderLines.orderId, orderId))
          ).map((d) => [d.id, d]),
    );
    for (const line of lines) {
      if (holding.has(line.id)) {
        delivered.push(line);
        continue;
      }
      const d = details.get(line.id);
      if (!d?.productId) {
        // Its product was deleted since: nothing counted to take.
        delivered.push(line);
        continue;
      }
      const short = await takeStock(tx, [
        { lineId: line.id, productId: d.productId, quantity: d.quantity, name: '' },
      ]);
      (short.length === 0 ? delivered : lost).push(line);
    }
    if (delivered.length > 0) {
      await tx
        .update(orders)
        .set({ concessionStatus: 'PREPARING' })
        .where(and(eq(orders.id, orderId), isNull(orders.concessionStatus)));
    }
    return { delivered, lost, seats: [] };
  },
  async takeBack(tx, lines) {
    await releaseStock(
      tx,
      lines.map((l) => l.id),
    );
    return [];
  },
};
