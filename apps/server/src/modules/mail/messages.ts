import QRCode from 'qrcode';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  feePer,
  formatMoney,
  formatRate,
  minAgeOf,
  taxBreakdown,
  type Order,
  type Ticket,
} from '@cinema/contract';
import {
  bookings,
  halls,
  movies,
  orders,
  seats,
  showtimes,
  users,
  waitlistOffers,
} from '../../db/schema/index.ts';
import { clientPage } from '../../config.ts';
import { getMyOrder } from '../orders/orders.service.ts';
import { selectTickets } from '../tickets/tickets.service.ts';
import { WALK_IN_EMAIL } from '../box-office/walk-in.ts';
import { calendarFile } from './ics.ts';
import { queueMail, type MailDeps, type MailMessage } from './outbox.service.ts';
import { attributesText, isLanguage, localeOf, seatText, textsIn, type Language } from '../../i18n.ts';
import { orderRefIs } from '../orders/order-ref.ts';
import { receiptRows } from '../orders/receipt-pdf.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Date formats by language and time zone: making one costs about 0.1 ms, more than formatting with it. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A start time as the cinema's clock shows it: "Tuesday, November 24, 2026 at 7:30 PM" (in `language`). */
export function cinemaTime(deps: MailDeps, iso: string | Date, language: Language = 'en'): string {
  const key = `${language} ${deps.config.timeZone}`;
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(localeOf(language), {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: deps.config.timeZone,
    });
    timeFormats.set(key, format);
  }
  return format.format(new Date(iso));
}

/**
 * An email's QR codes: black on white in a grey-scale PNG, each row filtered against the one above (a QR code's rows
 * repeat). qrcode's default (RGBA, every filter tried on every row) took 12–30 ms of CPU a code, drawn in the
 * server's own thread while the next customers hold seats; this takes about a third of that and is smaller
 * (about 1.0 KB against 1.7 KB).
 */
const QR_PNG = {
  type: 'png',
  width: 240,
  margin: 2,
  errorCorrectionLevel: 'M',
  // pngjs options, which qrcode hands on as they are (its typings list only the deflate ones).
  rendererOpts: { filterType: 2, colorType: 0 } as { deflateLevel?: number },
} as const;

/** Links in emails are absolute: the web app's page on CLIENT_URL (else PUBLIC_URL). */
export function absolutePage(deps: MailDeps, path: string): string {
  const page = clientPage(deps.config, path);
  return page.startsWith('/') ? `${deps.config.publicUrl}${page}` : page;
}

function layout(title: string, body: string, language: Language): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;color:#111;background:#fff;max-width:600px;margin:0 auto;padding:16px">${body}</body></html>`;
}

/** Who hears about an order: the email given at the counter, else the account's (never the walk-in account). */
async function recipientOf(deps: MailDeps, sessionId: string) {
  const [row] = await deps.db
    .select({
      ref: orders.ref,
      userId: orders.userId,
      customerEmail: orders.customerEmail,
      customerName: orders.customerName,
      email: users.email,
      name: users.name,
      language: users.language,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, sessionId))
    .limit(1);
  if (!row?.ref) return null;
  const to = row.customerEmail ?? (row.email === WALK_IN_EMAIL ? null : row.email);
  if (!to) return null;
  // A counter sale's email (customerEmail) is written in English: nobody chose another language for it.
  const language: Language = !row.customerEmail && isLanguage(row.language) ? row.language : 'en';
  return { ...row, ref: row.ref, to, name: row.customerName ?? row.name, language };
}

/** The tickets one order confirmed, in showing and seat order. */
export function orderTickets(deps: MailDeps, sessionId: string): Promise<Ticket[]> {
  return selectTickets(deps.db, eq(bookings.checkoutSessionId, sessionId), [
    sql`${bookings.createdAt} asc`,
    asc(seats.row),
    asc(seats.number),
  ]);
}

/** Showings of the tickets, each with its seats: one calendar event each. */
function showings(tickets: Ticket[], language: Language) {
  const byShowing = new Map<string, { first: Ticket; seats: string[] }>();
  for (const t of tickets) {
    const key = `${t.startsAt}|${t.auditorium}|${t.movie.title}`;
    const entry = byShowing.get(key) ?? { first: t, seats: [] };
    entry.seats.push(seatText(t.seat, language));
    byShowing.set(key, entry);
  }
  return [...byShowing.values()];
}

/**
 * An order's food and drink in the confirmation: each item with its price, how it reaches the customer (the counter,
 * or their seat at a time), who must bring ID, and the order's QR code (its reference), which hands them over.
 */
async function foodSection(
  deps: MailDeps,
  order: Order,
  items: NonNullable<Order['products']>,
  language: Language,
) {
  const t = textsIn(language);
  const money = (cents: number) =>
    formatMoney(cents, { currency: order.currency.toUpperCase(), locale: localeOf(language) });
  const c = order.concessions;
  const time = (iso: string) =>
    new Intl.DateTimeFormat(localeOf(language), {
      timeStyle: 'short',
      timeZone: deps.config.timeZone,
    }).format(new Date(iso));
  const name = (i: (typeof items)[number]) =>
    `${i.quantity > 1 ? `${i.quantity} × ` : ''}${i.name}${i.options.length > 0 ? ` (${i.options.join(', ')})` : ''}`;
  const how =
    c?.fulfilment === 'SEAT' && c.seat && c.deliverAt
      ? t('mail.order.itemsToSeat', {
          seat: seatText(c.seat, language),
          hall: c.seat.auditorium,
          time: time(c.deliverAt),
          ref: order.ref,
        })
      : t('mail.order.itemsCollect', { ref: order.ref });
  const restricted = items.filter((i) => i.ageRestricted).map((i) => i.name);
  const id =
    restricted.length > 0 ? t('mail.order.itemsId', { items: [...new Set(restricted)].join(', ') }) : null;
  const qr = await QRCode.toBuffer(order.ref, QR_PNG);
  return {
    qr,
    text: [
      t('mail.order.itemsHeading'),
      ...items.map((i) => `- ${name(i)}, ${money(i.priceCents)}`),
      how,
      ...(id ? [id] : []),
    ],
    html: `<h2 style="font-size:17px">${escapeHtml(t('mail.order.itemsHeading'))}</h2><ul>${items.map((i) => `<li>${escapeHtml(name(i))} · ${escapeHtml(money(i.priceCents))}</li>`).join('')}</ul><p>${escapeHtml(how)}</p><p><img src="cid:order" width="160" height="160" alt="${escapeHtml(t('mail.order.itemsQrAlt', { ref: order.ref }))}"></p>${id ? `<p><strong>${escapeHtml(id)}</strong></p>` : ''}`,
  };
}

/**
 * The order confirmation (DESIGN §6.6): every ticket with its QR code as an inline PNG, and an .ics file with the
 * showings, and its food and drink (DESIGN §7.2) with the order's QR code. Sent once per order (later calls change
 * nothing); nothing when the order confirmed neither a ticket nor an item, or has nobody to send it to.
 */
export async function sendOrderConfirmation(
  deps: MailDeps,
  sessionId: string,
  /** A guest order's token (a counter sale no verified account received): its link shows the order to whoever has it. */
  opts: { guestToken?: string } = {},
): Promise<string | null> {
  const message = await orderConfirmation(deps, sessionId, opts);
  return message ? queueMail(deps, message) : null;
}

/** The order confirmation as sendOrderConfirmation writes it, or null when the order gets none (its rules). */
export async function orderConfirmation(
  deps: MailDeps,
  sessionId: string,
  opts: { guestToken?: string } = {},
): Promise<MailMessage | null> {
  const who = await recipientOf(deps, sessionId);
  if (!who) return null;
  const tickets = await orderTickets(deps, sessionId);
  const order = await getMyOrder(deps.db, who.userId, who.ref);
  // Food and drink still paid for (DESIGN §7.2): listed, with how it reaches the customer and the order's QR code.
  const items = (order.products ?? []).filter((p) => p.status === 'confirmed');
  if (tickets.length === 0 && items.length === 0) return null;
  const { language } = who;
  const t = textsIn(language);
  const money = (cents: number) =>
    formatMoney(cents, { currency: order.currency.toUpperCase(), locale: localeOf(language) });
  const seat = (s: Ticket['seat']) => seatText(s, language);
  const when = (iso: string) => cinemaTime(deps, iso, language);
  const badges = (ticket: Ticket) =>
    ticket.attributes?.length ? ` (${attributesText(ticket.attributes, language)})` : '';
  const qrs = await Promise.all(tickets.map((t) => QRCode.toBuffer(t.bookingId, QR_PNG)));
  const food = items.length > 0 ? await foodSection(deps, order, items, language) : null;
  const ticketsPage = absolutePage(deps, '/tickets');
  const guestPage = opts.guestToken
    ? absolutePage(deps, `/guest-order?token=${encodeURIComponent(opts.guestToken)}`)
    : null;
  // Tax by rate (DESIGN §7.4), as the receipt adds it up; a booking fee named as its own line.
  const taxLines = [
    ...order.lines
      .filter((l) => l.kind === 'FEE' && l.status === 'confirmed')
      .map(
        (l) =>
          `${t(feePer(l.name) === 'ORDER' ? 'fees.perOrder' : 'fees.perTicket', { count: l.quantity })}: ${money(l.priceCents)}`,
      ),
    ...taxBreakdown(receiptRows(order, language))
      .bands.filter((b) => b.taxCents > 0)
      .map(
        (b) =>
          `${t('receipt.taxAt', { rate: formatRate(b.rateBp, localeOf(language)), net: money(b.netCents) })}: ${money(b.taxCents)}`,
      ),
  ];
  const refunded = order.lines.filter((l) => l.status === 'refunded');
  const refundedSeats = refunded.map((l) => seat(l.seat)).join(', ');
  const testNote = order.testMode ? t('mail.order.testNote') : '';
  // Each film of the order with an age rule, once: "Neon Harbor is rated R: ages 17 and over only. …".
  const ageRules = [
    ...new Map(
      tickets.flatMap((ticket) => {
        const age = minAgeOf(deps.config.ratingSystem, ticket.movie.rating);
        const values = { title: ticket.movie.title, rating: ticket.movie.rating, age };
        return age ? [[ticket.movie.title, t('mail.order.ageRule', values)] as const] : [];
      }),
    ).values(),
  ];

  const textLines = [
    t('mail.hello', { name: who.name }),
    '',
    tickets.length > 0
      ? t('mail.order.thanks', { ref: who.ref })
      : t('mail.order.thanksItems', { ref: who.ref }),
    '',
    ...tickets.map(
      (ticket) =>
        `- ${ticket.movie.title}${badges(ticket)}, ${when(ticket.startsAt)}, ${ticket.auditorium}, ${seat(ticket.seat)}`,
    ),
    ...(ageRules.length > 0 ? ['', ...ageRules] : []),
    ...(food ? ['', ...food.text] : []),
    '',
    `${t('mail.order.totalPaid', { amount: money(order.totalCents) })}${testNote}`,
    ...taxLines,
    ...(refunded.length > 0
      ? ['', t('mail.order.refunded', { count: refunded.length, seats: refundedSeats })]
      : []),
    ...(tickets.length > 0 ? ['', t('mail.order.showQr')] : []),
    '',
    ...(guestPage
      ? [t('mail.order.guestLink', { url: guestPage }), '', t('mail.order.guestClaim')]
      : [t('mail.order.ticketsLink', { url: ticketsPage })]),
  ];
  const cards = tickets
    .map(
      (ticket, i) =>
        `<tr><td style="padding:8px 0"><img src="cid:ticket-${i + 1}" width="160" height="160" alt="${escapeHtml(t('mail.order.qrAlt', { ticket: `${ticket.movie.title}, ${seat(ticket.seat)}` }))}"></td><td style="padding:8px 12px"><strong>${escapeHtml(ticket.movie.title)}</strong>${escapeHtml(badges(ticket))}<br>${escapeHtml(when(ticket.startsAt))}<br>${escapeHtml(ticket.auditorium)} · ${escapeHtml(seat(ticket.seat))}${ticket.ticketType ? `<br>${escapeHtml(ticket.ticketType)}` : ''}</td></tr>`,
    )
    .join('');
  const subject = t(tickets.length > 0 ? 'mail.order.subject' : 'mail.order.subjectItems', { ref: who.ref });
  const thanksHtml = t(tickets.length > 0 ? 'mail.order.thanksHtml' : 'mail.order.thanksItems', {
    ref: `<strong>${escapeHtml(who.ref)}</strong>`,
  });
  const html = layout(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(t(tickets.length > 0 ? 'mail.order.heading' : 'mail.order.headingItems'))}</h1><p>${escapeHtml(t('mail.hello', { name: who.name }))}</p><p>${thanksHtml}</p>${tickets.length > 0 ? `<table role="presentation">${cards}</table>` : ''}${food?.html ?? ''}${ageRules.map((rule) => `<p><strong>${escapeHtml(rule)}</strong></p>`).join('')}<p>${escapeHtml(t('mail.order.totalPaidLabel'))} <strong>${escapeHtml(money(order.totalCents))}</strong>${escapeHtml(testNote)}</p>${taxLines.length > 0 ? `<p style="color:#555">${taxLines.map(escapeHtml).join('<br>')}</p>` : ''}${refunded.length > 0 ? `<p>${escapeHtml(t('mail.order.refundedHtml', { seats: refundedSeats }))}</p>` : ''}${guestPage ? `<p><a href="${escapeHtml(guestPage)}">${escapeHtml(t('mail.order.guestLinkHtml'))}</a> ${escapeHtml(t('mail.order.andPdf'))}</p><p>${escapeHtml(t('mail.order.guestClaim'))}</p>` : `<p><a href="${escapeHtml(ticketsPage)}">${escapeHtml(t('mail.myTickets'))}</a> ${escapeHtml(t('mail.order.andPdf'))}</p>`}`,
    language,
  );
  const events = showings(tickets, language).map(({ first, seats }) => ({
    uid: `${who.ref}-${new Date(first.startsAt).getTime()}@${new URL(deps.config.publicUrl).hostname}`,
    start: new Date(first.startsAt),
    end: new Date(new Date(first.startsAt).getTime() + (first.movie.durationMinutes ?? 120) * 60_000),
    summary: first.movie.title,
    location: first.auditorium,
    description: t('mail.order.calendar', { seats: seats.join(', '), ref: who.ref }),
  }));
  return {
    kind: 'order_confirmation',
    dedupeKey: `order_confirmation:${sessionId}`,
    to: who.to,
    subject,
    text: textLines.join('\n'),
    html,
    attachments: [
      ...qrs.map((content, i) => ({
        filename: `ticket-${i + 1}.png`,
        contentType: 'image/png',
        content,
        cid: `ticket-${i + 1}`,
      })),
      ...(food ? [{ filename: 'order.png', contentType: 'image/png', content: food.qr, cid: 'order' }] : []),
      ...(events.length > 0
        ? [
            {
              filename: 'showtime.ics',
              contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
              content: Buffer.from(calendarFile(events), 'utf8'),
            },
          ]
        : []),
    ],
  };
}

/**
 * Tells the customer about the refunds of an order (by its reference, any letter case): what was refunded and the
 * order's refunded total. One notice per refund count, so a second refund of the same order sends another.
 * Returns the outbox id, or null when there is nothing to tell or nobody to tell it to.
 */
export async function sendRefundNotice(deps: MailDeps, orderRef: string): Promise<string | null> {
  const [session] = await deps.db.select({ id: orders.id }).from(orders).where(orderRefIs(orderRef)).limit(1);
  if (!session) return null;
  const who = await recipientOf(deps, session.id);
  if (!who) return null;
  const order = await getMyOrder(deps.db, who.userId, who.ref);
  if (order.refunds.length === 0) return null;
  const { language } = who;
  const t = textsIn(language);
  const money = (cents: number) =>
    formatMoney(cents, { currency: order.currency.toUpperCase(), locale: localeOf(language) });
  const refundedLines = order.lines.filter((l) => l.status === 'refunded');
  const latest = order.refunds.at(-1)!;
  const ordersPage = absolutePage(deps, '/tickets');
  const lineText = (l: (typeof refundedLines)[number]) =>
    `${l.movie}, ${cinemaTime(deps, l.startsAt, language)}, ${seatText(l.seat, language)}`;
  const seatsText = refundedLines.map(lineText).join('\n- ');
  const totals = t('mail.refund.total', {
    refunded: money(order.refundedCents),
    total: money(order.totalCents),
  });
  const text = [
    t('mail.hello', { name: who.name }),
    '',
    t('mail.refund.refunded', { amount: money(latest.amountCents), ref: who.ref }),
    ...(refundedLines.length > 0 ? ['', t('mail.refund.tickets'), `- ${seatsText}`] : []),
    '',
    totals,
    t('mail.refund.wayBack'),
    t('mail.refund.ticketsLink', { url: ordersPage }),
  ].join('\n');
  const subject = t('mail.refund.subject', { ref: who.ref });
  const html = layout(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(t('mail.hello', { name: who.name }))}</p><p>${t('mail.refund.refundedHtml', { amount: `<strong>${escapeHtml(money(latest.amountCents))}</strong>`, ref: escapeHtml(who.ref) })}</p>${refundedLines.length > 0 ? `<ul>${refundedLines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`).join('')}</ul>` : ''}<p>${escapeHtml(totals)} ${escapeHtml(t('mail.refund.wayBack'))}</p><p><a href="${escapeHtml(ordersPage)}">${escapeHtml(t('mail.myTickets'))}</a></p>`,
    language,
  );
  return queueMail(deps, {
    kind: 'refund_notice',
    dedupeKey: `refund_notice:${session.id}:${order.refunds.length}`,
    to: who.to,
    subject,
    text,
    html,
  });
}

/** The password reset email: the single-use link, valid one hour, in the account's language. */
export function sendPasswordReset(
  deps: MailDeps,
  input: { to: string; name: string; token: string; language?: Language },
): Promise<string | null> {
  const language = input.language ?? 'en';
  const t = textsIn(language);
  const link = absolutePage(deps, `/reset-password?token=${encodeURIComponent(input.token)}`);
  const text = [
    t('mail.hello', { name: input.name }),
    '',
    `${t('mail.reset.asked')} ${t('mail.reset.chooseHere')}`,
    link,
    '',
    t('mail.reset.once'),
    t('mail.reset.ignore'),
  ].join('\n');
  const subject = t('mail.reset.subject');
  const html = layout(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(t('mail.hello', { name: input.name }))}</p><p>${escapeHtml(t('mail.reset.asked'))}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t('mail.reset.choose'))}</a></p><p>${escapeHtml(t('mail.reset.once'))}</p><p>${escapeHtml(t('mail.reset.ignore'))}</p>`,
    language,
  );
  return queueMail(deps, {
    kind: 'password_reset',
    to: input.to,
    subject,
    text,
    html,
  });
}

/** The email verification message: a single-use link for the address it was sent to, in the account's language. */
export function sendEmailVerification(
  deps: MailDeps,
  input: { to: string; name: string; token: string; hours: number; language?: Language },
): Promise<string | null> {
  const language = input.language ?? 'en';
  const t = textsIn(language);
  const link = absolutePage(deps, `/verify-email?token=${encodeURIComponent(input.token)}`);
  const text = [
    t('mail.hello', { name: input.name }),
    '',
    `${t('mail.verify.asked', { email: input.to })} ${t('mail.verify.confirmHere')}`,
    link,
    '',
    t('mail.verify.once', { count: input.hours }),
    t('mail.verify.boxOffice'),
    t('mail.verify.ignore'),
  ].join('\n');
  const subject = t('mail.verify.subject');
  const html = layout(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(t('mail.hello', { name: input.name }))}</p><p>${escapeHtml(t('mail.verify.asked', { email: input.to }))}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t('mail.verify.confirm'))}</a></p><p>${escapeHtml(t('mail.verify.once', { count: input.hours }))} ${escapeHtml(t('mail.verify.boxOffice'))}</p><p>${escapeHtml(t('mail.verify.ignore'))}</p>`,
    language,
  );
  return queueMail(deps, { kind: 'email_verification', to: input.to, subject, text, html });
}

/** A time as the cinema's clock shows it, the hour and minute only ("8:41 PM", "20:41"). */
function cinemaClock(deps: MailDeps, at: Date, language: Language): string {
  return new Intl.DateTimeFormat(localeOf(language), {
    timeStyle: 'short',
    timeZone: deps.config.timeZone,
  }).format(at);
}

/**
 * The waiting list's offer (DESIGN §7.6): which seats are held for the customer, until when by the cinema's clock,
 * and the link to the seat map where they pay or decline; in the account's language. Once per offer.
 */
export async function sendWaitlistOffer(deps: MailDeps, offerId: string): Promise<string | null> {
  const [offer] = await deps.db
    .select({
      showtimeId: waitlistOffers.showtimeId,
      seatIds: waitlistOffers.seatIds,
      expiresAt: waitlistOffers.expiresAt,
      email: users.email,
      name: users.name,
      language: users.language,
      startsAt: showtimes.startsAt,
      title: movies.title,
      hall: halls.name,
    })
    .from(waitlistOffers)
    .innerJoin(users, eq(users.id, waitlistOffers.userId))
    .innerJoin(showtimes, eq(showtimes.id, waitlistOffers.showtimeId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(eq(waitlistOffers.id, offerId))
    .limit(1);
  if (!offer) return null;
  const seatRows = await deps.db
    .select({ row: seats.row, number: seats.number, rowLabel: seats.rowLabel })
    .from(seats)
    .where(inArray(seats.id, offer.seatIds))
    .orderBy(asc(seats.row), asc(seats.number));
  const language: Language = isLanguage(offer.language) ? offer.language : 'en';
  const t = textsIn(language);
  const seatList = seatRows.map((s) => seatText(s, language)).join(', ');
  const until = cinemaClock(deps, offer.expiresAt, language);
  const when = cinemaTime(deps, offer.startsAt, language);
  const link = absolutePage(deps, `/showtimes/${offer.showtimeId}/seats`);
  const subject = t('mail.waitlist.subject', { movie: offer.title });
  const text = [
    t('mail.hello', { name: offer.name }),
    '',
    t('mail.waitlist.held', { count: seatRows.length, movie: offer.title, when, hall: offer.hall }),
    seatList,
    '',
    t('mail.waitlist.until', { time: until }),
    t('mail.waitlist.payHere', { url: link }),
    '',
    t('mail.waitlist.decline'),
  ].join('\n');
  const html = layout(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1><p>${escapeHtml(t('mail.hello', { name: offer.name }))}</p><p>${escapeHtml(t('mail.waitlist.held', { count: seatRows.length, movie: offer.title, when, hall: offer.hall }))}</p><p><strong>${escapeHtml(seatList)}</strong></p><p>${escapeHtml(t('mail.waitlist.until', { time: until }))}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t('mail.waitlist.link'))}</a></p><p>${escapeHtml(t('mail.waitlist.decline'))}</p>`,
    language,
  );
  return queueMail(deps, {
    kind: 'waitlist_offer',
    dedupeKey: `waitlist_offer:${offerId}`,
    to: offer.email,
    subject,
    text,
    html,
  });
}
