import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  bpToPercent,
  seatLabel,
  type Order,
  type OrderConcessions,
  type OrderLine,
  type StaffOrder,
} from '@cinema/contract';
import { runTogether, type Queryable } from '../../db/database.ts';
import {
  bookings,
  giftCards,
  orderLines,
  orders,
  halls,
  movies,
  orderPayments,
  orderRefunds,
  seats,
  showtimes,
  users,
  type OrderStatus,
} from '../../db/schema/index.ts';
import { WALK_IN_EMAIL } from '../box-office/walk-in.ts';
import { notFound } from '../../errors.ts';
import { orderRefIs } from './order-ref.ts';
import { presentFeeLine, presentGiftCardLine, specFields } from './price-lines.ts';

/** Orders a customer sees: paid ones, refunded ones and the one being paid; not checkouts that came to nothing. */
const SHOWN: OrderStatus[] = ['OPEN', 'PAID', 'PARTLY_REFUNDED', 'REFUNDED'];

/** An order's status as the API has always said it (DESIGN §3): `pending` while open, in lower case. */
const orderStatus: Record<OrderStatus, Order['status']> = {
  OPEN: 'pending',
  PAID: 'paid',
  PARTLY_REFUNDED: 'partially_refunded',
  REFUNDED: 'refunded',
  EXPIRED: 'expired',
  CANCELLED: 'cancelled',
  SUPERSEDED: 'cancelled',
};

const PAGE = 20;

type SessionRow = typeof orders.$inferSelect;

/** The orders (checkout sessions) given, whole: lines, discount, refunds; with what staff see when `staff`. */
async function loadOrders(db: Queryable, sessions: SessionRow[]) {
  const ids = sessions.map((s) => s.id);
  const userIds = [...new Set(sessions.flatMap((s) => [s.userId, ...(s.soldBy ? [s.soldBy] : [])]))];
  const [lines, refunds, people, payments] = await runTogether(db, [
    () =>
      db
        .select({
          id: orderLines.id,
          sessionId: orderLines.orderId,
          kind: orderLines.kind,
          productId: orderLines.productId,
          description: orderLines.description,
          ageRestricted: orderLines.ageRestricted,
          recipientEmail: orderLines.recipientEmail,
          message: orderLines.message,
          quantity: orderLines.quantity,
          unitPriceCents: orderLines.unitPriceCents,
          taxRateBp: orderLines.taxRateBp,
          taxCents: orderLines.taxCents,
          bookingId: orderLines.bookingId,
          result: orderLines.result,
          row: orderLines.seatRow,
          number: orderLines.seatNumber,
          rowLabel: orderLines.seatRowLabel,
          seatType: orderLines.seatType,
          ticketType: orderLines.ticketTypeName,
          listPriceCents: orderLines.listPriceCents,
          discountCents: orderLines.discountCents,
          priceCents: orderLines.priceCents,
          dueCents: orderLines.dueCents,
          exchangedAt: orderLines.exchangedAt,
          showtimeId: bookings.showtimeId,
          movieId: showtimes.movieId,
          checkedInAt: bookings.checkedInAt,
          movie: movies.title,
          startsAt: showtimes.startsAt,
          hall: halls.name,
        })
        .from(orderLines)
        .leftJoin(bookings, eq(bookings.id, orderLines.bookingId))
        .leftJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
        .leftJoin(movies, eq(movies.id, showtimes.movieId))
        .leftJoin(halls, eq(halls.id, showtimes.hallId))
        .where(inArray(orderLines.orderId, ids))
        .orderBy(
          asc(showtimes.startsAt),
          asc(orderLines.seatRow),
          asc(orderLines.seatNumber),
          asc(orderLines.id),
        ),
    () =>
      db
        .select({
          sessionId: orderRefunds.orderId,
          amountCents: orderRefunds.amountCents,
          status: orderRefunds.status,
          createdAt: orderRefunds.createdAt,
          kind: orderRefunds.kind,
          reason: orderRefunds.reason,
          by: users.email,
        })
        .from(orderRefunds)
        .leftJoin(users, eq(users.id, orderRefunds.createdBy))
        .where(inArray(orderRefunds.orderId, ids))
        .orderBy(asc(orderRefunds.createdAt)),
    () =>
      db
        .select({ id: users.id, email: users.email, name: users.name })
        .from(users)
        .where(inArray(users.id, userIds)),
    () =>
      db
        .select({
          orderId: orderPayments.orderId,
          method: orderPayments.method,
          amountCents: orderPayments.amountCents,
          refundedCents: orderPayments.refundedCents,
        })
        .from(orderPayments)
        .where(and(inArray(orderPayments.orderId, ids), eq(orderPayments.status, 'PAID')))
        .orderBy(asc(orderPayments.createdAt)),
  ] as const);
  const delivery = await deliverySeats(
    db,
    sessions.flatMap((s) => (s.deliverBookingId ? [s.deliverBookingId] : [])),
  );
  // The cards gift card lines issued (once paid), for their codes.
  const giftLines = lines.filter((l) => l.kind === 'GIFT_CARD').map((l) => l.id);
  const cards =
    giftLines.length > 0
      ? await db
          .select({ lineId: giftCards.lineId, code: giftCards.code, expiresAt: giftCards.expiresAt })
          .from(giftCards)
          .where(inArray(giftCards.lineId, giftLines))
      : [];
  return sessions.map((s) => {
    // Food and drink are told apart (`products`): `lines` keep the shape they have always had.
    const own = lines.filter((l) => l.sessionId === s.id && l.kind !== 'PRODUCT');
    // Items by name (lines written in one statement have no order among themselves).
    const food = lines
      .filter((l) => l.sessionId === s.id && l.kind === 'PRODUCT')
      .sort((a, b) => (a.description ?? '').localeCompare(b.description ?? '') || a.id.localeCompare(b.id));
    const statusOf = (l: (typeof lines)[number]) =>
      l.result === 'confirmed'
        ? ('confirmed' as const)
        : l.result === 'refunded'
          ? ('refunded' as const)
          : s.status === 'OPEN'
            ? ('pending' as const)
            : ('released' as const);
    const ownRefunds = refunds.filter((r) => r.sessionId === s.id);
    const order: Order = {
      ref: s.ref!,
      status: orderStatus[s.status],
      createdAt: s.createdAt.toISOString(),
      paidAt: s.paidAt?.toISOString() ?? null,
      lines: own.map((l): OrderLine => {
        const status = statusOf(l);
        if (l.kind === 'GIFT_CARD') {
          const card = cards.find((c) => c.lineId === l.id);
          return presentGiftCardLine(
            {
              amountCents: l.priceCents,
              recipientEmail: l.recipientEmail,
              message: l.message,
              code: card?.code ?? null,
              expiresAt: card?.expiresAt ?? null,
              lineId: l.id,
            },
            status,
            s.paidAt ?? s.createdAt,
          );
        }
        if (l.kind === 'FEE') {
          return presentFeeLine(
            { ...l, description: l.description ?? 'Booking fee' },
            status,
            s.paidAt ?? s.createdAt,
          );
        }
        const seat = {
          row: l.row ?? 0,
          number: l.number ?? 0,
          ...(l.rowLabel && { rowLabel: l.rowLabel }),
          ...(l.seatType && { type: l.seatType as NonNullable<OrderLine['seat']['type']> }),
        };
        const movie = l.movie ?? 'Showtime removed';
        return {
          bookingId: l.bookingId,
          // A line whose showtime was deleted (an abandoned checkout) keeps its seat and price.
          movie,
          startsAt: (l.startsAt ?? s.createdAt).toISOString(),
          auditorium: l.hall ?? '',
          seat,
          ticketType: l.ticketType ?? 'Ticket',
          listPriceCents: l.listPriceCents ?? l.priceCents,
          discountCents: l.discountCents,
          priceCents: l.priceCents,
          status,
          kind: l.kind,
          quantity: l.quantity,
          unitPriceCents: l.unitPriceCents,
          taxRateBp: l.taxRateBp,
          taxCents: l.taxCents,
          ...specFields(`${movie} — ${seatLabel(seat, { style: 'line-item' })}`, l),
        };
      }),
      subtotalCents: s.subtotalCents ?? s.amountCents,
      discountCents: s.discountCents,
      totalCents: s.amountCents,
      refundedCents: ownRefunds.reduce((sum, r) => sum + r.amountCents, 0),
      refunds: ownRefunds.map((r) => ({
        amountCents: r.amountCents,
        status: r.status,
        createdAt: r.createdAt.toISOString(),
      })),
      promoCode: s.promoCode,
      // Every line's tax as it was charged (a rate changed since rewrites nothing).
      taxCents: lines.filter((l) => l.sessionId === s.id).reduce((sum, l) => sum + l.taxCents, 0),
      taxMode: s.taxMode ?? 'inclusive',
      currency: s.currency.toUpperCase(),
      testMode: s.provider === 'local',
      payments: payments
        .filter((p) => p.orderId === s.id)
        .map((p) => ({ method: p.method, amountCents: p.amountCents, refundedCents: p.refundedCents })),
      ...(food.length > 0 && {
        products: food.map((l) => ({
          lineId: l.id,
          productId: l.productId,
          ...splitDescription(l.description ?? ''),
          quantity: l.quantity,
          unitPriceCents: l.unitPriceCents,
          discountCents: l.discountCents,
          priceCents: l.priceCents,
          ageRestricted: l.ageRestricted,
          status: statusOf(l),
          taxRateBp: l.taxRateBp,
          taxRate: bpToPercent(l.taxRateBp),
          taxCents: l.taxCents,
        })),
        concessions: {
          fulfilment: s.fulfilment ?? 'PICKUP',
          deliverAt: s.deliverAt?.toISOString() ?? null,
          seat: (s.deliverBookingId && delivery.get(s.deliverBookingId)) || null,
          status: s.concessionStatus ? CONCESSION_STATUS[s.concessionStatus] : null,
        },
      }),
    };
    return { session: s, order, lines: own, refunds: ownRefunds, people };
  });
}

const CONCESSION_STATUS = {
  PREPARING: 'preparing',
  READY: 'ready',
  COLLECTED: 'collected',
  DELIVERED: 'delivered',
} as const;

/** "Popcorn (Large, Sweet)" back into its name and options, as the line was written (productDescription). */
export function splitDescription(description: string): { name: string; options: string[] } {
  const m = /^(.*) \((.*)\)$/.exec(description);
  return m ? { name: m[1]!, options: m[2]!.split(', ') } : { name: description, options: [] };
}

/** Where food is brought: the hall, row and seat of each booking. */
export async function deliverySeats(db: Queryable, bookingIds: string[]) {
  if (bookingIds.length === 0) return new Map<string, NonNullable<OrderConcessions['seat']>>();
  const rows = await db
    .select({
      id: bookings.id,
      hall: halls.name,
      row: seats.row,
      number: seats.number,
      rowLabel: seats.rowLabel,
    })
    .from(bookings)
    .innerJoin(seats, eq(seats.id, bookings.seatId))
    .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(inArray(bookings.id, bookingIds));
  return new Map(
    rows.map((r) => [
      r.id,
      { auditorium: r.hall, row: r.row, number: r.number, ...(r.rowLabel && { rowLabel: r.rowLabel }) },
    ]),
  );
}

/** The orders given as their customers see them. */
async function presentOrders(db: Queryable, sessions: SessionRow[]): Promise<Order[]> {
  if (sessions.length === 0) return [];
  return (await loadOrders(db, sessions)).map((o) => o.order);
}

/** The orders given as staff see them: the customer, how it was paid, who sold and refunded, the door's state. */
export async function presentStaffOrders(db: Queryable, sessions: SessionRow[]): Promise<StaffOrder[]> {
  if (sessions.length === 0) return [];
  return (await loadOrders(db, sessions)).map(({ session: s, order, lines, refunds, people }) => {
    const customer = people.find((p) => p.id === s.userId);
    const walkIn = customer?.email === WALK_IN_EMAIL;
    return {
      ...order,
      lines: order.lines.map((line, i) => ({
        ...line,
        showtimeId: lines[i]!.showtimeId,
        movieId: lines[i]!.movieId,
        checkedInAt: lines[i]!.checkedInAt?.toISOString() ?? null,
        dueCents: lines[i]!.dueCents,
        exchangedAt: lines[i]!.exchangedAt?.toISOString() ?? null,
      })),
      customer: {
        email: s.customerEmail ?? (walkIn ? null : (customer?.email ?? null)),
        name: s.customerName ?? (walkIn ? null : (customer?.name ?? null)),
      },
      provider: s.provider,
      paymentMethod: s.paymentMethod,
      soldBy: s.soldBy ? (people.find((p) => p.id === s.soldBy)?.email ?? null) : null,
      refunds: order.refunds.map((r, i) => ({
        ...r,
        kind: refunds[i]!.kind,
        reason: refunds[i]!.reason,
        by: refunds[i]!.by,
      })),
    };
  });
}

/** The caller's orders, newest first, a page of 20 at a time. */
export async function listMyOrders(
  db: Queryable,
  userId: string,
  page: number,
): Promise<{ orders: Order[]; nextPage: number | null }> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, SHOWN)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(PAGE + 1)
    .offset((page - 1) * PAGE);
  return {
    orders: await presentOrders(db, rows.slice(0, PAGE)),
    nextPage: rows.length > PAGE ? page + 1 : null,
  };
}

/** One of the caller's orders by its reference (any letter case); 404 for another customer's. */
export async function getMyOrder(db: Queryable, userId: string, ref: string): Promise<Order> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(orderRefIs(ref), eq(orders.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Order not found');
  return (await presentOrders(db, [row]))[0]!;
}

/** The order a guest link's token opens (a counter sale kept for an unverified email), by the token's hash; or null. */
export async function orderByGuestToken(
  db: Queryable,
  tokenHash: string,
): Promise<{ sessionId: string; userId: string; order: Order } | null> {
  const [row] = await db.select().from(orders).where(eq(orders.guestTokenHash, tokenHash)).limit(1);
  if (!row?.ref) return null;
  return { sessionId: row.id, userId: row.userId, order: (await presentOrders(db, [row]))[0]! };
}
