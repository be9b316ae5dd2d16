import {
  formatGiftCardCode,
  giftCardAmounts,
  minorToText,
  type GiftCardPurchase,
  type OrderLine,
  type ProductOrder,
  type SeatType,
} from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { badRequest, conflictSaying } from '../../errors.ts';
import { namingSeats } from '../../i18n.ts';
import { discountOf, shareDiscount } from '../pricing/price-table.ts';
import { PriceBook, refuseTypeNotForRating, type PricedShowtime } from '../pricing/pricing.service.ts';
import { checkPromo, type PromoCheck } from '../pricing/promo.service.ts';
import { priceProducts, type PricedProductLine } from '../concessions/price-products.ts';

/**
 * THE pricing of an order's lines (DESIGN §7.1, decision 039), for the online checkout and its quote, a counter sale
 * and an exchange: the server prices everything, a client never sends a price. A ticket is its ticket type (the
 * seat type's default unless chosen) on its seat type under the showtime's price card; a promo code's discount is
 * shared out over the lines it covers in whole minor units, never below zero. Each line comes back with its unit
 * price, quantity, discount, tax rate and tax, as the order keeps it.
 */

/** A seat to price as a ticket: its showtime, its seat, the ticket type asked for (if any). */
export interface TicketToPrice {
  /** What the caller names the line by in a refusal (a booking's id online, a seat's at the counter). */
  key: string;
  /** Its film's title and certificate: a ticket type may exclude the certificate (DESIGN §7.5). */
  showtime: PricedShowtime & { id: string; movieId: string; film: { title: string; rating: string | null } };
  seat: { row: number; number: number; rowLabel?: string | null; type: SeatType };
  /** The ticket type chosen; null or absent for the seat type's default. */
  ticketTypeId?: string | null;
}

/** A priced line, as an order line keeps it. */
export interface PricedLine<T extends TicketToPrice = TicketToPrice> {
  kind: 'TICKET';
  ticket: T;
  ticketTypeId: string | null;
  ticketTypeName: string;
  quantity: number;
  unitPriceCents: number;
  /** unit price × quantity: the line before its discount. */
  listPriceCents: number;
  discountCents: number;
  priceCents: number;
  /** Basis points (20% = 2000), and the tax included in priceCents. Taxes plug in here (DESIGN §7.4); none yet. */
  taxRateBp: number;
  taxCents: number;
}

export interface PricedOrder<T extends TicketToPrice = TicketToPrice> {
  lines: PricedLine<T>[];
  /** Food and drink (DESIGN §7.2): priced from the menu, not covered by promo codes (they are for tickets). */
  products: PricedProductLine[];
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  promo: PromoCheck | null;
}

export interface PriceLinesInput<T extends TicketToPrice> {
  tickets: T[];
  /** The name a refusal's detail gives the keys: `bookingIds` online, `seatIds` at the counter and in exchanges. */
  keysAre: 'bookingIds' | 'seatIds';
  /** Food and drink asked for; `checkStock` refuses what the menu says is not left (a quote; checkout reserves). */
  products?: readonly ProductOrder[];
  checkStock?: boolean;
  promo?: {
    code: string;
    userId: string;
    /** Open checkouts the order replaces, whose reserved uses of the code do not count against its cap. */
    replacing: string[];
  };
}

/** The order's lines priced, with the promo code (if asked) applied to those it covers. */
export async function priceLines<T extends TicketToPrice>(
  q: Queryable,
  timeZone: string,
  input: PriceLinesInput<T>,
): Promise<PricedOrder<T>> {
  const book = await PriceBook.load(q, timeZone);
  const lines = input.tickets.map((ticket) => priceTicket(book, ticket, input.keysAre));
  let promo: PromoCheck | null = null;
  if (input.promo) {
    promo = await checkPromo(q, {
      code: input.promo.code,
      userId: input.promo.userId,
      lines: lines.map((l) => ({ showtimeId: l.ticket.showtime.id, movieId: l.ticket.showtime.movieId })),
      replacing: input.promo.replacing,
    });
    if (promo.applied) applyDiscount(lines, promo);
  }
  const products = await priceProducts(q, input.products ?? [], { stock: input.checkStock ?? false });
  const all = [...lines, ...products];
  const subtotalCents = all.reduce((sum, l) => sum + l.listPriceCents, 0);
  const discountCents = all.reduce((sum, l) => sum + l.discountCents, 0);
  return { lines, products, subtotalCents, discountCents, totalCents: subtotalCents - discountCents, promo };
}

/** One ticket: 409 `ticket_type_unavailable` naming the seat when its type is not sold on it for this showtime. */
function priceTicket<T extends TicketToPrice>(
  book: PriceBook,
  ticket: T,
  keysAre: PriceLinesInput<T>['keysAre'],
): PricedLine<T> {
  const pricing = book.forShowtime(ticket.showtime);
  const ticketTypeId = ticket.ticketTypeId ?? pricing.defaultTypeFor(ticket.seat.type);
  const line = (typeId: string | null, name: string, unit: number): PricedLine<T> => ({
    kind: 'TICKET',
    ticket,
    ticketTypeId: typeId,
    ticketTypeName: name,
    quantity: 1,
    unitPriceCents: unit,
    listPriceCents: unit,
    discountCents: 0,
    priceCents: unit,
    taxRateBp: 0,
    taxCents: 0,
  });
  // No ticket type at all: every seat sells at the showtime's own price.
  if (ticketTypeId === null) return line(null, 'Ticket', ticket.showtime.priceCents);
  const type = pricing.ticketTypes.find((t) => t.id === ticketTypeId);
  const price = type ? pricing.priceOf(ticketTypeId, ticket.seat.type) : null;
  if (!type || price === null) {
    throw conflictSaying(namingSeats('ticket_type_not_sold_for', [ticket.seat]), 'ticket_type_unavailable', {
      [keysAre]: [ticket.key],
    });
  }
  refuseTypeNotForRating(pricing, ticketTypeId, ticket.showtime.film, ticket.seat, {
    [keysAre]: [ticket.key],
  });
  return line(ticketTypeId, type.name, price);
}

/** The code's discount shared out over the lines it covers, in whole minor units. */
function applyDiscount(lines: PricedLine[], promo: Extract<PromoCheck, { applied: true }>) {
  const covered = lines.filter((_, i) => promo.eligible[i]);
  const prices = covered.map((l) => l.listPriceCents);
  const shares = shareDiscount(
    prices,
    discountOf(
      prices.reduce((a, b) => a + b, 0),
      promo.promo,
    ),
  );
  covered.forEach((l, i) => {
    l.discountCents = shares[i]!;
    l.priceCents = l.listPriceCents - l.discountCents;
  });
}

/**
 * An order line's columns from a priced ticket line (the seat copied, so a receipt outlives its booking); `confirmed`
 * for a seat sold at once (the counter).
 */
export function ticketLineValues(l: PricedLine, orderId: string, bookingId: string, result?: 'confirmed') {
  return {
    ...(result && { result }),
    orderId,
    kind: 'TICKET' as const,
    bookingId,
    seatRow: l.ticket.seat.row,
    seatNumber: l.ticket.seat.number,
    seatRowLabel: l.ticket.seat.rowLabel ?? null,
    seatType: l.ticket.seat.type,
    ticketTypeId: l.ticketTypeId,
    ticketTypeName: l.ticketTypeName,
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    listPriceCents: l.listPriceCents,
    discountCents: l.discountCents,
    priceCents: l.priceCents,
    taxRateBp: l.taxRateBp,
    taxCents: l.taxCents,
  };
}

/** A gift card to sell, priced at its amount (DESIGN §7.3): no promo code, no tax (tax is due when it is spent). */
export interface PricedGiftCard {
  kind: 'GIFT_CARD';
  amountCents: number;
  recipientEmail: string | null;
  message: string | null;
}

/** Gift cards to sell: 400 for an amount outside what the cinema's currency allows (giftCardAmounts). */
export function priceGiftCards(purchases: readonly GiftCardPurchase[], currency: string): PricedGiftCard[] {
  const { minCents, maxCents } = giftCardAmounts(currency);
  return purchases.map((p) => {
    if (p.amountCents < minCents || p.amountCents > maxCents) {
      throw badRequest(
        `A gift card is worth between ${minorToText(minCents, currency)} ${currency} and ${minorToText(maxCents, currency)} ${currency}`,
      );
    }
    return {
      kind: 'GIFT_CARD',
      amountCents: p.amountCents,
      recipientEmail: p.recipientEmail?.trim().toLowerCase() || null,
      message: p.message?.trim() || null,
    };
  });
}

/** An order line's columns from a gift card to sell. */
export function giftCardLineValues(g: PricedGiftCard, orderId: string) {
  return {
    orderId,
    kind: 'GIFT_CARD' as const,
    description: 'Gift card',
    quantity: 1,
    unitPriceCents: g.amountCents,
    listPriceCents: g.amountCents,
    discountCents: 0,
    priceCents: g.amountCents,
    taxRateBp: 0,
    taxCents: 0,
    recipientEmail: g.recipientEmail,
    message: g.message,
  };
}

/** A gift card line as the customer reads it (a quote, an order): the fields of a seat are left empty. */
export function presentGiftCardLine(
  g: {
    amountCents: number;
    recipientEmail: string | null;
    message: string | null;
    code?: string | null;
    expiresAt?: Date | null;
  },
  status: OrderLine['status'],
  at: Date,
): OrderLine {
  return {
    bookingId: null,
    movie: 'Gift card',
    startsAt: at.toISOString(),
    auditorium: '',
    seat: { row: 0, number: 0 },
    ticketType: 'Gift card',
    listPriceCents: g.amountCents,
    discountCents: 0,
    priceCents: g.amountCents,
    status,
    kind: 'GIFT_CARD',
    quantity: 1,
    unitPriceCents: g.amountCents,
    taxRateBp: 0,
    taxCents: 0,
    giftCard: {
      code: g.code ? formatGiftCardCode(g.code) : null,
      expiresAt: g.expiresAt?.toISOString() ?? null,
      recipientEmail: g.recipientEmail,
      message: g.message,
    },
  };
}
