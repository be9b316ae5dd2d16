import QRCode from 'qrcode';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Order, Ticket } from '@cinema/contract';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { bookings, orders, seats } from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import { selectTickets } from './tickets.service.ts';
import { attributesText, localeOf, seatText, textsIn, type Language } from '../../i18n.ts';
import { orderRefIs } from '../orders/order-ref.ts';
import { getMyOrder } from '../orders/orders.service.ts';
import { pdfDocument } from '../../pdf-document.ts';

/** An order's food and drink still paid for, and how it reaches the customer (DESIGN §7.2). */
export type OrderFood = Pick<Order, 'ref' | 'products' | 'concessions'>;

/** The items of an order the PDF lists: those still paid for; null when there are none. */
export function foodOf(order: Order): OrderFood | null {
  const products = (order.products ?? []).filter((p) => p.status === 'confirmed');
  return products.length > 0 ? { ref: order.ref, products, concessions: order.concessions } : null;
}

// A6 portrait, in points: a ticket a phone shows whole and a printer fits four to a sheet.
const PAGE = { width: 297.64, height: 419.53 };
const MARGIN = 24;
const QR_SIZE = 170;

/** The tickets of one of the caller's orders (by reference, any letter case); 404 for another's or none paid. */
export async function orderTicketsOf(
  db: Queryable,
  userId: string,
  ref: string,
): Promise<{ ref: string; tickets: Ticket[]; food: OrderFood | null }> {
  const [session] = await db
    .select({ id: orders.id, ref: orders.ref })
    .from(orders)
    .where(and(orderRefIs(ref), eq(orders.userId, userId)))
    .limit(1);
  if (!session?.ref) throw notFound('Order not found');
  const tickets = await selectTickets(db, eq(bookings.checkoutSessionId, session.id), [
    sql`${bookings.createdAt} asc`,
    asc(seats.row),
    asc(seats.number),
  ]);
  const food = foodOf(await getMyOrder(db, userId, session.ref));
  if (tickets.length === 0 && !food) throw notFound('This order has no tickets (not paid, or refunded)');
  return { ref: session.ref, tickets, food };
}

/**
 * Writes `text` in at most `lines` lines of `width`: at `size` when it fits, else at the largest size down to
 * `minSize` that fits, else at `minSize` cut short with an ellipsis.
 */
function fitText(
  doc: PDFKit.PDFDocument,
  text: string,
  o: { font: string; size: number; minSize: number; lines: number; width: number },
) {
  doc.font(o.font);
  const room = () => o.lines * doc.currentLineHeight(true) + 0.5;
  let size = o.size;
  while (size > o.minSize && doc.fontSize(size).heightOfString(text, { width: o.width }) > room()) size -= 1;
  doc.fontSize(size).text(text, { width: o.width, height: room(), ellipsis: true });
}

/**
 * The tickets as a PDF (DESIGN §6.6): one page each with the QR code the door scans (the booking id), the movie,
 * the start on the cinema's clock, the hall, and the row and seat; then a page of the order's food and drink
 * (DESIGN §7.2) with how it reaches the customer and the order's QR code (its reference), which hands it over; in
 * `language`.
 */
export async function ticketsPdf(
  config: Pick<Config, 'timeZone'>,
  order: { ref: string; tickets: Ticket[]; food?: OrderFood | null },
  language: Language = 'en',
): Promise<Buffer> {
  const t = textsIn(language);
  const when = new Intl.DateTimeFormat(localeOf(language), {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: config.timeZone,
  });
  const qrs = await Promise.all(
    order.tickets.map((t) =>
      QRCode.toBuffer(t.bookingId, { type: 'png', width: 480, margin: 2, errorCorrectionLevel: 'M' }),
    ),
  );
  const { doc, done } = await pdfDocument({
    size: [PAGE.width, PAGE.height],
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: t('pdf.title', { ref: order.ref }), Author: t('pdf.author') },
  });
  const width = PAGE.width - 2 * MARGIN;
  // Each text has its lines and the QR code its place: however long a title or a hall's name, a ticket is one page.
  const fit = (text: string, font: string, size: number, lines: number) =>
    fitText(doc, text, { font, size, minSize: Math.min(size, 8), lines, width });
  const top = PAGE.height - MARGIN - QR_SIZE - 30;
  order.tickets.forEach((ticket, i) => {
    doc.addPage();
    doc.fillColor('#555555');
    fit(t('pdf.page', { n: i + 1, count: order.tickets.length, ref: order.ref }), 'Helvetica', 9, 1);
    doc.moveDown(0.4);
    doc.fillColor('#000000');
    fit(ticket.movie.title, 'Helvetica-Bold', 18, 3);
    doc.moveDown(0.3);
    fit(when.format(new Date(ticket.startsAt)), 'Helvetica', 11, 1);
    fit(ticket.auditorium, 'Helvetica', 11, 1);
    if (ticket.attributes?.length) fit(attributesText(ticket.attributes, language), 'Helvetica', 9, 2);
    doc.moveDown(0.3);
    fit(seatText(ticket.seat, language), 'Helvetica-Bold', 16, 1);
    if (ticket.ticketType) fit(ticket.ticketType, 'Helvetica', 10, 1);
    doc.image(qrs[i]!, (PAGE.width - QR_SIZE) / 2, top, { width: QR_SIZE, height: QR_SIZE });
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#555555')
      .text(
        ticket.testMode ? `${ticket.bookingId} · ${t('pdf.test')}` : ticket.bookingId,
        MARGIN,
        top + QR_SIZE + 6,
        {
          width,
          align: 'center',
        },
      );
  });
  if (order.food) {
    const { products = [], concessions: c } = order.food;
    const time = new Intl.DateTimeFormat(localeOf(language), {
      timeStyle: 'short',
      timeZone: config.timeZone,
    });
    doc.addPage();
    doc.fillColor('#555555');
    fit(t('pdf.itemsOnly', { ref: order.ref }), 'Helvetica', 9, 1);
    doc.moveDown(0.4);
    doc.fillColor('#000000');
    fit(t('pdf.itemsTitle'), 'Helvetica-Bold', 18, 2);
    doc.moveDown(0.4);
    for (const item of products) {
      const options = item.options.length > 0 ? ` (${item.options.join(', ')})` : '';
      fit(`${item.quantity} × ${item.name}${options}`, 'Helvetica', 11, 2);
    }
    doc.moveDown(0.4);
    fit(
      c?.fulfilment === 'SEAT' && c.seat && c.deliverAt
        ? t('pdf.itemsToSeat', {
            seat: seatText(c.seat, language),
            hall: c.seat.auditorium,
            time: time.format(new Date(c.deliverAt)),
          })
        : t('pdf.itemsCollect'),
      'Helvetica',
      10,
      3,
    );
    if (products.some((p) => p.ageRestricted)) fit(t('pdf.itemsId'), 'Helvetica-Bold', 10, 2);
    const qr = await QRCode.toBuffer(order.ref, {
      type: 'png',
      width: 480,
      margin: 2,
      errorCorrectionLevel: 'M',
    });
    doc.image(qr, (PAGE.width - QR_SIZE) / 2, top, { width: QR_SIZE, height: QR_SIZE });
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#555555')
      .text(order.ref, MARGIN, top + QR_SIZE + 6, { width, align: 'center' });
  }
  doc.end();
  return done;
}
