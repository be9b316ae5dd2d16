import { and, asc, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ConcessionStatusBody, Kitchen, KitchenOrder } from '@cinema/contract';
import { runTogether, type Queryable } from '../../db/database.ts';
import { bookings, movies, orderLines, orders, showtimes, users } from '../../db/schema/index.ts';
import { AppError, conflict } from '../../errors.ts';
import { transactionWithEvents } from '../../events.ts';
import type { Deps } from '../../deps.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { findSession } from '../box-office/staff-orders.service.ts';
import { deliverySeats, splitDescription } from '../orders/orders.service.ts';

/** How long a handed-over order stays on the screen's last column. */
const HANDED_OVER_HOURS = 4;
/** Bounds of the screen's lists (a cinema's bar has tens of orders open at most). */
const ACTIVE_AT_MOST = 200;
const HANDED_OVER_AT_MOST = 30;

type OrderRow = typeof orders.$inferSelect;

const STATUS = {
  PREPARING: 'preparing',
  READY: 'ready',
  COLLECTED: 'collected',
  DELIVERED: 'delivered',
} as const;

/** The orders given as the kitchen shows them; those with no item left to hand over (all refunded) are left out. */
async function presentKitchenOrders(db: Queryable, rows: OrderRow[]): Promise<KitchenOrder[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const staffIds = [...new Set(rows.flatMap((r) => (r.handedOverBy ? [r.handedOverBy] : [])))];
  const [items, tickets, staff, seats] = await runTogether(db, [
    () =>
      db
        .select({
          orderId: orderLines.orderId,
          description: orderLines.description,
          quantity: orderLines.quantity,
          ageRestricted: orderLines.ageRestricted,
        })
        .from(orderLines)
        .where(
          and(
            inArray(orderLines.orderId, ids),
            eq(orderLines.kind, 'PRODUCT'),
            eq(orderLines.result, 'confirmed'),
          ),
        )
        .orderBy(asc(orderLines.description), asc(orderLines.id)),
    // The film of each order's tickets: the earliest showtime, or the seat the food is brought to.
    () =>
      db
        .select({
          orderId: orderLines.orderId,
          bookingId: bookings.id,
          movie: movies.title,
          startsAt: showtimes.startsAt,
        })
        .from(orderLines)
        .innerJoin(bookings, eq(bookings.id, orderLines.bookingId))
        .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
        .innerJoin(movies, eq(movies.id, showtimes.movieId))
        .where(and(inArray(orderLines.orderId, ids), eq(orderLines.kind, 'TICKET')))
        .orderBy(asc(showtimes.startsAt)),
    async () =>
      staffIds.length === 0
        ? []
        : await db
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.id, staffIds)),
    () =>
      deliverySeats(
        db,
        rows.flatMap((r) => (r.deliverBookingId ? [r.deliverBookingId] : [])),
      ),
  ] as const);
  return rows.flatMap((r): KitchenOrder[] => {
    const own = items.filter((i) => i.orderId === r.id);
    if (own.length === 0 || !r.concessionStatus) return [];
    const film =
      tickets.find((t) => t.orderId === r.id && t.bookingId === r.deliverBookingId) ??
      tickets.find((t) => t.orderId === r.id);
    return [
      {
        ref: r.ref!,
        status: STATUS[r.concessionStatus],
        paidAt: (r.paidAt ?? r.createdAt).toISOString(),
        fulfilment: r.fulfilment ?? 'PICKUP',
        deliverAt: r.deliverAt?.toISOString() ?? null,
        seat: (r.deliverBookingId && seats.get(r.deliverBookingId)) || null,
        movie: film?.movie ?? null,
        startsAt: film?.startsAt.toISOString() ?? null,
        customerName: r.customerName,
        items: own.map((i) => ({
          ...splitDescription(i.description ?? ''),
          quantity: i.quantity,
          ageRestricted: i.ageRestricted,
        })),
        checkId: own.some((i) => i.ageRestricted),
        handedOverAt: r.handedOverAt?.toISOString() ?? null,
        handedOverBy: staff.find((s) => s.id === r.handedOverBy)?.email ?? null,
      },
    ];
  });
}

/** When an order is due at the bar: a seat delivery at its time, an order to collect as soon as it is paid. */
const dueAt = (o: KitchenOrder) => o.deliverAt ?? o.paidAt;

/**
 * `GET /api/admin/kitchen`: every paid order still to prepare or ready, the soonest due first, and those handed
 * over in the last hours, the latest first.
 */
export async function kitchenOrders(db: Queryable): Promise<Kitchen> {
  const [active, done] = await runTogether(db, [
    // By the partial index over PREPARING and READY.
    () =>
      db
        .select()
        .from(orders)
        .where(inArray(orders.concessionStatus, ['PREPARING', 'READY']))
        .orderBy(asc(sql`coalesce(${orders.deliverAt}, ${orders.paidAt})`), asc(orders.id))
        .limit(ACTIVE_AT_MOST),
    () =>
      db
        .select()
        .from(orders)
        .where(
          and(
            isNotNull(orders.handedOverAt),
            gt(orders.handedOverAt, sql`now() - make_interval(hours => ${HANDED_OVER_HOURS})`),
          ),
        )
        .orderBy(desc(orders.handedOverAt))
        .limit(HANDED_OVER_AT_MOST),
  ] as const);
  const shown = await presentKitchenOrders(db, [...active, ...done]);
  const open = shown.filter((o) => !o.handedOverAt).sort((a, b) => dueAt(a).localeCompare(dueAt(b)));
  return { orders: [...open, ...shown.filter((o) => o.handedOverAt)] };
}

/**
 * `POST /api/admin/concession-orders/{ref}/status`: an order's food and drink is ready, or handed over (collected at
 * the bar or brought to the seat; typed or scanned from the order's QR code). Handing over twice is refused (409
 * `already_handed_over`, saying when and by whom), as is an order with nothing to hand over (409 `no_items`). Ready
 * again is no change. Audited; every kitchen screen is told after commit.
 */
export async function setConcessionStatus(
  deps: Pick<Deps, 'db' | 'events'>,
  actor: Actor,
  ref: string,
  { status }: ConcessionStatusBody,
): Promise<KitchenOrder> {
  const orderId = await transactionWithEvents(deps, async (tx, after) => {
    const order = await findSession(tx, ref, true);
    const [{ items } = { items: 0 }] = await tx
      .select({ items: sql<number>`count(*)::int` })
      .from(orderLines)
      .where(
        and(
          eq(orderLines.orderId, order.id),
          eq(orderLines.kind, 'PRODUCT'),
          eq(orderLines.result, 'confirmed'),
        ),
      );
    if (!order.concessionStatus || Number(items) === 0)
      throw conflict('This order has no food or drink to hand over', 'no_items');
    if (order.handedOverAt) {
      const [by] = order.handedOverBy
        ? await tx.select({ email: users.email }).from(users).where(eq(users.id, order.handedOverBy))
        : [];
      throw new AppError(409, 'already_handed_over', 'Already handed over', {
        handedOverAt: order.handedOverAt.toISOString(),
        handedOverBy: by?.email ?? null,
      });
    }
    if (status === 'ready' && order.concessionStatus === 'READY') return order.id;
    const handOver = status !== 'ready';
    await tx
      .update(orders)
      .set({
        concessionStatus: status === 'ready' ? 'READY' : status === 'collected' ? 'COLLECTED' : 'DELIVERED',
        ...(handOver && { handedOverAt: sql`now()`, handedOverBy: actor.id }),
      })
      .where(eq(orders.id, order.id));
    await recordAudit(tx, actor, {
      action: handOver ? 'concessions.hand_over' : 'concessions.ready',
      subjectType: 'order',
      subjectId: order.ref,
      before: { status: STATUS[order.concessionStatus] },
      after: { status },
    });
    after.record('kitchenChanged', { sessionId: order.id, ref: order.ref!, status });
    return order.id;
  });
  const [row] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  return (await presentKitchenOrders(deps.db, [row!]))[0]!;
}
