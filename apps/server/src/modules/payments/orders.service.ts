import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Order, OrderLine } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import {
  bookings,
  checkoutSessionBookings,
  checkoutSessions,
  halls,
  movies,
  paymentRefunds,
  showtimes,
  type CheckoutStatus,
} from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';

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

/** The orders (checkout sessions) given, whole: lines, discount, refunds. */
async function presentOrders(db: Queryable, sessions: SessionRow[]): Promise<Order[]> {
  if (sessions.length === 0) return [];
  const ids = sessions.map((s) => s.id);
  const [lines, refunds] = await Promise.all([
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
      })
      .from(paymentRefunds)
      .where(inArray(paymentRefunds.sessionId, ids))
      .orderBy(asc(paymentRefunds.createdAt)),
  ]);
  return sessions.map((s): Order => {
    const own = lines.filter((l) => l.sessionId === s.id);
    const ownRefunds = refunds.filter((r) => r.sessionId === s.id);
    return {
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
    .where(
      and(
        eq(sql`upper(${checkoutSessions.ref})`, ref.trim().toUpperCase()),
        eq(checkoutSessions.userId, userId),
      ),
    )
    .limit(1);
  if (!row) throw notFound('Order not found');
  return (await presentOrders(db, [row]))[0]!;
}
