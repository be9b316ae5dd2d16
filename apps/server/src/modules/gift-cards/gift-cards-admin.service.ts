import { and, asc, desc, eq, gt, lte, sql } from 'drizzle-orm';
import {
  addDays,
  dayStart,
  formatGiftCardCode,
  minorToText,
  normalizeGiftCardCode,
  type GiftCardLedger,
  type GiftCardLiability,
  type StaffGiftCard,
} from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { giftCardEntries, giftCards, orders, users } from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';

type CardRow = typeof giftCards.$inferSelect;

const staffCard = (card: CardRow, orderRef: string | null, now = new Date()): StaffGiftCard => ({
  code: formatGiftCardCode(card.code),
  status: card.status === 'VOIDED' ? 'voided' : card.expiresAt <= now ? 'expired' : 'active',
  initialCents: card.initialCents,
  balanceCents: card.balanceCents,
  currency: card.currency,
  expiresAt: card.expiresAt.toISOString(),
  createdAt: card.createdAt.toISOString(),
  recipientEmail: card.recipientEmail,
  orderRef,
});

/** `GET /api/admin/gift-cards?q=`: the card of a code, or the cards sent to (or bought by) an email; newest first. */
export async function findCards(db: Queryable, q: string): Promise<{ cards: StaffGiftCard[] }> {
  const code = normalizeGiftCardCode(q);
  const query = db
    .select({ card: giftCards, orderRef: orders.ref })
    .from(giftCards)
    .leftJoin(orders, eq(orders.id, giftCards.orderId));
  const rows = code
    ? await query.where(eq(giftCards.code, code))
    : await query
        .leftJoin(users, eq(users.id, orders.userId))
        .where(
          sql`lower(${giftCards.recipientEmail}) = ${q.trim().toLowerCase()} or lower(${users.email}) = ${q.trim().toLowerCase()} or lower(${orders.customerEmail}) = ${q.trim().toLowerCase()}`,
        )
        .orderBy(desc(giftCards.createdAt))
        .limit(50);
  return { cards: rows.map((r) => staffCard(r.card, r.orderRef)) };
}

/** `GET /api/admin/gift-cards/{code}`: the card and its ledger, oldest first; 404 for a code no card has. */
export async function cardLedger(db: Queryable, typed: string): Promise<GiftCardLedger> {
  const code = normalizeGiftCardCode(typed);
  const [row] = code
    ? await db
        .select({ card: giftCards, orderRef: orders.ref })
        .from(giftCards)
        .leftJoin(orders, eq(orders.id, giftCards.orderId))
        .where(eq(giftCards.code, code))
    : [];
  if (!row) throw notFound('No gift card has this code');
  const entries = await db
    .select({
      kind: giftCardEntries.kind,
      amountCents: giftCardEntries.amountCents,
      balanceAfterCents: giftCardEntries.balanceAfterCents,
      at: giftCardEntries.createdAt,
      by: users.email,
      orderRef: orders.ref,
      note: giftCardEntries.note,
    })
    .from(giftCardEntries)
    .leftJoin(users, eq(users.id, giftCardEntries.createdBy))
    .leftJoin(orders, eq(orders.id, giftCardEntries.orderId))
    .where(eq(giftCardEntries.giftCardId, row.card.id))
    .orderBy(asc(giftCardEntries.createdAt), asc(giftCardEntries.id));
  return {
    card: staffCard(row.card, row.orderRef),
    entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
  };
}

/**
 * `GET /api/admin/gift-cards/liability?date=`: what every card held at the end of that day on the cinema's clocks
 * (the sum of its ledger up to then), for the cards not expired by then: the cinema's outstanding liability.
 */
export async function liabilityOn(
  db: Queryable,
  config: { timeZone: string; currency: string },
  date: string,
): Promise<GiftCardLiability> {
  const end = dayStart(addDays(date, 1), config.timeZone);
  const rows = await db
    .select({
      code: giftCards.code,
      expiresAt: giftCards.expiresAt,
      balanceCents: sql<number>`sum(${giftCardEntries.amountCents})::int`,
    })
    .from(giftCardEntries)
    .innerJoin(giftCards, eq(giftCards.id, giftCardEntries.giftCardId))
    .where(and(lte(giftCardEntries.createdAt, end), gt(giftCards.expiresAt, end)))
    .groupBy(giftCards.id, giftCards.code, giftCards.expiresAt)
    .having(sql`sum(${giftCardEntries.amountCents}) > 0`)
    .orderBy(asc(giftCards.code));
  const cards = rows.map((r) => ({
    code: formatGiftCardCode(r.code),
    balanceCents: Number(r.balanceCents),
    expiresAt: r.expiresAt.toISOString(),
  }));
  return {
    date,
    currency: config.currency,
    outstandingCents: cards.reduce((sum, c) => sum + c.balanceCents, 0),
    cards,
  };
}

/** The liability report as CSV: a row per card and a total row, money in the currency's major unit. */
export function liabilityCsv(report: GiftCardLiability): string {
  const money = (minor: number) => minorToText(minor, report.currency);
  return [
    'Code,Balance,Expires',
    ...report.cards.map((c) => `${c.code},${money(c.balanceCents)},${c.expiresAt}`),
    `Total,${money(report.outstandingCents)},`,
  ].join('\r\n');
}
