import QRCode from 'qrcode';
import { asc, eq, sql } from 'drizzle-orm';
import { formatMoney, seatLabel, type Ticket } from '@cinema/contract';
import { bookings, checkoutSessions, seats, users } from '../../db/schema/index.ts';
import { clientPage } from '../../config.ts';
import { getMyOrder } from '../payments/orders.service.ts';
import { selectTickets } from '../tickets/tickets.service.ts';
import { WALK_IN_EMAIL } from '../box-office/walk-in.ts';
import { calendarFile } from './ics.ts';
import { queueMail, type MailDeps } from './outbox.service.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A start time as the cinema's clock shows it: "Tuesday, November 24, 2026 at 7:30 PM". */
export function cinemaTime(deps: MailDeps, iso: string | Date): string {
  return new Intl.DateTimeFormat('en-US', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: deps.config.timeZone,
  }).format(new Date(iso));
}

/** Links in emails are absolute: the web app's page on CLIENT_URL (else PUBLIC_URL). */
export function absolutePage(deps: MailDeps, path: string): string {
  const page = clientPage(deps.config, path);
  return page.startsWith('/') ? `${deps.config.publicUrl}${page}` : page;
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;color:#111;background:#fff;max-width:600px;margin:0 auto;padding:16px">${body}</body></html>`;
}

/** Who hears about an order: the email given at the counter, else the account's (never the walk-in account). */
async function recipientOf(deps: MailDeps, sessionId: string) {
  const [row] = await deps.db
    .select({
      ref: checkoutSessions.ref,
      userId: checkoutSessions.userId,
      customerEmail: checkoutSessions.customerEmail,
      customerName: checkoutSessions.customerName,
      email: users.email,
      name: users.name,
    })
    .from(checkoutSessions)
    .innerJoin(users, eq(users.id, checkoutSessions.userId))
    .where(eq(checkoutSessions.id, sessionId))
    .limit(1);
  if (!row?.ref) return null;
  const to = row.customerEmail ?? (row.email === WALK_IN_EMAIL ? null : row.email);
  if (!to) return null;
  return { ...row, ref: row.ref, to, name: row.customerName ?? row.name };
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
function showings(tickets: Ticket[]) {
  const byShowing = new Map<string, { first: Ticket; seats: string[] }>();
  for (const t of tickets) {
    const key = `${t.startsAt}|${t.auditorium}|${t.movie.title}`;
    const entry = byShowing.get(key) ?? { first: t, seats: [] };
    entry.seats.push(seatLabel(t.seat));
    byShowing.set(key, entry);
  }
  return [...byShowing.values()];
}

/**
 * The order confirmation (DESIGN §6.6): every ticket with its QR code as an inline PNG, and an .ics file with the
 * showings. Sent once per order (later calls change nothing); nothing when the order confirmed no ticket.
 */
export async function sendOrderConfirmation(deps: MailDeps, sessionId: string): Promise<string | null> {
  const who = await recipientOf(deps, sessionId);
  if (!who) return null;
  const tickets = await orderTickets(deps, sessionId);
  if (tickets.length === 0) return null;
  const order = await getMyOrder(deps.db, who.userId, who.ref);
  const money = (cents: number) => formatMoney(cents, { currency: order.currency.toUpperCase() });
  const qrs = await Promise.all(
    tickets.map((t) =>
      QRCode.toBuffer(t.bookingId, { type: 'png', width: 240, margin: 2, errorCorrectionLevel: 'M' }),
    ),
  );
  const ticketsPage = absolutePage(deps, '/tickets');
  const refunded = order.lines.filter((l) => l.status === 'refunded');

  const textLines = [
    `Hello ${who.name},`,
    '',
    `Thank you for your order ${who.ref}. Your tickets:`,
    '',
    ...tickets.map(
      (t) => `- ${t.movie.title}, ${cinemaTime(deps, t.startsAt)}, ${t.auditorium}, ${seatLabel(t.seat)}`,
    ),
    '',
    `Total paid: ${money(order.totalCents)}${order.testMode ? ' (test payment: no money moved)' : ''}`,
    ...(refunded.length > 0
      ? [
          '',
          `${refunded.length === 1 ? 'One seat was' : `${refunded.length} seats were`} taken before your payment arrived and ${refunded.length === 1 ? 'is' : 'are'} refunded: ${refunded.map((l) => seatLabel(l.seat)).join(', ')}.`,
        ]
      : []),
    '',
    'Show the QR code of each ticket at the door (they are attached to this email).',
    `Your tickets (and a PDF to print): ${ticketsPage}`,
  ];
  const cards = tickets
    .map(
      (t, i) =>
        `<tr><td style="padding:8px 0"><img src="cid:ticket-${i + 1}" width="160" height="160" alt="QR code for ${escapeHtml(`${t.movie.title}, ${seatLabel(t.seat)}`)}"></td><td style="padding:8px 12px"><strong>${escapeHtml(t.movie.title)}</strong><br>${escapeHtml(cinemaTime(deps, t.startsAt))}<br>${escapeHtml(t.auditorium)} · ${escapeHtml(seatLabel(t.seat))}${t.ticketType ? `<br>${escapeHtml(t.ticketType)}` : ''}</td></tr>`,
    )
    .join('');
  const html = layout(
    `Your tickets: order ${who.ref}`,
    `<h1 style="font-size:20px">Your tickets</h1><p>Hello ${escapeHtml(who.name)},</p><p>Thank you for your order <strong>${escapeHtml(who.ref)}</strong>. Show the QR code of each ticket at the door.</p><table role="presentation">${cards}</table><p>Total paid: <strong>${escapeHtml(money(order.totalCents))}</strong>${order.testMode ? ' (test payment: no money moved)' : ''}</p>${refunded.length > 0 ? `<p>Taken before your payment arrived and refunded: ${escapeHtml(refunded.map((l) => seatLabel(l.seat)).join(', '))}.</p>` : ''}<p><a href="${escapeHtml(ticketsPage)}">My tickets</a> (and a PDF to print)</p>`,
  );
  const events = showings(tickets).map(({ first, seats }) => ({
    uid: `${who.ref}-${new Date(first.startsAt).getTime()}@${new URL(deps.config.publicUrl).hostname}`,
    start: new Date(first.startsAt),
    end: new Date(new Date(first.startsAt).getTime() + (first.movie.durationMinutes ?? 120) * 60_000),
    summary: first.movie.title,
    location: first.auditorium,
    description: `${seats.join(', ')} · order ${who.ref}`,
  }));
  return queueMail(deps, {
    kind: 'order_confirmation',
    dedupeKey: `order_confirmation:${sessionId}`,
    to: who.to,
    subject: `Your tickets: order ${who.ref}`,
    text: textLines.join('\n'),
    html,
    attachments: [
      ...qrs.map((content, i) => ({
        filename: `ticket-${i + 1}.png`,
        contentType: 'image/png',
        content,
        cid: `ticket-${i + 1}`,
      })),
      {
        filename: 'showtime.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: Buffer.from(calendarFile(events), 'utf8'),
      },
    ],
  });
}

/**
 * Tells the customer about the refunds of an order (by its reference, any letter case): what was refunded and the
 * order's refunded total. One notice per refund count, so a second refund of the same order sends another.
 * Returns the outbox id, or null when there is nothing to tell or nobody to tell it to.
 */
export async function sendRefundNotice(deps: MailDeps, orderRef: string): Promise<string | null> {
  const [session] = await deps.db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(eq(sql`upper(${checkoutSessions.ref})`, orderRef.trim().toUpperCase()))
    .limit(1);
  if (!session) return null;
  const who = await recipientOf(deps, session.id);
  if (!who) return null;
  const order = await getMyOrder(deps.db, who.userId, who.ref);
  if (order.refunds.length === 0) return null;
  const money = (cents: number) => formatMoney(cents, { currency: order.currency.toUpperCase() });
  const refundedLines = order.lines.filter((l) => l.status === 'refunded');
  const latest = order.refunds.at(-1)!;
  const ordersPage = absolutePage(deps, '/tickets');
  const seatsText = refundedLines
    .map((l) => `${l.movie}, ${cinemaTime(deps, l.startsAt)}, ${seatLabel(l.seat)}`)
    .join('\n- ');
  const text = [
    `Hello ${who.name},`,
    '',
    `We refunded ${money(latest.amountCents)} of your order ${who.ref}.`,
    ...(refundedLines.length > 0 ? ['', 'Refunded tickets:', `- ${seatsText}`] : []),
    '',
    `Refunded in total: ${money(order.refundedCents)} of ${money(order.totalCents)}.`,
    'The money goes back the way you paid; your bank may take a few days to show it.',
    `Your tickets: ${ordersPage}`,
  ].join('\n');
  const html = layout(
    `Refund for order ${who.ref}`,
    `<h1 style="font-size:20px">Refund for order ${escapeHtml(who.ref)}</h1><p>Hello ${escapeHtml(who.name)},</p><p>We refunded <strong>${escapeHtml(money(latest.amountCents))}</strong> of your order ${escapeHtml(who.ref)}.</p>${refundedLines.length > 0 ? `<ul>${refundedLines.map((l) => `<li>${escapeHtml(`${l.movie}, ${cinemaTime(deps, l.startsAt)}, ${seatLabel(l.seat)}`)}</li>`).join('')}</ul>` : ''}<p>Refunded in total: ${escapeHtml(money(order.refundedCents))} of ${escapeHtml(money(order.totalCents))}. The money goes back the way you paid; your bank may take a few days to show it.</p><p><a href="${escapeHtml(ordersPage)}">My tickets</a></p>`,
  );
  return queueMail(deps, {
    kind: 'refund_notice',
    dedupeKey: `refund_notice:${session.id}:${order.refunds.length}`,
    to: who.to,
    subject: `Refund for order ${who.ref}`,
    text,
    html,
  });
}

/** The password reset email: the single-use link, valid one hour. */
export function sendPasswordReset(
  deps: MailDeps,
  input: { to: string; name: string; token: string },
): Promise<string | null> {
  const link = absolutePage(deps, `/reset-password?token=${encodeURIComponent(input.token)}`);
  const text = [
    `Hello ${input.name},`,
    '',
    'Someone (we hope you) asked to reset the password of your cinema account. Choose a new password here:',
    link,
    '',
    'The link works once and for one hour. Using it signs your account out everywhere.',
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = layout(
    'Reset your password',
    `<h1 style="font-size:20px">Reset your password</h1><p>Hello ${escapeHtml(input.name)},</p><p>Someone (we hope you) asked to reset the password of your cinema account.</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>The link works once and for one hour. Using it signs your account out everywhere.</p><p>If you did not ask for this, ignore this email: your password stays as it is.</p>`,
  );
  return queueMail(deps, {
    kind: 'password_reset',
    to: input.to,
    subject: 'Reset your password',
    text,
    html,
  });
}
