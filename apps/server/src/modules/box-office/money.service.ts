import { randomBytes } from 'node:crypto';
import { taxOn } from '@cinema/contract/constants';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type {
  CounterQuote,
  CounterSaleBody,
  ExchangeBody,
  ExchangeResponse,
  RefundBody,
  RefundResponse,
  StaffOrder,
} from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable, type Tx } from '../../db/database.ts';
import { liveBookingOfSeats } from '../../db/live-booking.ts';
import { bookings, movies, orderLines, orders, seats, showtimes, users } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { AppError, badRequest, conflict, conflictSaying, notFound } from '../../errors.ts';
import { namingSeats } from '../../i18n.ts';
import { transactionWithEvents, type SeatChange } from '../../events.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { writeProductLines } from '../concessions/price-products.ts';
import { insertSession, seatName } from '../payments/checkout.service.ts';
import { sendPendingRefunds } from '../payments/fulfilment.service.ts';
import { lockBookingsInSeatOrder } from '../orders/line-kinds.ts';
import { markPaid } from '../orders/mark-paid.ts';
import { reserveCards } from '../gift-cards/gift-cards.service.ts';
import { presentStaffOrders } from '../orders/orders.service.ts';
import {
  feeLineValues,
  giftCardLineValues,
  priceGiftCards,
  priceLines,
  ticketLineValues,
} from '../orders/price-lines.ts';
import { refundLines } from '../orders/refund-lines.ts';
import type { PaymentDeps } from '../payments/payment-deps.ts';
import { findSession } from './staff-orders.service.ts';
import { walkInUserId } from './walk-in.ts';

/** The lines of an order with the state of their tickets, locked (the order's row is locked first, by the caller). */
async function linesOf(tx: Tx, sessionId: string) {
  const lines = await tx
    .select({
      id: orderLines.id,
      kind: orderLines.kind,
      bookingId: orderLines.bookingId,
      result: orderLines.result,
      row: orderLines.seatRow,
      number: orderLines.seatNumber,
      rowLabel: orderLines.seatRowLabel,
      seatType: orderLines.seatType,
      ticketTypeId: orderLines.ticketTypeId,
      listPriceCents: orderLines.listPriceCents,
      discountCents: orderLines.discountCents,
      priceCents: orderLines.priceCents,
      dueCents: orderLines.dueCents,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, sessionId));
  const ids = lines.flatMap((l) => (l.bookingId ? [l.bookingId] : []));
  const booked = await lockBookingsInSeatOrder(tx, ids);
  // Every line sold today is a ticket, with its seat (order_lines_ticket_check); a line of another kind names no seat.
  return lines.map((l) => ({
    ...l,
    row: l.row ?? 0,
    number: l.number ?? 0,
    booking: booked.find((b) => b.id === l.bookingId) ?? null,
  }));
}

type Line = Awaited<ReturnType<typeof linesOf>>[number];

/** The lines a request names, by booking id: 400 naming any that are not tickets of this order. */
function namedLines(lines: Line[], bookingIds: string[]): Line[] {
  const wanted = [...new Set(bookingIds.map((id) => id.toLowerCase()))];
  const missing = wanted.filter((id) => !lines.some((l) => l.bookingId === id));
  if (missing.length > 0) {
    throw badRequest('Some of these tickets are not in this order', { bookingIds: missing });
  }
  return lines.filter((l) => l.bookingId && wanted.includes(l.bookingId));
}

/**
 * The food and drink (or gift card) lines a request names, by line id: 400 naming any that are not lines of that kind
 * in this order.
 */
function namedLinesOf(kind: 'PRODUCT' | 'GIFT_CARD', lines: Line[], lineIds: string[]): Line[] {
  const wanted = [...new Set(lineIds.map((id) => id.toLowerCase()))];
  const missing = wanted.filter((id) => !lines.some((l) => l.kind === kind && l.id === id));
  if (missing.length > 0) {
    throw kind === 'PRODUCT'
      ? badRequest('Some of these items are not in this order', { productLineIds: missing })
      : badRequest('Some of these gift cards are not in this order', { giftCardLineIds: missing });
  }
  return lines.filter((l) => l.kind === kind && wanted.includes(l.id));
}

/** 409 for tickets already used at the door, unless staff confirm (`force`). */
function refuseUsed(lines: Line[], force: boolean | undefined, question: 'used_refund' | 'used_move') {
  const used = lines.filter((l) => l.booking?.checkedInAt);
  if (used.length > 0 && !force) {
    throw conflictSaying(namingSeats(question, used), 'checked_in', {
      bookingIds: used.map((l) => l.bookingId),
    });
  }
}

/** What the customer has paid for a line so far: its price less what is still to collect. */
const paidFor = (l: Pick<Line, 'priceCents' | 'dueCents'>) => Math.max(0, l.priceCents - l.dueCents);

const summary = (l: Line) => ({
  bookingId: l.bookingId,
  seat: seatName(l),
  priceCents: l.priceCents,
  dueCents: l.dueCents,
  result: l.result,
});

async function present(db: Queryable, sessionId: string): Promise<StaffOrder> {
  const [row] = await db.select().from(orders).where(eq(orders.id, sessionId));
  return (await presentStaffOrders(db, [row!]))[0]!;
}

/**
 * `POST /api/admin/orders/{ref}/refund`: refunds the chosen tickets (or every ticket still standing) in one
 * transaction (refundLines): the seats are free again at once, each line is refunded whole exactly once (the
 * order's row lock orders concurrent requests; `order_refunds_whole_line_unique` backs it), the order's status
 * follows, and the money goes back to the payments that paid it after commit (Stripe's refund API; recorded for
 * cash, the card terminal and free orders). Asking again for tickets already refunded changes nothing and answers 200 with nothing refunded.
 * After commit: the seats' maps and `orderRefunded` (the refund notice, metrics).
 */
export async function refundOrder(
  deps: PaymentDeps,
  actor: Actor,
  ref: string,
  body: RefundBody,
): Promise<RefundResponse> {
  const done = await transactionWithEvents(deps, async (tx, after) => {
    const session = await findSession(tx, ref, true);
    const lines = await linesOf(tx, session.id);
    const named =
      body.bookingIds !== undefined ||
      body.productLineIds !== undefined ||
      body.giftCardLineIds !== undefined;
    const chosen = named
      ? [
          ...(body.bookingIds ? namedLines(lines, body.bookingIds) : []),
          ...(body.productLineIds ? namedLinesOf('PRODUCT', lines, body.productLineIds) : []),
          ...(body.giftCardLineIds ? namedLinesOf('GIFT_CARD', lines, body.giftCardLineIds) : []),
        ]
      : // The whole order: its booking fees follow the tickets as far as they are refundable (refundLines).
        lines.filter((l) => l.kind !== 'FEE');
    const never = chosen.filter((l) => l.result === null);
    if (named && never.length > 0) {
      throw conflictSaying(namingSeats('never_paid', never), 'not_refundable', {
        bookingIds: never.map((l) => l.bookingId),
      });
    }
    const refunding = chosen.filter((l) => l.result === 'confirmed');
    if (refunding.length === 0) return { sessionId: session.id, refunded: [] as Line[], refundedCents: 0 };
    refuseUsed(refunding, body.force, 'used_refund');

    const { refundedCents } = await refundLines(tx, after, {
      order: { id: session.id, ref: session.ref ?? ref },
      refunds: refunding.map((line) => ({ line, amountCents: paidFor(line), whole: true })),
      kind: 'staff',
      createdBy: actor.id,
      reason: body.reason || null,
    });
    const standing =
      lines.filter((l) => l.result === 'confirmed' && l.kind !== 'FEE').length - refunding.length;
    await recordAudit(tx, actor, {
      action: 'order.refund',
      subjectType: 'order',
      subjectId: session.ref,
      before: { status: session.status, lines: refunding.map(summary) },
      after: {
        status: standing === 0 ? 'REFUNDED' : 'PARTLY_REFUNDED',
        refundedCents,
        reason: body.reason || null,
        ...(body.force && { usedTicketsRefunded: true }),
      },
    });
    return { sessionId: session.id, refunded: refunding, refundedCents };
  });
  if (done.refunded.length > 0) await sendPendingRefunds(deps, done.sessionId);
  return {
    order: await present(deps.db, done.sessionId),
    // With the booking fees that followed the tickets.
    refundedCents: done.refundedCents,
    refundedBookingIds: done.refunded.flatMap((l) => (l.bookingId ? [l.bookingId] : [])),
  };
}

/** A showtime as selling needs it; 404 when there is none. */
async function sellableShowtime(q: Queryable, showtimeId: string) {
  const [showtime] = await q
    .select({
      id: showtimes.id,
      movieId: showtimes.movieId,
      hallId: showtimes.hallId,
      startsAt: showtimes.startsAt,
      ended: sql<boolean>`${showtimes.endsAt} <= now()`,
      priceCents: showtimes.priceCents,
      priceCardId: showtimes.priceCardId,
      attributes: showtimes.attributes,
      film: { title: movies.title, rating: movies.rating },
    })
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .where(eq(showtimes.id, showtimeId));
  if (!showtime) throw notFound('Showtime not found');
  if (showtime.ended) throw conflict('This showtime has ended', 'showtime_started');
  return showtime;
}

/** Seats of the hall as staff may sell them: any seat of the layout, blocked ones too; 400 naming the others. */
async function hallSeats(q: Queryable, hallId: string, seatIds: string[]) {
  const found = await q
    .select({
      id: seats.id,
      row: seats.row,
      number: seats.number,
      rowLabel: seats.rowLabel,
      type: seats.type,
    })
    .from(seats)
    .where(and(inArray(seats.id, seatIds), eq(seats.hallId, hallId), isNull(seats.retiredAt)));
  const missing = seatIds.filter((id) => !found.some((s) => s.id === id));
  if (missing.length > 0) {
    throw badRequest('Some seats are not in this showtime’s hall', { seatIds: missing });
  }
  return found;
}

/** Holds that ran out on these seats but were not swept yet stop occupying them (as a new hold does). */
async function retireExpiredHolds(tx: Tx, showtimeId: string, seatIds: string[]) {
  await tx
    .update(bookings)
    .set({ status: 'EXPIRED', updatedAt: sql`now()` })
    .where(
      and(
        eq(bookings.showtimeId, showtimeId),
        inArray(bookings.seatId, seatIds),
        eq(bookings.status, 'HELD'),
        sql`${bookings.expiresAt} <= now()`,
      ),
    );
}

/** Of these seats, the ones someone holds or bought (for a 409 after the unique index refused). */
async function takenSeats(db: Queryable, showtimeId: string, seatIds: string[]) {
  const rows = await db
    .select({ seatId: bookings.seatId })
    .from(bookings)
    .where(liveBookingOfSeats(showtimeId, seatIds));
  return rows.map((r) => r.seatId);
}

const seatTaken = (seatIds: string[]) =>
  conflict('Some seats are no longer available', 'seat_unavailable', { seatIds });

/**
 * `POST /api/admin/orders/{ref}/exchange`: moves tickets to other seats, of the same showtime or another, keeping
 * each ticket (its QR code stays valid). All moves or none: a target seat someone holds or bought is refused by the
 * partial unique index (409 `seat_unavailable`). Each ticket is priced again as its ticket type on its new seat
 * under the new showtime's price card, less the discount it had; a cheaper seat gives the difference back (an
 * `exchange` refund), a dearer one records what is still to collect (`dueCents`). A move already made (a double
 * click, a retry) is skipped. After commit: the seats' maps, `ticketsMoved`, and `orderRefunded` for money given back.
 */
export async function exchangeTickets(
  deps: PaymentDeps,
  actor: Actor,
  ref: string,
  body: ExchangeBody,
): Promise<ExchangeResponse> {
  const done = await transactionWithEvents(deps, async (tx, after) => {
    const session = await findSession(tx, ref, true);
    const lines = await linesOf(tx, session.id);
    const named = namedLines(
      lines,
      body.moves.map((m) => m.bookingId),
    );
    const notStanding = named.filter((l) => l.result !== 'confirmed' || !l.booking);
    if (notStanding.length > 0) {
      throw conflictSaying(namingSeats('only_paid_move', notStanding), 'not_refundable', {
        bookingIds: notStanding.map((l) => l.bookingId),
      });
    }
    const wanted = [];
    for (const move of body.moves) {
      const line = named.find((l) => l.bookingId === move.bookingId.toLowerCase())!;
      const booking = line.booking!;
      const showtimeId = (move.showtimeId ?? booking.showtimeId).toLowerCase();
      const seatId = move.seatId.toLowerCase();
      if (booking.showtimeId === showtimeId && booking.seatId === seatId) continue;
      const showtime = await sellableShowtime(tx, showtimeId);
      const [seat] = await hallSeats(tx, showtime.hallId, [seatId]);
      wanted.push({ line, booking, showtimeId, showtime, seat: seat! });
    }
    // Each ticket priced again as its ticket type on its new seat under the new showtime's card, less the discount
    // it had.
    const priced = await priceLines(tx, deps.config, {
      keysAre: 'bookingIds',
      tickets: wanted.map((w) => ({
        key: w.line.bookingId!,
        showtime: w.showtime,
        seat: w.seat,
        ticketTypeId: w.line.ticketTypeId,
      })),
    });
    const moves = wanted.map((w, i) => {
      const { listPriceCents, taxRateBp } = priced.lines[i]!;
      // Taxed at today's ticket rate and mode, as a new sale of the seat would be (decision 047).
      const { priceCents, taxCents } = taxOn(
        Math.max(0, listPriceCents - w.line.discountCents),
        taxRateBp,
        priced.taxMode,
      );
      const paid = paidFor(w.line);
      return {
        ...w,
        listPriceCents,
        priceCents,
        taxRateBp,
        taxCents,
        dueCents: Math.max(0, priceCents - paid),
        refundCents: Math.max(0, paid - priceCents),
      };
    });
    if (moves.length === 0) return { sessionId: session.id, moves };
    refuseUsed(
      moves.map((m) => m.line),
      body.force,
      'used_move',
    );

    for (const showtimeId of new Set(moves.map((m) => m.showtimeId))) {
      const targets = moves.filter((m) => m.showtimeId === showtimeId).map((m) => m.seat.id);
      await retireExpiredHolds(tx, showtimeId, targets);
    }
    // Two steps, so tickets of one order can swap seats: first every moving ticket lets go of its seat, then each
    // takes its new one, where the partial unique index refuses a seat anyone else holds or bought.
    await tx
      .update(bookings)
      .set({ status: 'EXPIRED' })
      .where(
        inArray(
          bookings.id,
          moves.map((m) => m.booking.id),
        ),
      );
    for (const m of moves) {
      try {
        await tx
          .update(bookings)
          .set({
            status: 'CONFIRMED',
            showtimeId: m.showtimeId,
            seatId: m.seat.id,
            priceCents: m.priceCents,
            checkedInAt: null,
            updatedAt: sql`now()`,
          })
          .where(eq(bookings.id, m.booking.id));
      } catch (err) {
        if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw seatTaken([m.seat.id]);
        throw err;
      }
      await tx
        .update(orderLines)
        .set({
          seatRow: m.seat.row,
          seatNumber: m.seat.number,
          seatRowLabel: m.seat.rowLabel,
          seatType: m.seat.type,
          unitPriceCents: m.listPriceCents,
          listPriceCents: m.listPriceCents,
          priceCents: m.priceCents,
          taxRateBp: m.taxRateBp,
          taxCents: m.taxCents,
          dueCents: m.dueCents,
          exchangedAt: sql`now()`,
        })
        .where(eq(orderLines.id, m.line.id));
    }
    const refunds = moves.filter((m) => m.refundCents > 0);
    await recordAudit(tx, actor, {
      action: 'order.exchange',
      subjectType: 'order',
      subjectId: session.ref,
      before: moves.map((m) => ({ ...summary(m.line), showtimeId: m.booking.showtimeId })),
      after: moves.map((m) => ({
        bookingId: m.line.bookingId,
        seat: seatName(m.seat),
        showtimeId: m.showtimeId,
        priceCents: m.priceCents,
        dueCents: m.dueCents,
        refundedCents: m.refundCents,
        ...(m.line.booking?.checkedInAt && { checkInCleared: true }),
      })),
    });
    const changes: SeatChange[] = [
      ...moves.map((m) => ({
        showtimeId: m.booking.showtimeId,
        seatId: m.booking.seatId,
        status: 'AVAILABLE' as const,
      })),
      ...moves.map((m) => ({ showtimeId: m.showtimeId, seatId: m.seat.id, status: 'CONFIRMED' as const })),
    ];
    // A seat given up by one ticket and taken by another of the order stays sold.
    const taken = new Set(
      changes.filter((c) => c.status === 'CONFIRMED').map((c) => `${c.showtimeId}/${c.seatId}`),
    );
    after.seats(changes.filter((c) => c.status === 'CONFIRMED' || !taken.has(`${c.showtimeId}/${c.seatId}`)));
    after.record('ticketsMoved', {
      sessionId: session.id,
      ref: session.ref ?? ref,
      moves: moves.map((m) => ({
        bookingId: m.booking.id,
        from: { showtimeId: m.booking.showtimeId, seatId: m.booking.seatId },
        to: { showtimeId: m.showtimeId, seatId: m.seat.id },
      })),
    });
    // A cheaper seat gives the difference back; the ticket stays.
    await refundLines(tx, after, {
      order: { id: session.id, ref: session.ref ?? ref },
      refunds: refunds.map((m) => ({
        line: m.line,
        amountCents: m.refundCents,
        whole: false,
        reason: `Moved to ${seatName(m.seat)}`,
      })),
      kind: 'exchange',
      createdBy: actor.id,
    });
    return { sessionId: session.id, moves };
  });
  if (done.moves.some((m) => m.refundCents > 0)) await sendPendingRefunds(deps, done.sessionId);
  return {
    order: await present(deps.db, done.sessionId),
    refundedCents: done.moves.reduce((sum, m) => sum + m.refundCents, 0),
    dueCents: done.moves.reduce((sum, m) => sum + m.dueCents - m.line.dueCents, 0),
    movedBookingIds: done.moves.map((m) => m.line.bookingId!),
  };
}

/**
 * The order a counter sale's `requestId` already made, when it is this staff member's same sale sent again (a double
 * click, a retry after a timeout); null when the id is new. The id of another sale, another seller's, an online order
 * or the same id with another body is a 422, and shows nothing of that order.
 */
async function replayedSale(
  db: Queryable,
  actor: Actor,
  requestId: string,
  body: CounterSaleBody,
): Promise<StaffOrder | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, requestId));
  if (!row) return null;
  const lines = await db
    .select({
      seatId: bookings.seatId,
      showtimeId: bookings.showtimeId,
      ticketTypeId: orderLines.ticketTypeId,
    })
    .from(orderLines)
    .innerJoin(bookings, eq(bookings.id, orderLines.bookingId))
    .where(eq(orderLines.orderId, row.id));
  const seatIds = new Set(body.seatIds.map((id) => id.toLowerCase()));
  const items = await db
    .select({ productId: orderLines.productId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, row.id), eq(orderLines.kind, 'PRODUCT')));
  const itemsKey = (list: { productId: string | null; quantity: number }[]) =>
    list
      .map((i) => `${i.productId?.toLowerCase()}×${i.quantity}`)
      .sort()
      .join(',');
  const same =
    row.provider === 'box_office' &&
    row.soldBy === actor.id &&
    row.paymentMethod === body.paymentMethod &&
    (row.customerEmail ?? null) === (body.customerEmail?.trim() || null) &&
    (row.customerName ?? null) === (body.customerName?.trim() || null) &&
    lines.length === seatIds.size &&
    itemsKey(items) === itemsKey(body.products ?? []) &&
    lines.every((l) => seatIds.has(l.seatId) && l.showtimeId === body.showtimeId?.toLowerCase()) &&
    (body.tickets ?? []).every((t) =>
      lines.some(
        (l) => l.seatId === t.seatId.toLowerCase() && l.ticketTypeId === t.ticketTypeId.toLowerCase(),
      ),
    );
  if (!same) {
    throw new AppError(
      422,
      'idempotency_key_reused',
      'This request id was used for another sale: start a new sale',
    );
  }
  return (await presentStaffOrders(db, [row]))[0]!;
}

/** A counter sale's food and drink, handed over by the seller with the sale: on the kitchen's last column at once. */
async function handedOverAtCounter(tx: Tx, orderId: string, actor: Actor) {
  await tx
    .update(orders)
    .set({ concessionStatus: 'COLLECTED', handedOverAt: sql`now()`, handedOverBy: actor.id })
    .where(and(eq(orders.id, orderId), eq(orders.concessionStatus, 'PREPARING')));
}

/** The seats a counter sale names (its showtime's), each once; 400 for a ticket type given for a seat not sold. */
function saleSeats(body: CounterSaleBody) {
  const showtimeId = body.showtimeId?.toLowerCase() ?? null;
  const seatIds = [...new Set(body.seatIds.map((id) => id.toLowerCase()))].sort();
  const chosen = new Map(
    (body.tickets ?? []).map((t) => [t.seatId.toLowerCase(), t.ticketTypeId.toLowerCase()]),
  );
  const stray = [...chosen.keys()].filter((id) => !seatIds.includes(id));
  if (stray.length > 0)
    throw badRequest('A ticket type was given for a seat that is not sold', { seatIds: stray });
  return { showtimeId, seatIds, chosen };
}

/**
 * A counter sale priced (priceLines, with the counter's booking fee) with the gift cards it sells, as the sale and its
 * quote charge it: 404 for a showtime or seat that is not there, 409 for a showtime over, 400 for cards paying cards.
 */
async function priceCounterSale(q: Queryable, deps: PaymentDeps, body: CounterSaleBody) {
  const { showtimeId, seatIds, chosen } = saleSeats(body);
  const showtime = showtimeId ? await sellableShowtime(q, showtimeId) : null;
  const found = showtime ? await hallSeats(q, showtime.hallId, seatIds) : [];
  const priced = await priceLines(q, deps.config, {
    keysAre: 'seatIds',
    fees: 'COUNTER',
    products: body.products ?? [],
    tickets: found
      .sort((a, b) => a.row - b.row || a.number - b.number)
      .map((seat) => ({
        key: seat.id,
        showtime: showtime!,
        seat,
        ticketTypeId: chosen.get(seat.id) ?? null,
      })),
  });
  const gifts = priceGiftCards(body.giftCards ?? [], deps.config.currency);
  if (gifts.length > 0 && body.redeem?.length) throw badRequest('Gift cards cannot pay for gift cards');
  const giftsCents = gifts.reduce((total, g) => total + g.amountCents, 0);
  return { priced, gifts, giftsCents, totalCents: priced.totalCents + giftsCents };
}

/** `POST /api/admin/box-office/quote`: what a counter sale would charge, its booking fees and tax; nothing written. */
export async function quoteCounterSale(deps: PaymentDeps, body: CounterSaleBody): Promise<CounterQuote> {
  const { priced, totalCents } = await priceCounterSale(deps.db, deps, body);
  return {
    totalCents,
    taxCents: priced.taxCents,
    taxMode: priced.taxMode,
    fees: priced.fees.map((f) => ({ per: f.per, quantity: f.quantity, totalCents: f.priceCents })),
    currency: deps.config.currency,
  };
}

/**
 * `POST /api/admin/box-office/sales`: sells seats at the counter, paid at once in cash or on the card terminal.
 * Blocked seats may be sold (house seats are the box office's to give); a seat anyone holds or bought is refused by
 * the partial unique index (409 `seat_unavailable`), never sold twice. The tickets belong to the customer's account
 * when a verified account has their email; else to the walk-in account, as a guest order whose emailed link (a
 * token only its hash is kept of) shows it, until an account verifies that email and claims it. With `requestId`,
 * the same sale sent again answers with the order it made. Paid at once, it tells what fulfilment tells after commit
 * (recordPayment: seat maps, the confirmation email to the customer's address, metrics); a sale that fails tells
 * nothing.
 */
export async function counterSale(
  deps: PaymentDeps,
  actor: Actor,
  body: CounterSaleBody,
): Promise<StaffOrder> {
  const { db } = deps;
  const requestId = body.requestId?.toLowerCase();
  const earlier = async () => (requestId ? replayedSale(db, actor, requestId, body) : null);
  const replay = await earlier();
  if (replay) return replay;

  const { showtimeId, seatIds } = saleSeats(body);
  const email = body.customerEmail?.trim() || null;
  // Only an address its owner proved reaches an account: anyone may register any email (issue 31).
  const [account] = email
    ? await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(sql`lower(${users.email})`, email.toLowerCase()),
            isNotNull(users.emailVerifiedAt),
            isNotNull(users.passwordHash),
          ),
        )
    : [];
  const userId = account?.id ?? (await walkInUserId(db));
  const guestToken = email && !account ? randomBytes(32).toString('base64url') : null;

  let sold: { sessionId: string };
  try {
    sold = await transactionWithEvents(deps, async (tx, after) => {
      const { priced, gifts, giftsCents, totalCents } = await priceCounterSale(tx, deps, body);
      const lines = priced.lines;
      if (showtimeId) await retireExpiredHolds(tx, showtimeId, seatIds);
      const session = await insertSession(tx, {
        ...(requestId && { id: requestId }),
        userId,
        provider: 'box_office',
        amountCents: totalCents,
        subtotalCents: priced.subtotalCents + giftsCents,
        discountCents: priced.discountCents,
        taxMode: priced.taxMode,
        promoCode: null,
        currency: deps.config.currency,
        paymentMethod: body.paymentMethod,
        soldBy: actor.id,
        customerEmail: email,
        customerName: body.customerName?.trim() || null,
        guestTokenHash: guestToken ? hashToken(guestToken) : null,
        ...(priced.products.length > 0 && { fulfilment: 'PICKUP' as const }),
      });
      // Each seat written sold to the sale at once (the partial unique index refuses a seat anyone holds or bought);
      // the order is then paid through markPaid, as every order is, which finds them delivered (and issues the gift
      // cards it sells).
      const made =
        lines.length === 0
          ? []
          : await tx
              .insert(bookings)
              .values(
                lines.map((l) => ({
                  showtimeId: showtimeId!,
                  seatId: l.ticket.key,
                  userId,
                  status: 'CONFIRMED' as const,
                  priceCents: l.priceCents,
                  checkoutSessionId: session.id,
                  confirmedAt: sql`now()`,
                })),
              )
              .returning({ id: bookings.id, seatId: bookings.seatId });
      const ticketAndCardLines = [
        ...lines.map((l) =>
          ticketLineValues(l, session.id, made.find((b) => b.seatId === l.ticket.key)!.id, 'confirmed'),
        ),
        ...gifts.map((g) => giftCardLineValues(g, session.id)),
        ...priced.fees.map((f) => feeLineValues(f, session.id)),
      ];
      if (ticketAndCardLines.length > 0) await tx.insert(orderLines).values(ticketAndCardLines);
      await writeProductLines(tx, session.id, priced.products);
      // Gift cards pay first (reserved, then captured by markPaid with the rest in cash or on the terminal).
      const giftCards = body.redeem?.length
        ? await reserveCards(tx, {
            orderId: session.id,
            codes: body.redeem.map((r) => r.code),
            currency: deps.config.currency,
            totalCents,
            userId: actor.id,
          })
        : [];
      await recordAudit(tx, actor, {
        action: 'order.counter_sale',
        subjectType: 'order',
        subjectId: session.ref,
        after: {
          showtimeId,
          seats: lines.map((l) => `${seatName(l.ticket.seat)} · ${l.ticketTypeName}`),
          totalCents,
          paymentMethod: body.paymentMethod,
          customerEmail: email,
          ...(giftCards.length > 0 && { giftCards }),
          ...(gifts.length > 0 && { giftCardsSold: gifts.map((g) => g.amountCents) }),
          ...(priced.products.length > 0 && {
            items: priced.products.map((l) => `${l.quantity} × ${l.description}`),
          }),
        },
      });
      await markPaid(tx, after, {
        orderId: session.id,
        payment: { method: body.paymentMethod === 'card' ? 'CARD_TERMINAL' : 'CASH', takenBy: actor.id },
        channel: 'box_office',
        giftCardMonths: deps.config.giftCardMonths,
        ...(guestToken && { guestToken }),
      });
      // Food and drink sold at the counter is handed over there and then, by the seller (ID checked there too).
      if (priced.products.length > 0) await handedOverAtCounter(tx, session.id, actor);
      return { sessionId: session.id };
    });
  } catch (err) {
    if (pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
    // The same request sold already (a double click that raced this one), or a seat someone else holds or bought.
    const again = await earlier();
    if (again) return again;
    if (!showtimeId) throw err;
    throw seatTaken(await takenSeats(db, showtimeId, seatIds));
  }
  return present(db, sold.sessionId);
}
