import {
  bpToPercent,
  FEE_DESCRIPTIONS,
  formatGiftCardCode,
  giftCardAmounts,
  minorToText,
  taxOn,
  type TaxMode,
  type BookingFee,
  type GiftCardPurchase,
  type OrderLine,
  type ProductOrder,
  type SeatType,
} from '@cinema/contract';
import { runTogether, type Queryable } from '../../db/database.ts';
import { badRequest, conflictSaying } from '../../errors.ts';
import { namingSeats } from '../../i18n.ts';
import { discountOf, shareDiscount } from '../pricing/price-table.ts';
import { PriceBook, refuseTypeNotForRating, type PricedShowtime } from '../pricing/pricing.service.ts';
import { checkPromo, type PromoCheck } from '../pricing/promo.service.ts';
import { priceProducts, type PricedProductLine } from '../concessions/price-products.ts';
import { loadFee, loadTaxBook, type TaxBook } from '../taxes/taxes.service.ts';
import { lineAmounts, type LineAmounts } from './line-amounts.ts';

/**
 * THE pricing of an order's lines (DESIGN §7.1, decision 039), for the online checkout and its quote, a counter sale
 * and an exchange: the server prices everything, a client never sends a price. A ticket is its ticket type (the
 * seat type's default unless chosen) on its seat type under the showtime's price card; a promo code's discount is
 * shared out over the lines it covers in whole minor units, never below zero; a booking fee where the tickets are
 * sold (per ticket that is not exempt, per order); then each line's tax at its kind's rate, rounded per line
 * (decision 047). Each line comes back with its unit price, quantity, discount, tax rate and tax, as the order keeps
 * it.
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

/** A priced ticket. */
export interface PricedLine<T extends TicketToPrice = TicketToPrice> extends LineAmounts {
  kind: 'TICKET';
  ticket: T;
  ticketTypeId: string | null;
  ticketTypeName: string;
}

/** A booking fee (DESIGN §7.4): per ticket (quantity: the tickets that pay it) or per order. */
export interface PricedFeeLine extends LineAmounts {
  kind: 'FEE';
  per: 'TICKET' | 'ORDER';
  description: string;
  /** Whether a refund of the order's tickets gives it back. */
  refundable: boolean;
  /** The showtime the sales report counts it with: the first of its tickets' (by id). */
  showtimeId: string;
}

export interface PricedOrder<T extends TicketToPrice = TicketToPrice> {
  lines: PricedLine<T>[];
  /** Food and drink (DESIGN §7.2): priced from the menu, not covered by promo codes (they are for tickets). */
  products: PricedProductLine[];
  /** Booking fees, when the sale charges them (`fees` asked). */
  fees: PricedFeeLine[];
  subtotalCents: number;
  discountCents: number;
  /** The tax in totalCents; `exclusive`: added to the prices, `inclusive`: part of them. */
  taxCents: number;
  taxMode: TaxMode;
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
  /** Where the tickets are sold, for its booking fee; none: no fee (an exchange). */
  fees?: 'ONLINE' | 'COUNTER';
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
  config: { timeZone: string; taxMode: TaxMode },
  input: PriceLinesInput<T>,
): Promise<PricedOrder<T>> {
  // One query at a time in a transaction (runTogether): node-postgres runs one per connection.
  const [book, taxes] = await runTogether(q, [
    () => PriceBook.load(q, config.timeZone),
    () => loadTaxBook(q, config.taxMode),
  ] as const);
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
  const fees = input.fees ? priceFees(lines, await loadFee(q, input.fees)) : [];
  applyTaxes(taxes, lines, products, fees);
  const all = [...lines, ...products, ...fees];
  const add = (key: 'listPriceCents' | 'discountCents' | 'taxCents' | 'priceCents') =>
    all.reduce((sum, l) => sum + l[key], 0);
  return {
    lines,
    products,
    fees,
    subtotalCents: add('listPriceCents'),
    discountCents: add('discountCents'),
    taxCents: add('taxCents'),
    taxMode: taxes.mode,
    totalCents: add('priceCents'),
    promo,
  };
}

/**
 * The booking fee on these tickets: per ticket whose type is not exempt (a seat sold at the showtime's own price
 * has no type and pays it), and once per order that has such a ticket.
 */
function priceFees(lines: readonly PricedLine[], fee: BookingFee): PricedFeeLine[] {
  const paying = lines.filter(
    (l) => !l.ticketTypeId || !fee.exemptTicketTypeIds.includes(l.ticketTypeId),
  ).length;
  if (paying === 0) return [];
  const showtimeId = lines.map((l) => l.ticket.showtime.id).sort()[0]!;
  const line = (per: PricedFeeLine['per'], quantity: number, unit: number): PricedFeeLine => ({
    kind: 'FEE',
    per,
    description: FEE_DESCRIPTIONS[per],
    quantity,
    unitPriceCents: unit,
    listPriceCents: unit * quantity,
    discountCents: 0,
    priceCents: unit * quantity,
    taxRateBp: 0,
    taxCents: 0,
    refundable: fee.refundable,
    showtimeId,
  });
  return [
    ...(fee.perTicketCents > 0 ? [line('TICKET', paying, fee.perTicketCents)] : []),
    ...(fee.perOrderCents > 0 ? [line('ORDER', 1, fee.perOrderCents)] : []),
  ];
}

/** Each line's rate (its kind's; a product's own, its category's or the products') and its tax, rounded per line. */
function applyTaxes(
  taxes: TaxBook,
  tickets: PricedLine[],
  products: PricedProductLine[],
  fees: PricedFeeLine[],
) {
  const tax = (l: LineAmounts, rateBp: number) => {
    const { priceCents, taxCents } = taxOn(l.listPriceCents - l.discountCents, rateBp, taxes.mode);
    Object.assign(l, { taxRateBp: rateBp, priceCents, taxCents });
  };
  for (const l of tickets) tax(l, taxes.rateOf('TICKET'));
  for (const l of products) tax(l, taxes.rateOfProduct(l.product));
  for (const l of fees) tax(l, taxes.rateOf('FEE'));
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
    ...lineAmounts(l),
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
    lineId?: string;
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
    ...specFields('Gift card', { unitPriceCents: g.amountCents, taxRateBp: 0, priceCents: g.amountCents }),
    giftCard: {
      ...(g.lineId && { lineId: g.lineId }),
      code: g.code ? formatGiftCardCode(g.code) : null,
      expiresAt: g.expiresAt?.toISOString() ?? null,
      recipientEmail: g.recipientEmail,
      message: g.message,
    },
  };
}

/** DESIGN §7.8's names of a line's figures: `name`, `unitCents`, `taxRate` (percent) and `totalCents`. */
export const specFields = (
  name: string,
  l: { unitPriceCents: number; taxRateBp: number; priceCents: number },
) => ({ name, unitCents: l.unitPriceCents, taxRate: bpToPercent(l.taxRateBp), totalCents: l.priceCents });

/** An order line's columns from a booking fee. */
export function feeLineValues(l: PricedFeeLine, orderId: string) {
  return {
    orderId,
    kind: 'FEE' as const,
    description: l.description,
    ...lineAmounts(l),
    refundable: l.refundable,
    feeShowtimeId: l.showtimeId,
  };
}

/** A booking fee line as the customer reads it (a quote, an order): the fields of a seat are left empty. */
export function presentFeeLine(
  l: Pick<
    PricedFeeLine,
    'description' | 'quantity' | 'unitPriceCents' | 'priceCents' | 'taxRateBp' | 'taxCents'
  > & {
    listPriceCents?: number | null;
    discountCents?: number;
  },
  status: OrderLine['status'],
  at: Date,
): OrderLine {
  return {
    bookingId: null,
    movie: l.description,
    startsAt: at.toISOString(),
    auditorium: '',
    seat: { row: 0, number: 0 },
    ticketType: l.description,
    listPriceCents: l.listPriceCents ?? l.priceCents,
    discountCents: l.discountCents ?? 0,
    priceCents: l.priceCents,
    status,
    kind: 'FEE',
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    taxRateBp: l.taxRateBp,
    taxCents: l.taxCents,
    ...specFields(l.description, l),
  };
}
