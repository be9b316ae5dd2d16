import QRCode from 'qrcode';
import { asc, eq } from 'drizzle-orm';
import { formatGiftCardCode, formatMoney } from '@cinema/contract';
import { giftCards, orders, users } from '../../db/schema/index.ts';
import { isLanguage, localeOf, textsIn, type Language } from '../../i18n.ts';
import { WALK_IN_EMAIL } from '../box-office/walk-in.ts';
import { queueMail, type MailDeps } from '../mail/outbox.service.ts';
import { pdfDocument } from '../../pdf-document.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// A6 landscape, in points: a card a phone shows whole and a printer fits four to a sheet.
const PAGE = { width: 419.53, height: 297.64 };
const MARGIN = 24;
const QR_SIZE = 120;

export interface GiftCardToShow {
  code: string;
  amountCents: number;
  currency: string;
  expiresAt: Date;
  message: string | null;
  from: string | null;
}

const qrOf = (code: string, width: number) =>
  QRCode.toBuffer(formatGiftCardCode(code), { type: 'png', width, margin: 2, errorCorrectionLevel: 'M' });

/** The gift card as a PDF (DESIGN §7.3): its value, its code as text and as a QR code, its expiry and message. */
export async function giftCardPdf(card: GiftCardToShow, language: Language): Promise<Buffer> {
  const t = textsIn(language);
  const qr = await qrOf(card.code, 360);
  const { doc, done } = await pdfDocument({
    size: [PAGE.width, PAGE.height],
    margin: MARGIN,
    info: { Title: t('giftCards.pdfTitle'), Author: t('pdf.author') },
  });
  const textWidth = PAGE.width - 3 * MARGIN - QR_SIZE;
  const money = formatMoney(card.amountCents, { currency: card.currency, locale: localeOf(language) });
  const until = new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long' }).format(card.expiresAt);
  doc
    .fillColor('#000000')
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(t('giftCards.pdfTitle'), { width: textWidth });
  doc.moveDown(0.4).fontSize(30).text(money, { width: textWidth });
  if (card.from)
    doc
      .moveDown(0.3)
      .font('Helvetica')
      .fontSize(11)
      .text(t('giftCards.from', { name: card.from }));
  if (card.message) {
    doc.moveDown(0.3).font('Helvetica-Oblique').fontSize(11).text(`“${card.message}”`, {
      width: textWidth,
      height: 60,
      ellipsis: true,
    });
  }
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#333333')
    .text(t('giftCards.validUntil', { date: until }), MARGIN, PAGE.height - MARGIN - 58, {
      width: textWidth,
    });
  doc
    .font('Courier-Bold')
    .fontSize(16)
    .fillColor('#000000')
    .text(formatGiftCardCode(card.code), { width: textWidth });
  doc.font('Helvetica').fontSize(8).fillColor('#555555').text(t('giftCards.howToUse'), { width: textWidth });
  doc.image(qr, PAGE.width - MARGIN - QR_SIZE, (PAGE.height - QR_SIZE) / 2, {
    width: QR_SIZE,
    height: QR_SIZE,
  });
  doc.end();
  return done;
}

/**
 * The gift cards an order issued, each emailed once (DESIGN §7.3): to its recipient, else to the buyer; its code as
 * text and as an inline QR code, and the card as a PDF. In the buyer's language (the recipient chose none). Called
 * after the order's payment committed (mail.plugin.ts, on `orderPaid`); a card without anyone to send it to (a
 * counter sale to nobody's email, printed there) sends nothing.
 */
export async function sendGiftCards(deps: MailDeps, orderId: string): Promise<number> {
  const cards = await deps.db
    .select()
    .from(giftCards)
    .where(eq(giftCards.orderId, orderId))
    .orderBy(asc(giftCards.id));
  if (cards.length === 0) return 0;
  const [buyer] = await deps.db
    .select({
      email: users.email,
      name: users.name,
      language: users.language,
      customerEmail: orders.customerEmail,
      customerName: orders.customerName,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!buyer) return 0;
  const buyerEmail = buyer.customerEmail ?? (buyer.email === WALK_IN_EMAIL ? null : buyer.email);
  const buyerName = buyer.customerName ?? (buyer.email === WALK_IN_EMAIL ? null : buyer.name);
  const language: Language = !buyer.customerEmail && isLanguage(buyer.language) ? buyer.language : 'en';
  const t = textsIn(language);
  let sent = 0;
  for (const card of cards) {
    const to = card.recipientEmail ?? buyerEmail;
    if (!to) continue;
    const forSomeoneElse = card.recipientEmail !== null && card.recipientEmail !== buyerEmail?.toLowerCase();
    const shown: GiftCardToShow = {
      code: card.code,
      amountCents: card.initialCents,
      currency: card.currency,
      expiresAt: card.expiresAt,
      message: card.message,
      from: forSomeoneElse ? buyerName : null,
    };
    const money = formatMoney(card.initialCents, { currency: card.currency, locale: localeOf(language) });
    const until = new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long' }).format(card.expiresAt);
    const code = formatGiftCardCode(card.code);
    const subject =
      forSomeoneElse && buyerName
        ? t('giftCards.subjectFrom', { name: buyerName, amount: money })
        : t('giftCards.subject', { amount: money });
    const text = [
      forSomeoneElse && buyerName
        ? t('giftCards.sentYou', { name: buyerName, amount: money })
        : t('giftCards.yours', { amount: money }),
      ...(card.message ? ['', `“${card.message}”`] : []),
      '',
      t('giftCards.codeIs', { code }),
      t('giftCards.validUntil', { date: until }),
      '',
      t('giftCards.howToUse'),
    ].join('\n');
    const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;color:#111;background:#fff;max-width:600px;margin:0 auto;padding:16px"><h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(forSomeoneElse && buyerName ? t('giftCards.sentYou', { name: buyerName, amount: money }) : t('giftCards.yours', { amount: money }))}</p>${card.message ? `<p><em>“${escapeHtml(card.message)}”</em></p>` : ''}<p>${escapeHtml(t('giftCards.codeLabel'))} <strong style="font-family:monospace;font-size:18px">${escapeHtml(code)}</strong></p><p><img src="cid:gift-card-qr" width="180" height="180" alt="${escapeHtml(t('giftCards.qrAlt', { code }))}"></p><p>${escapeHtml(t('giftCards.validUntil', { date: until }))}</p><p>${escapeHtml(t('giftCards.howToUse'))}</p></body></html>`;
    const id = await queueMail(deps, {
      kind: 'gift_card',
      dedupeKey: `gift_card:${card.id}`,
      to,
      subject,
      text,
      html,
      attachments: [
        {
          filename: 'gift-card-qr.png',
          contentType: 'image/png',
          content: await qrOf(card.code, 360),
          cid: 'gift-card-qr',
        },
        {
          filename: `gift-card-${card.code.slice(-4)}.pdf`,
          contentType: 'application/pdf',
          content: await giftCardPdf(shown, language),
        },
      ],
    });
    if (id) sent++;
  }
  return sent;
}
