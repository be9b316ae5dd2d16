import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SeatStatus } from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable, type Tx } from '../../db/database.ts';
import { liveBookingOfSeats } from '../../db/live-booking.ts';
import { bookings, orderLines, orders, type LineKind } from '../../db/schema/index.ts';
import { issueCard, voidSoldCards } from '../gift-cards/gift-cards.service.ts';
import type { SeatChange } from '../../events.ts';
import { productLines } from '../concessions/product-lines.ts';

/**
 * What each kind of order line does when its order is paid and when it is refunded (decision 039). markPaid and
 * refundLines know nothing of seats, stock or cards: they ask the line's kind. A new kind is a new entry here (see
 * docs/orders.md).
 */
export interface LineKindRules {
  /**
   * Inside markPaid's transaction: hands over what these paid lines sell (a ticket confirms its seat). A line that
   * cannot be delivered any more (its seat was taken after its hold ran out) is `lost`: refunded whole at once.
   */
  deliver(
    tx: Tx,
    orderId: string,
    lines: readonly OrderLineRef[],
    context: DeliveryContext,
  ): Promise<Delivery>;
  /** Inside refundLines' transaction: takes back what these refunded lines gave (a ticket's seat is on sale again). */
  takeBack(tx: Tx, lines: readonly OrderLineRef[]): Promise<SeatChange[]>;
}

/** What delivering needs from the configuration. */
export interface DeliveryContext {
  /** GIFT_CARD_MONTHS: a gift card issued now expires this many months later. */
  giftCardMonths: number;
}

/** A line as delivery and refunds need it. */
export interface OrderLineRef {
  id: string;
  kind: LineKind;
  bookingId: string | null;
  priceCents: number;
}

export interface Delivery {
  delivered: OrderLineRef[];
  lost: OrderLineRef[];
  /** What seat maps must be told after commit: seats sold, and lost seats as they are now. */
  seats: SeatChange[];
}

/**
 * Locks these bookings FOR UPDATE in seat order, as the hold retires expired rows, so no two writers (holds,
 * fulfilment, refunds, exchanges) can deadlock each other. Nothing to lock for no ids.
 */
export async function lockBookingsInSeatOrder(tx: Tx, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return tx
    .select({
      id: bookings.id,
      status: bookings.status,
      showtimeId: bookings.showtimeId,
      seatId: bookings.seatId,
      checkedInAt: bookings.checkedInAt,
      orderId: bookings.checkoutSessionId,
    })
    .from(bookings)
    .where(inArray(bookings.id, bookingIds))
    .orderBy(asc(bookings.seatId), asc(bookings.id))
    .for('update');
}

type LockedBooking = Awaited<ReturnType<typeof lockBookingsInSeatOrder>>[number];

/** The status seat maps show now for these seats (another customer's live booking, or free). */
async function currentSeatStatuses(
  db: Queryable,
  items: { showtimeId: string; seatId: string }[],
): Promise<SeatChange[]> {
  const live: { showtimeId: string; seatId: string; status: string }[] = [];
  // One showtime at a time, by its seats' key: a seat id alone has no index but those over every live booking.
  for (const showtimeId of new Set(items.map((i) => i.showtimeId))) {
    live.push(
      ...(await db
        .select({ showtimeId: bookings.showtimeId, seatId: bookings.seatId, status: bookings.status })
        .from(bookings)
        .where(
          liveBookingOfSeats(
            showtimeId,
            items.filter((i) => i.showtimeId === showtimeId).map((i) => i.seatId),
          ),
        )),
    );
  }
  return items.map((i) => {
    const b = live.find((l) => l.showtimeId === i.showtimeId && l.seatId === i.seatId);
    const status: SeatStatus = b?.status === 'CONFIRMED' ? 'CONFIRMED' : b ? 'HELD' : 'AVAILABLE';
    return { showtimeId: i.showtimeId, seatId: i.seatId, status };
  });
}

/**
 * Tickets. Paid: each booking is confirmed when its seat is still the customer's (a hold, live or run out but not
 * yet swept; a counter sale's seats are written sold to the order already) or free again (an expired or cancelled hold nobody took since: the partial unique index decides);
 * anything else is lost to this payment. Refunded: the booking is refunded and its seat is on sale again.
 */
const tickets: LineKindRules = {
  async deliver(tx, orderId, lines) {
    const locked = new Map(
      (
        await lockBookingsInSeatOrder(
          tx,
          lines.flatMap((l) => (l.bookingId ? [l.bookingId] : [])),
        )
      ).map((b) => [b.id, b]),
    );
    const confirm = (q: Queryable, booking: LockedBooking) =>
      q
        .update(bookings)
        .set({
          status: 'CONFIRMED',
          confirmedAt: sql`now()`,
          checkoutSessionId: orderId,
          updatedAt: sql`now()`,
        })
        .where(eq(bookings.id, booking.id));
    const delivered: OrderLineRef[] = [];
    const lost: OrderLineRef[] = [];
    const sold: LockedBooking[] = [];
    const gone: LockedBooking[] = [];
    for (const line of lines) {
      const booking = line.bookingId ? locked.get(line.bookingId) : undefined;
      if (booking?.status === 'CONFIRMED' && booking.orderId === orderId) {
        // Sold by this order from the start (a counter sale writes its seats sold): delivered already.
        delivered.push(line);
        sold.push(booking);
      } else if (booking?.status === 'HELD') {
        // Live or past its expiry but not yet swept: the row still occupies the seat, so it is ours.
        await confirm(tx, booking);
        delivered.push(line);
        sold.push(booking);
      } else if (booking?.status === 'EXPIRED' || booking?.status === 'CANCELLED') {
        // Free only if nobody took it meanwhile: the unique index decides, in a savepoint so a conflict does not
        // abort the whole transaction.
        try {
          await tx.transaction(async (sp) => {
            await confirm(sp, booking);
          });
          delivered.push(line);
          sold.push(booking);
        } catch (err) {
          if (pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
          await tx
            .update(bookings)
            .set({ status: 'REFUNDED', updatedAt: sql`now()` })
            .where(eq(bookings.id, booking.id));
          lost.push(line);
          gone.push(booking);
        }
      } else {
        // Confirmed by another payment of the same holds, already refunded, or deleted with its showtime.
        lost.push(line);
        if (booking) gone.push(booking);
      }
    }
    return {
      delivered,
      lost,
      seats: [
        ...sold.map((b) => ({ showtimeId: b.showtimeId, seatId: b.seatId, status: 'CONFIRMED' as const })),
        ...(await currentSeatStatuses(tx, gone)),
      ],
    };
  },
  async takeBack(tx, lines) {
    const ids = lines.flatMap((l) => (l.bookingId ? [l.bookingId] : []));
    if (ids.length === 0) return [];
    const freed = await tx
      .update(bookings)
      .set({ status: 'REFUNDED', updatedAt: sql`now()` })
      .where(and(inArray(bookings.id, ids), eq(bookings.status, 'CONFIRMED')))
      .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId });
    return freed.map((f) => ({ ...f, status: 'AVAILABLE' as const }));
  },
};

/** Lines of a kind with nothing to hand over or take back (what they sold is the line itself). */
const nothingToHandOver: LineKindRules = {
  deliver: async (_tx, _orderId, lines) => ({ delivered: [...lines], lost: [], seats: [] }),
  takeBack: async () => [],
};

/**
 * Gift cards (decision 045). Paid: each line issues its card (a fresh code, its value, expiring GIFT_CARD_MONTHS
 * later, for the line's recipient); never lost. Refunded: a card nobody used is voided; one that paid for anything
 * (or holds a reservation) refuses the refund, 409 `gift_card_used`, and nothing is refunded.
 */
const giftCardLines: LineKindRules = {
  async deliver(tx, orderId, lines, context) {
    const [order] = await tx
      .select({ currency: orders.currency, soldBy: orders.soldBy, userId: orders.userId })
      .from(orders)
      .where(eq(orders.id, orderId));
    const rows = await tx
      .select({
        id: orderLines.id,
        priceCents: orderLines.priceCents,
        recipientEmail: orderLines.recipientEmail,
        message: orderLines.message,
      })
      .from(orderLines)
      .where(
        inArray(
          orderLines.id,
          lines.map((l) => l.id),
        ),
      )
      .orderBy(asc(orderLines.id));
    for (const line of rows) {
      await issueCard(tx, {
        amountCents: line.priceCents,
        currency: order!.currency,
        months: context.giftCardMonths,
        orderId,
        lineId: line.id,
        recipientEmail: line.recipientEmail,
        message: line.message,
        // Who sold it: the staff member at the counter, else the customer who bought it online.
        createdBy: order!.soldBy ?? order!.userId,
      });
    }
    return { delivered: [...lines], lost: [], seats: [] };
  },
  async takeBack(tx, lines) {
    await voidSoldCards(
      tx,
      lines.map((l) => l.id),
    );
    return [];
  },
};

export const LINE_KIND_RULES: Record<LineKind, LineKindRules> = {
  TICKET: tickets,
  PRODUCT: productLines,
  GIFT_CARD: giftCardLines,
  FEE: nothingToHandOver,
};

/** Runs a kind's rule over lines of every kind, one kind at a time (tickets first: seats are what races). */
export async function byKind<R>(
  lines: readonly OrderLineRef[],
  run: (rules: LineKindRules, lines: OrderLineRef[]) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (const kind of Object.keys(LINE_KIND_RULES) as LineKind[]) {
    const own = lines.filter((l) => l.kind === kind);
    if (own.length > 0) results.push(await run(LINE_KIND_RULES[kind], own));
  }
  return results;
}
