import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  GIFT_CARD_ALPHABET,
  formatGiftCardCode,
  normalizeGiftCardCode,
  type GiftCardBalance,
  type GiftCardUse,
} from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable, type Tx } from '../../db/database.ts';
import { giftCardEntries, giftCards, orderPayments, type GiftCardEntryKind } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';

/**
 * Gift cards (DESIGN §7.3, decision 045): codes, the ledger, and a card's part in an order. Every change of a balance
 * is one conditional UPDATE of the card (the database keeps the balance between zero and its value) and one ledger
 * entry, in the caller's transaction.
 */

/** A new code: 80 bits from the CSPRNG, 5 bits a character (32 divides 256: no character is likelier than another). */
export function newGiftCardCode(): string {
  return [...randomBytes(16)].map((b) => GIFT_CARD_ALPHABET[b % 32]).join('');
}

type CardRow = typeof giftCards.$inferSelect;

const statusOf = (
  card: Pick<CardRow, 'status' | 'expiresAt'>,
  now = new Date(),
): GiftCardBalance['status'] =>
  card.status === 'VOIDED' ? 'voided' : card.expiresAt <= now ? 'expired' : 'active';

/** The card of a code as typed; null when none has it (or it cannot be a code). */
export async function findCard(q: Queryable, typed: string): Promise<CardRow | null> {
  const code = normalizeGiftCardCode(typed);
  if (!code) return null;
  const [card] = await q.select().from(giftCards).where(eq(giftCards.code, code));
  return card ?? null;
}

/** How many of a card's ledger entries its holder sees (the newest). */
const HISTORY_ENTRIES = 50;

/**
 * `GET /api/gift-cards/{code}`: balance, currency, expiry and the card's history (its ledger without names or orders:
 * whoever holds the code may spend it, and sees what it was spent on and given back); 404 for a code no card has.
 */
export async function cardBalance(q: Queryable, typed: string): Promise<GiftCardBalance> {
  const card = await findCard(q, typed);
  if (!card) throw notFound('No gift card has this code');
  const history = await q
    .select({
      kind: giftCardEntries.kind,
      amountCents: giftCardEntries.amountCents,
      balanceAfterCents: giftCardEntries.balanceAfterCents,
      at: giftCardEntries.createdAt,
    })
    .from(giftCardEntries)
    .where(eq(giftCardEntries.giftCardId, card.id))
    .orderBy(desc(giftCardEntries.createdAt), desc(giftCardEntries.id))
    .limit(HISTORY_ENTRIES);
  return {
    code: formatGiftCardCode(card.code),
    balanceCents: card.balanceCents,
    currency: card.currency,
    expiresAt: card.expiresAt.toISOString(),
    status: statusOf(card),
    history: history.map((e) => ({ ...e, at: e.at.toISOString() })),
  };
}

/** Writes one entry of a card's ledger: the card's balance moves by `amountCents` (signed) under the database's check. */
async function move(
  tx: Tx,
  cardId: string,
  entry: {
    kind: GiftCardEntryKind;
    amountCents: number;
    orderId?: string | null;
    paymentId?: string | null;
    createdBy?: string | null;
    note?: string | null;
  },
): Promise<number> {
  const [card] = await tx
    .update(giftCards)
    .set({ balanceCents: sql`${giftCards.balanceCents} + ${entry.amountCents}` })
    .where(eq(giftCards.id, cardId))
    .returning({ balanceCents: giftCards.balanceCents });
  if (!card) throw new Error(`gift card ${cardId} is gone`);
  await tx.insert(giftCardEntries).values({
    giftCardId: cardId,
    kind: entry.kind,
    amountCents: entry.amountCents,
    balanceAfterCents: card.balanceCents,
    orderId: entry.orderId ?? null,
    paymentId: entry.paymentId ?? null,
    createdBy: entry.createdBy ?? null,
    note: entry.note ?? null,
  });
  return card.balanceCents;
}

/**
 * Issues a card worth `amountCents` (a gift card line delivered): a fresh code (drawn again in the unlikely case it
 * is taken), expiring `months` from now, with its `SOLD` entry.
 */
export async function issueCard(
  tx: Tx,
  input: {
    amountCents: number;
    currency: string;
    months: number;
    orderId?: string | null;
    lineId?: string | null;
    recipientEmail?: string | null;
    message?: string | null;
    createdBy?: string | null;
  },
): Promise<{ id: string; code: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const card = await tx.transaction(async (sp) => {
        const [row] = await sp
          .insert(giftCards)
          .values({
            code: newGiftCardCode(),
            currency: input.currency.toUpperCase(),
            initialCents: input.amountCents,
            balanceCents: input.amountCents,
            expiresAt: sql`now() + make_interval(months => ${input.months})`,
            orderId: input.orderId ?? null,
            lineId: input.lineId ?? null,
            recipientEmail: input.recipientEmail ?? null,
            message: input.message ?? null,
          })
          .returning({ id: giftCards.id, code: giftCards.code });
        return row!;
      });
      await tx.insert(giftCardEntries).values({
        giftCardId: card.id,
        kind: 'SOLD',
        amountCents: input.amountCents,
        balanceAfterCents: input.amountCents,
        orderId: input.orderId ?? null,
        createdBy: input.createdBy ?? null,
      });
      return card;
    } catch (err) {
      if (attempt >= 5 || pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
    }
  }
}

/**
 * The cards of these codes, in the order given, for paying an order: 404 naming a code no card has, 409 for a card
 * voided, expired, empty or in another currency. `lock`: locked FOR UPDATE in id order (two orders naming the same
 * cards in another order cannot deadlock).
 */
async function cardsToPay(q: Queryable, codes: string[], currency: string, lock: boolean) {
  const wanted = codes.map((typed) => {
    const code = normalizeGiftCardCode(typed);
    if (!code) throw badRequest('Enter a gift card code of 16 characters');
    return code;
  });
  if (new Set(wanted).size !== wanted.length) throw badRequest('Each gift card once');
  if (wanted.length === 0) return [];
  const query = q.select().from(giftCards).where(inArray(giftCards.code, wanted)).orderBy(asc(giftCards.id));
  const rows = lock ? await query.for('update') : await query;
  const now = new Date();
  return wanted.map((code) => {
    const card = rows.find((r) => r.code === code);
    const shown = formatGiftCardCode(code);
    if (!card) throw new AppError(404, 'gift_card_not_found', `No gift card has the code ${shown}`);
    const status = statusOf(card, now);
    if (status === 'voided') throw conflict(`The gift card ${shown} is no longer valid`, 'gift_card_voided');
    if (status === 'expired') throw conflict(`The gift card ${shown} has expired`, 'gift_card_expired');
    if (card.currency !== currency.toUpperCase())
      throw conflict(`The gift card ${shown} is in another currency`, 'gift_card_currency');
    if (card.balanceCents === 0)
      throw conflict(`The gift card ${shown} has nothing left on it`, 'gift_card_empty');
    return card;
  });
}

/** What each card takes of `totalCents`, in the order given: as much as it holds, until nothing is left to pay. */
function share(cards: Pick<CardRow, 'code' | 'balanceCents'>[], totalCents: number): GiftCardUse[] {
  let due = totalCents;
  return cards.map((card) => {
    const amountCents = Math.min(card.balanceCents, due);
    due -= amountCents;
    return {
      code: formatGiftCardCode(card.code),
      amountCents,
      balanceAfterCents: card.balanceCents - amountCents,
    };
  });
}

/** A quote: what these cards would take of the order (nothing is reserved). */
export async function quoteCards(
  q: Queryable,
  codes: string[],
  currency: string,
  totalCents: number,
): Promise<GiftCardUse[]> {
  return share(await cardsToPay(q, codes, currency, false), totalCents);
}

/**
 * Reserves what these cards pay of an open order (`totalCents`): each card, locked, gives as much as it holds until
 * nothing is left, as a `PENDING` gift card payment of the order and a `REDEEMED` entry; markPaid captures them, and
 * an order closed unpaid gives them back (releaseCards). A card named but not needed (the order is already covered)
 * is refused, so nobody is told a card paid that did not.
 */
export async function reserveCards(
  tx: Tx,
  input: { orderId: string; codes: string[]; currency: string; totalCents: number; userId?: string | null },
): Promise<GiftCardUse[]> {
  const cards = await cardsToPay(tx, input.codes, input.currency, true);
  const uses = share(cards, input.totalCents);
  const idle = uses.filter((u) => u.amountCents === 0);
  if (idle.length > 0) {
    throw conflict(
      `This order is already paid in full without the gift card ${idle[0]!.code}`,
      'gift_card_not_needed',
    );
  }
  for (const [i, card] of cards.entries()) {
    const { amountCents } = uses[i]!;
    const [payment] = await tx
      .insert(orderPayments)
      .values({
        orderId: input.orderId,
        method: 'GIFT_CARD',
        status: 'PENDING',
        amountCents,
        giftCardId: card.id,
      })
      .returning({ id: orderPayments.id });
    await move(tx, card.id, {
      kind: 'REDEEMED',
      amountCents: -amountCents,
      orderId: input.orderId,
      paymentId: payment!.id,
      createdBy: input.userId ?? null,
    });
  }
  return uses;
}

/**
 * Gives back what open orders closed unpaid had reserved on gift cards (expired, cancelled, replaced): their
 * `PENDING` gift card payments become `VOIDED` and each card is credited with a `RELEASED` entry. Inside the
 * transaction that closes the orders.
 */
export async function releaseCards(tx: Tx, orderIds: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  const voided = await tx
    .update(orderPayments)
    .set({ status: 'VOIDED' })
    .where(
      and(
        inArray(orderPayments.orderId, orderIds),
        eq(orderPayments.method, 'GIFT_CARD'),
        eq(orderPayments.status, 'PENDING'),
      ),
    )
    .returning({
      id: orderPayments.id,
      orderId: orderPayments.orderId,
      giftCardId: orderPayments.giftCardId,
      amountCents: orderPayments.amountCents,
    });
  // Cards in id order, as reserving locks them.
  voided.sort((a, b) => (a.giftCardId! < b.giftCardId! ? -1 : a.giftCardId! > b.giftCardId! ? 1 : 0));
  for (const p of voided) {
    await move(tx, p.giftCardId!, {
      kind: 'RELEASED',
      amountCents: p.amountCents,
      orderId: p.orderId,
      paymentId: p.id,
    });
  }
}

/**
 * markPaid of an order closed before the provider's word arrived (a late payment): its reservations were given back,
 * so each is taken again. All or none: when a card no longer holds its part (spent meanwhile, voided), nothing is
 * taken and false is answered; the order then cannot be delivered and what the provider took goes back.
 */
export async function retakeReleasedCards(tx: Tx, orderId: string): Promise<boolean> {
  const released = await tx
    .select({
      id: orderPayments.id,
      giftCardId: orderPayments.giftCardId,
      amountCents: orderPayments.amountCents,
    })
    .from(orderPayments)
    .where(
      and(
        eq(orderPayments.orderId, orderId),
        eq(orderPayments.method, 'GIFT_CARD'),
        eq(orderPayments.status, 'VOIDED'),
      ),
    );
  if (released.length === 0) return true;
  const cards = await tx
    .select({
      id: giftCards.id,
      balanceCents: giftCards.balanceCents,
      status: giftCards.status,
      expiresAt: giftCards.expiresAt,
    })
    .from(giftCards)
    .where(
      inArray(
        giftCards.id,
        released.map((p) => p.giftCardId!),
      ),
    )
    .orderBy(asc(giftCards.id))
    .for('update');
  const enough = released.every((p) => {
    const card = cards.find((c) => c.id === p.giftCardId);
    return card && card.status === 'ACTIVE' && card.balanceCents >= p.amountCents;
  });
  if (!enough) return false;
  for (const p of released) {
    await tx.update(orderPayments).set({ status: 'PENDING' }).where(eq(orderPayments.id, p.id));
    await move(tx, p.giftCardId!, {
      kind: 'REDEEMED',
      amountCents: -p.amountCents,
      orderId,
      paymentId: p.id,
      note: 'taken again: the payment arrived after the order had closed',
    });
  }
  return true;
}

/** A refund of a gift card payment goes back to its card (refundLines' transaction): a `REFUNDED` entry. */
export async function creditRefund(
  tx: Tx,
  input: { paymentId: string; amountCents: number; orderId: string; createdBy?: string | null },
): Promise<void> {
  if (input.amountCents <= 0) return;
  const [payment] = await tx
    .select({ giftCardId: orderPayments.giftCardId })
    .from(orderPayments)
    .where(eq(orderPayments.id, input.paymentId));
  if (!payment?.giftCardId) throw new Error(`payment ${input.paymentId} has no gift card`);
  await move(tx, payment.giftCardId, {
    kind: 'REFUNDED',
    amountCents: input.amountCents,
    orderId: input.orderId,
    paymentId: input.paymentId,
    createdBy: input.createdBy ?? null,
  });
}

/** Voids a card: its balance goes to zero with a `VOIDED` entry. The card's row must be locked by the caller. */
async function voidLocked(
  tx: Tx,
  card: Pick<CardRow, 'id' | 'balanceCents' | 'orderId'>,
  by: { userId?: string | null; note?: string | null },
) {
  await tx
    .update(giftCards)
    .set({ status: 'VOIDED', voidedAt: sql`now()`, voidedBy: by.userId ?? null })
    .where(eq(giftCards.id, card.id));
  await move(tx, card.id, {
    kind: 'VOIDED',
    amountCents: -card.balanceCents,
    orderId: card.orderId,
    createdBy: by.userId ?? null,
    note: by.note ?? null,
  });
}

/**
 * A refunded gift card purchase (the GIFT_CARD line's takeBack): the cards these lines issued are voided when nobody
 * used them; a card that paid for anything (or holds a reservation) refuses the refund, 409 `gift_card_used`.
 */
export async function voidSoldCards(tx: Tx, lineIds: string[]): Promise<void> {
  if (lineIds.length === 0) return;
  const cards = await tx
    .select()
    .from(giftCards)
    .where(inArray(giftCards.lineId, lineIds))
    .orderBy(asc(giftCards.id))
    .for('update');
  const used = cards.find((c) => c.balanceCents < c.initialCents);
  if (used) {
    throw conflict(
      `The gift card ${formatGiftCardCode(used.code)} was already used: its purchase cannot be refunded`,
      'gift_card_used',
    );
  }
  for (const card of cards) {
    if (card.status !== 'VOIDED') await voidLocked(tx, card, { note: 'purchase refunded' });
  }
}

/**
 * Staff void a card (`POST /api/admin/gift-cards/{code}/void`, audited by the caller): its balance goes to zero; a
 * card already voided is 409. What an open order reserved on it stays reserved (it is given back to the void card if
 * the order closes unpaid).
 */
export async function voidCardByStaff(
  tx: Tx,
  typed: string,
  by: { userId: string; reason: string | null },
): Promise<{ before: CardRow }> {
  const code = normalizeGiftCardCode(typed);
  const [card] = code ? await tx.select().from(giftCards).where(eq(giftCards.code, code)).for('update') : [];
  if (!card) throw notFound('No gift card has this code');
  if (card.status === 'VOIDED')
    throw conflict(`The gift card ${formatGiftCardCode(card.code)} is no longer valid`, 'gift_card_voided');
  await voidLocked(tx, card, { userId: by.userId, note: by.reason });
  return { before: card };
}
