import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Order, OrderLine, StaffOrder } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import {
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  halls,
  movies,
  paymentRefunds,
  showtimes,
  users,
  type CheckoutStatus,
} from '../../db/schema/index.ts';
import { WALK_IN_EMAIL } from '../box-office/walk-in.ts';
import { notFound } from '../../errors.ts';
import { orderRefIs } from './order-ref.ts';

/** Orders a customer sees: paid ones, refunded ones and the one being paid; not checkouts that came to nothing. */
const SHOWN: CheckoutStatus[] = ['open', 'paid', 'partially_refunded', 'refunded'];

const orderStatus: Record<CheckoutStatus, Order['status']> = {
  open: 'pending',
  paid: 'paid',
  partially_refunded: 'partially_refunded',
  refunded: 'refunded',
  expired: 'expired',
  cancelled: 'cancelled',
  superseded: 'cancelled',
};

const PAGE = 20;

type SessionRow = typeof checkoutSessions.$inferSelect;

/** The orders (checkout sessions) given, whole: lines, discount, refunds; with what staff see when `staff`. */
async function loadOrders(db: Queryable, sessions: SessionRow[]) {
  const ids = sessions.map((s) => s.id);
  const userIds = [...new Set(sessions.flatMap((s) => [s.userId, ...(s.soldBy ? [s.soldBy] : [])]))];
  const [lines, refunds, people] = await Promise.all([
    db
      .select({
        sessionId: checkoutSessionBookings.sessionId,
        bookingId: checkoutSessionBookings.bookingId,
        result: checkoutSessionBookings.result,
        row: checkoutSessionBookings.seatRow,
        number: checkoutSessionBookings.seatNumber,
        rowLabel: checkoutSessionBookings.seatRowLabel,
        seatType: checkoutSessionBookings.seatType,
        ticketType: checkoutSessionBookings.ticketTypeName,
        listPriceCents: checkoutSessionBookings.listPriceCents,
        discountCents: checkoutSessionBookings.discountCents,
        priceCents: checkoutSessionBookings.priceCents,
        dueCents: checkoutSessionBookings.dueCents,
        exchangedAt: checkoutSessionBookings.exchangedAt,
        showtimeId: bookings.showtimeId,
        movieId: showtimes.movieId,
        checkedInAt: bookings.checkedInAt,
        movie: movies.title,
        startsAt: showtimes.startsAt,
        hall: halls.name,
      })
      .from(checkoutSessionBookings)
      .leftJoin(bookings, eq(bookings.id, checkoutSessionBookings.bookingId))
      .leftJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
      .leftJoin(movies, eq(movies.id, showtimes.movieId))
      .leftJoin(halls, eq(halls.id, showtimes.hallId))
      .where(inArray(checkoutSessionBookings.sessionId, ids))
      .orderBy(
        asc(showtimes.startsAt),
        asc(checkoutSessionBookings.seatRow),
        asc(checkoutSessionBookings.seatNumber),
      ),
    db
      .select({
        sessionId: paymentRefunds.sessionId,
        amountCents: paymentRefunds.amountCents,
        status: paymentRefunds.status,
        createdAt: paymentRefunds.createdAt,
        kind: paymentRefunds.kind,
        reason: paymentRefunds.reason,
        by: users.email,
      })
      .from(paymentRefunds)
      .leftJoin(users, eq(users.id, paymentRefunds.createdBy))
      .where(inArray(paymentRefunds.sessionId, ids))
      .orderBy(asc(paymentRefunds.createdAt)),
    db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(inArray(users.id, userIds)),
  ]);
  return sessions.map((s) => {
    const own = lines.filter((l) => l.sessionId === s.id);
    const ownRefunds = refunds.filter((r) => r.sessionId === s.id);
    const order: Order = {
      ref: s.ref!,
      status: orderStatus[s.status],
      createdAt: s.createdAt.toISOString(),
      paidAt: s.paidAt?.toISOString() ?? null,
      lines: own.map((l): OrderLine => ({
        bookingId: l.bookingId,
        // A line whose showtime was deleted (an abandoned checkout) keeps its seat and price.
        movie: l.movie ?? 'Showtime removed',
        startsAt: (l.startsAt ?? s.createdAt).toISOString(),
        auditorium: l.hall ?? '',
        seat: {
          row: l.row,
          number: l.number,
          ...(l.rowLabel && { rowLabel: l.rowLabel }),
          ...(l.seatType && { type: l.seatType as NonNullable<OrderLine['seat']['type']> }),
        },
        ticketType: l.ticketType ?? 'Ticket',
        listPriceCents: l.listPriceCents ?? l.priceCents,
        discountCents: l.discountCents,
        priceCents: l.priceCents,
        status:
          l.result === 'confirmed'
            ? 'confirmed'
            : l.result === 'refunded'
              ? 'refunded'
              : s.status === 'open'
                ? 'pending'
                : 'released',
      })),
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
      currency: s.currency.toUpperCase(),
      testMode: s.provider === 'local',
    };
    return { session: s, order, lines: own, refunds: ownRefunds, people };
  });
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
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), inArray(checkoutSessions.status, SHOWN)))
    .orderBy(desc(checkoutSessions.createdAt), desc(checkoutSessions.id))
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
    .from(checkoutSessions)
    .where(and(orderRefIs(ref), eq(checkoutSessions.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Order not found');
  return (await presentOrders(db, [row]))[0]!;
}

/** The order a guest link's token opens (a counter sale kept for an unverified email), by the token's hash; or null. */
export async function orderByGuestToken(
  db: Queryable,
  tokenHash: string,
): Promise<{ sessionId: string; userId: string; order: Order } | null> {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.guestTokenHash, tokenHash))
    .limit(1);
  if (!row?.ref) return null;
  return { sessionId: row.id, userId: row.userId, order: (await presentOrders(db, [row]))[0]! };
}
