import { feePer, formatMoney, formatRate, taxBreakdown, type Order } from '@cinema/contract';
import type { Config } from '../../config.ts';
import { notFound } from '../../errors.ts';
import { localeOf, seatText, textsIn, type Language } from '../../i18n.ts';
import { pdfDocument } from '../../pdf-document.ts';

/** A receipt's line: what was sold, how many, at which rate, for how much (tax included). */
interface ReceiptRow {
  name: string;
  detail: string | null;
  quantity: number;
  taxRateBp: number;
  taxCents: number;
  priceCents: number;
  refunded: boolean;
}

/** The lines a receipt lists: what was paid for (given back since or not), in the order's order. */
export function receiptRows(order: Order, language: Language): ReceiptRow[] {
  const t = textsIn(language);
  const paid = (status: string) => status === 'confirmed' || status === 'refunded';
  return [
    ...order.lines
      .filter((l) => paid(l.status))
      .map((l) => ({
        name:
          l.kind === 'TICKET'
            ? `${l.movie} — ${seatText(l.seat, language, 'lineItem')}`
            : l.kind === 'GIFT_CARD'
              ? t('giftCards.line')
              : l.kind === 'FEE'
                ? t(feePer(l.name) === 'ORDER' ? 'fees.perOrder' : 'fees.perTicket', { count: 1 })
                : l.name,
        detail: l.kind === 'TICKET' ? l.ticketType : null,
        quantity: l.quantity,
        taxRateBp: l.taxRateBp,
        taxCents: l.taxCents,
        priceCents: l.priceCents,
        refunded: l.status === 'refunded',
      })),
    ...(order.products ?? [])
      .filter((p) => paid(p.status))
      .map((p) => ({
        name: p.options.length > 0 ? `${p.name} (${p.options.join(', ')})` : p.name,
        detail: null,
        quantity: p.quantity,
        taxRateBp: p.taxRateBp,
        taxCents: p.taxCents,
        priceCents: p.priceCents,
        refunded: p.status === 'refunded',
      })),
  ];
}

const MARGIN = 48;

/**
 * An order's receipt as a PDF (DESIGN §7.4): the cinema's name, address and tax number, each line with its quantity,
 * tax rate and amount, then net, tax by rate and gross (the lines' own tax added up, never recomputed), the payments
 * and any refunds; in `language`. 404 for an order never paid.
 */
export async function receiptPdf(
  config: Pick<Config, 'timeZone' | 'cinema'>,
  order: Order,
  language: Language = 'en',
): Promise<Buffer> {
  if (!order.paidAt) throw notFound('Order not found');
  const t = textsIn(language);
  const locale = localeOf(language);
  const money = (cents: number) => formatMoney(cents, { currency: order.currency, locale });
  const date = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: config.timeZone,
  });
  const rows = receiptRows(order, language);
  const sums = taxBreakdown(rows);

  const { doc, done } = await pdfDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: t('receipt.title', { ref: order.ref }), Author: config.cinema.name },
  });
  const width = doc.page.width - 2 * MARGIN;
  const cols = { qty: MARGIN + width * 0.58, rate: MARGIN + width * 0.68, amount: MARGIN + width * 0.78 };
  const amountWidth = width * 0.22;
  /** One line of the table: the text on the left, the figures in their columns. */
  const row = (text: string, figures: { qty?: string; rate?: string; amount: string }, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(text, MARGIN, y, { width: width * 0.56 });
    const end = doc.y;
    if (figures.qty) doc.text(figures.qty, cols.qty, y, { width: width * 0.08, align: 'right' });
    if (figures.rate) doc.text(figures.rate, cols.rate, y, { width: width * 0.09, align: 'right' });
    doc.text(figures.amount, cols.amount, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(end, doc.y);
    doc.x = MARGIN;
  };
  const rule = () => {
    doc.moveDown(0.3);
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + width, doc.y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.moveDown(0.4);
  };

  doc.font('Helvetica-Bold').fontSize(16).fillColor('#000000').text(config.cinema.name);
  doc.font('Helvetica').fontSize(10);
  for (const line of config.cinema.address) doc.text(line);
  if (config.cinema.taxNumber) doc.text(t('receipt.taxNumber', { number: config.cinema.taxNumber }));
  doc.moveDown(1);
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(t('receipt.title', { ref: order.ref }));
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(t('receipt.paidAt', { date: date.format(new Date(order.paidAt)) }));
  doc.text(t(order.taxMode === 'exclusive' ? 'receipt.taxAdded' : 'receipt.taxIncluded'));
  if (order.testMode) doc.fillColor('#aa5500').text(t('pdf.test')).fillColor('#000000');
  doc.moveDown(1);

  row(
    t('receipt.item'),
    { qty: t('receipt.quantity'), rate: t('receipt.rate'), amount: t('receipt.amount') },
    true,
  );
  rule();
  for (const r of rows) {
    const name = [r.name, r.detail, r.refunded ? t('receipt.refunded') : null].filter(Boolean).join(' · ');
    row(name, {
      qty: String(r.quantity),
      rate: formatRate(r.taxRateBp, locale),
      amount: money(r.priceCents),
    });
  }
  rule();
  row(t('receipt.net'), { amount: money(sums.netCents) });
  for (const band of sums.bands) {
    row(t('receipt.taxAt', { rate: formatRate(band.rateBp, locale), net: money(band.netCents) }), {
      amount: money(band.taxCents),
    });
  }
  row(t('receipt.tax'), { amount: money(sums.taxCents) });
  row(t('receipt.gross'), { amount: money(sums.grossCents) }, true);
  if (order.discountCents > 0) {
    doc.moveDown(0.3);
    doc.font('Helvetica').fontSize(9).fillColor('#555555');
    doc.text(t('receipt.discount', { amount: money(order.discountCents), code: order.promoCode ?? '' }));
    doc.fillColor('#000000');
  }
  rule();
  for (const p of order.payments) row(t(`receipt.method.${p.method}`), { amount: money(p.amountCents) });
  for (const r of order.refunds) {
    row(t('receipt.refund', { date: date.format(new Date(r.createdAt)) }), {
      amount: `-${money(r.amountCents)}`,
    });
  }
  doc.end();
  return done;
}
