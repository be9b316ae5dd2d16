import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import {
  bookings,
  orderLines,
  orderPayments,
  orders,
  halls,
  movies,
  users,
  seats,
  showtimes,
  type OrderStatus,
  type PaymentProviderName,
} from '../../db/schema/index.ts';
import { fulfilCheckout, releaseCheckout } from './fulfilment.service.ts';
import { UUID, type PaymentDeps } from './payment-deps.ts';
import { customerLanguage, type Language } from '../../i18n.ts';

// ---------------------------------------------------------------------------------------------------------------
// The local provider's hosted page: what it shows, its Pay button and its Cancel link.

export interface CheckoutSummary {
  id: string;
  provider: PaymentProviderName;
  status: OrderStatus;
  expiresAt: Date;
  amountCents: number;
  currency: string;
  items: {
    movie: string;
    auditorium: string;
    startsAt: Date;
    row: number;
    number: number;
    rowLabel: string;
    priceCents: number;
    ticketType: string | null;
    seatType: string | null;
  }[];
  ref: string | null;
  discountCents: number;
  promoCode: string | null;
  /** What gift cards pay of it (reserved on the order): the page charges the rest. */
  giftCardCents: number;
  /** Booking fees (DESIGN §7.4): each a line of its own. */
  fees: { description: string; quantity: number; priceCents: number }[];
  /** Food and drink (PRODUCT lines), each with its quantity and what it costs in this order. */
  products: { description: string; quantity: number; priceCents: number }[];
  /** Gift cards bought in this order (GIFT_CARD lines): their value and who each is for. */
  gifts: { recipientEmail: string | null; priceCents: number }[];
  /** The customer's language (en, es, de): the page speaks it. */
  language: Language;
}

/** A session with what it pays for (movie, hall, time, seats, prices), for the local payment page. */
export async function getCheckoutSummary(db: Queryable, sessionId: string): Promise<CheckoutSummary | null> {
  if (!UUID.test(sessionId)) return null;
  const [session] = await db.select().from(orders).where(eq(orders.id, sessionId)).limit(1);
  if (!session) return null;
  const [customer] = await db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.id, session.userId))
    .limit(1);
  const items = await db
    .select({
      movie: movies.title,
      auditorium: halls.name,
      startsAt: showtimes.startsAt,
      row: seats.row,
      number: seats.number,
      rowLabel: seats.rowLabel,
      priceCents: orderLines.priceCents,
      ticketType: orderLines.ticketTypeName,
      seatType: orderLines.seatType,
    })
    .from(orderLines)
    .innerJoin(bookings, eq(bookings.id, orderLines.bookingId))
    .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .innerJoin(seats, eq(seats.id, bookings.seatId))
    .where(eq(orderLines.orderId, sessionId))
    .orderBy(asc(showtimes.startsAt), asc(seats.row), asc(seats.number));
  // The order's other lines (fees, food and drink, gift cards bought), each listed apart on the page.
  const others = await db
    .select({
      kind: orderLines.kind,
      description: sql<string>`coalesce(${orderLines.description}, '')`,
      quantity: orderLines.quantity,
      priceCents: orderLines.priceCents,
      recipientEmail: orderLines.recipientEmail,
    })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, sessionId), inArray(orderLines.kind, ['FEE', 'PRODUCT', 'GIFT_CARD'])))
    .orderBy(asc(orderLines.description), asc(orderLines.id));
  const ofKind = (kind: (typeof others)[number]['kind']) =>
    others
      .filter((l) => l.kind === kind)
      .map(({ description, quantity, priceCents }) => ({ description, quantity, priceCents }));
  const fees = ofKind('FEE');
  const products = ofKind('PRODUCT');
  const gifts = others
    .filter((l) => l.kind === 'GIFT_CARD')
    .map(({ recipientEmail, priceCents }) => ({ recipientEmail, priceCents }));
  const [cards] = await db
    .select({ cents: sql<number>`coalesce(sum(${orderPayments.amountCents}), 0)::int` })
    .from(orderPayments)
    .where(
      and(
        eq(orderPayments.orderId, sessionId),
        eq(orderPayments.method, 'GIFT_CARD'),
        inArray(orderPayments.status, ['PENDING', 'PAID']),
      ),
    );
  return {
    id: session.id,
    provider: session.provider,
    status: session.status,
    expiresAt: session.expiresAt,
    amountCents: session.amountCents,
    currency: session.currency,
    items,
    ref: session.ref,
    discountCents: session.discountCents,
    promoCode: session.promoCode,
    giftCardCents: Number(cards?.cents ?? 0),
    fees,
    products,
    gifts,
    language: customerLanguage(customer?.language),
  };
}

export type LocalPaymentResult = 'paid' | 'expired' | 'cancelled' | 'superseded' | 'not_found';

/**
 * The local page's Pay button: "charges" an open local session inside its window and fulfils it through the
 * same function a webhook uses. Paying twice is harmless; a closed or expired session is not charged.
 */
export async function payLocalCheckout(deps: PaymentDeps, sessionId: string): Promise<LocalPaymentResult> {
  const session = await getCheckoutSummary(deps.db, sessionId);
  if (!session || session.provider !== 'local') return 'not_found';
  if (session.status !== 'OPEN') return closedResult(session.status);
  if (session.expiresAt.getTime() <= Date.now()) {
    await releaseCheckout(deps, sessionId, 'EXPIRED');
    return 'expired';
  }
  await fulfilCheckout(deps, sessionId, { paymentId: `local_pay_${randomUUID()}` });
  return 'paid';
}

// What a closed session means for the page: paid (even if partly refunded), or not payable any more.
const closedResult = (status: Exclude<OrderStatus, 'OPEN'>): LocalPaymentResult =>
  status === 'CANCELLED' || status === 'EXPIRED' || status === 'SUPERSEDED'
    ? (status.toLowerCase() as LocalPaymentResult)
    : 'paid';

/** The local page's Cancel link: closes an open local session and releases its holds. */
export async function cancelLocalCheckout(deps: PaymentDeps, sessionId: string): Promise<LocalPaymentResult> {
  const session = await getCheckoutSummary(deps.db, sessionId);
  if (!session || session.provider !== 'local') return 'not_found';
  if (session.status !== 'OPEN') return closedResult(session.status);
  if (await releaseCheckout(deps, sessionId, 'CANCELLED')) return 'cancelled';
  // Something else closed it first (a payment in another tab): report what it became.
  const after = await getCheckoutSummary(deps.db, sessionId);
  return after && after.status !== 'OPEN' ? closedResult(after.status) : 'cancelled';
}
