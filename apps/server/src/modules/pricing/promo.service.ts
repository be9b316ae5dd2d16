import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CreatePromoCodeBody, PromoCode } from '@cinema/contract';
import {
  PG_FOREIGN_KEY_VIOLATION,
  PG_UNIQUE_VIOLATION,
  pgErrorCode,
  type Db,
  type Queryable,
  type Tx,
} from '../../db/database.ts';
import { promoCodes, promoRedemptions } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';

type PromoRow = typeof promoCodes.$inferSelect;

export function presentPromo(p: PromoRow): PromoCode {
  return {
    id: p.id,
    code: p.code,
    percentOff: p.percentOff,
    amountOffCents: p.amountOffCents,
    maxUses: p.maxUses,
    maxUsesPerCustomer: p.maxUsesPerCustomer,
    validFrom: p.validFrom?.toISOString() ?? null,
    validTo: p.validTo?.toISOString() ?? null,
    movieId: p.movieId,
    showtimeId: p.showtimeId,
    uses: p.uses,
    active: p.active,
  };
}

/** Every promo code, newest first. */
export async function listPromoCodes(db: Queryable): Promise<PromoCode[]> {
  return (await db.select().from(promoCodes).orderBy(desc(promoCodes.createdAt))).map(presentPromo);
}

/** Adds a promo code (codes are matched in any letter case: one in use is a 409). */
export async function createPromoCode(db: Db, actor: Actor, input: CreatePromoCodeBody): Promise<PromoCode> {
  try {
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(promoCodes)
        .values({
          code: input.code.toUpperCase(),
          percentOff: input.percentOff ?? null,
          amountOffCents: input.amountOffCents ?? null,
          maxUses: input.maxUses ?? null,
          maxUsesPerCustomer: input.maxUsesPerCustomer ?? null,
          validFrom: input.validFrom ? new Date(input.validFrom) : null,
          validTo: input.validTo ? new Date(input.validTo) : null,
          movieId: input.movieId ?? null,
          showtimeId: input.showtimeId ?? null,
        })
        .returning();
      await recordAudit(tx, actor, {
        action: 'promo.create',
        subjectType: 'promo_code',
        subjectId: created!.id,
        after: input,
      });
      return created!;
    });
    return presentPromo(row);
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === PG_UNIQUE_VIOLATION) throw conflict(`The code ${input.code.toUpperCase()} already exists`);
    if (code === PG_FOREIGN_KEY_VIOLATION) throw notFound('Movie or showtime not found');
    throw err;
  }
}

/** Ends a promo code: deleted if nobody used it, else deactivated (its uses stay on the orders that had it). */
export async function deletePromoCode(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(promoCodes).where(eq(promoCodes.id, id)).for('update');
    if (!before) throw notFound('Promo code not found');
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(promoRedemptions)
      .where(eq(promoRedemptions.promoCodeId, id));
    if (used!.n > 0) await tx.update(promoCodes).set({ active: false }).where(eq(promoCodes.id, id));
    else await tx.delete(promoCodes).where(eq(promoCodes.id, id));
    await recordAudit(tx, actor, {
      action: used!.n > 0 ? 'promo.deactivate' : 'promo.delete',
      subjectType: 'promo_code',
      subjectId: id,
      before: { code: before.code, uses: used!.n },
    });
  });
}

/** A line of a checkout as a promo code's scope sees it. */
export interface PromoLine {
  showtimeId: string;
  movieId: string;
}

export type PromoCheck =
  | { applied: true; promo: PromoRow; eligible: boolean[] }
  | { applied: false; reason: string; promo: PromoRow | null };

/**
 * Whether a code applies to these lines for this customer now, and to which lines (its movie or showtime scope); a
 * reason a customer can act on when it does not. Reads only: the use is counted by reservePromo at checkout. The uses
 * reserved by `replacing` (the customer's open checkouts that the checkout asked about would close, giving their
 * uses back) do not count: the quote answers what that checkout would.
 */
export async function checkPromo(
  db: Queryable,
  input: { code: string; userId: string; lines: PromoLine[]; replacing?: string[] },
): Promise<PromoCheck> {
  const [promo] = await db
    .select()
    .from(promoCodes)
    .where(eq(sql`upper(${promoCodes.code})`, input.code.trim().toUpperCase()))
    .limit(1);
  if (!promo || !promo.active) return { applied: false, reason: 'This code does not exist', promo: null };
  const now = Date.now();
  if (promo.validFrom && promo.validFrom.getTime() > now) {
    return { applied: false, reason: 'This code is not valid yet', promo };
  }
  if (promo.validTo && promo.validTo.getTime() <= now)
    return { applied: false, reason: 'This code has expired', promo };
  const eligible = input.lines.map(
    (l) =>
      (!promo.movieId || l.movieId === promo.movieId) &&
      (!promo.showtimeId || l.showtimeId === promo.showtimeId),
  );
  if (!eligible.some(Boolean)) {
    const what = promo.showtimeId ? 'another showtime' : 'another movie';
    return { applied: false, reason: `This code is for ${what}`, promo };
  }
  const givenBack = await reservedBy(db, promo.id, input.replacing ?? []);
  if (promo.maxUses !== null && promo.uses - givenBack >= promo.maxUses) {
    return { applied: false, reason: 'This code has been used as often as it can be', promo };
  }
  if (
    promo.maxUsesPerCustomer !== null &&
    (await customerUses(db, promo.id, input.userId)) - givenBack >= promo.maxUsesPerCustomer
  ) {
    return { applied: false, reason: 'You have used this code as often as you can', promo };
  }
  return { applied: true, promo, eligible };
}

/** How many redemptions of a code match these conditions. */
async function redemptions(db: Queryable, promoId: string, ...where: SQL[]): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.promoCodeId, promoId), ...where));
  return row!.n;
}

/** The uses of a code a customer has: paid for, or reserved by an open checkout. */
const customerUses = (db: Queryable, promoId: string, userId: string) =>
  redemptions(
    db,
    promoId,
    eq(promoRedemptions.userId, userId),
    inArray(promoRedemptions.status, ['reserved', 'used']),
  );

/** The uses of a code these checkouts reserved (and would give back if they closed). */
const reservedBy = async (db: Queryable, promoId: string, sessionIds: string[]) =>
  sessionIds.length === 0
    ? 0
    : redemptions(
        db,
        promoId,
        inArray(promoRedemptions.checkoutSessionId, sessionIds),
        eq(promoRedemptions.status, 'reserved'),
      );

const used = (reason: string) => new AppError(409, 'promo_unavailable', reason);

/**
 * Counts one use of a promo code for a checkout, inside its transaction. The increment only happens under the cap
 * and locks the code's row, so simultaneous checkouts take turns: `max_uses` and `max_uses_per_customer` hold however
 * many arrive at once. 409 promo_unavailable (the transaction rolls back) when the code is used up meanwhile.
 */
export async function reservePromo(
  tx: Tx,
  promo: PromoRow,
  userId: string,
  sessionId: string,
): Promise<void> {
  const [counted] = await tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(
      and(
        eq(promoCodes.id, promo.id),
        eq(promoCodes.active, true),
        sql`(${promoCodes.maxUses} is null or ${promoCodes.uses} < ${promoCodes.maxUses})`,
      ),
    )
    .returning({ id: promoCodes.id });
  if (!counted) throw used(`The code ${promo.code} has just been used up`);
  if (
    promo.maxUsesPerCustomer !== null &&
    (await customerUses(tx, promo.id, userId)) >= promo.maxUsesPerCustomer
  ) {
    throw used(`You have used the code ${promo.code} as often as you can`);
  }
  await tx.insert(promoRedemptions).values({ promoCodeId: promo.id, userId, checkoutSessionId: sessionId });
}

/** Gives back the uses of checkouts that will not be paid (expired, cancelled, replaced), inside their transaction. */
export async function releasePromoUses(tx: Queryable, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const released = await tx
    .update(promoRedemptions)
    .set({ status: 'released' })
    .where(
      and(inArray(promoRedemptions.checkoutSessionId, sessionIds), eq(promoRedemptions.status, 'reserved')),
    )
    .returning({ promoCodeId: promoRedemptions.promoCodeId });
  for (const { promoCodeId } of released) {
    await tx
      .update(promoCodes)
      .set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` })
      .where(eq(promoCodes.id, promoCodeId));
  }
}

/**
 * Marks a paid checkout's use as used. A payment that arrives for a checkout whose use was given back (it had
 * expired) counts again: the customer paid the discounted price, even if that puts the code over its cap.
 */
export async function usePromo(tx: Queryable, sessionId: string): Promise<void> {
  const [redemption] = await tx
    .select({
      id: promoRedemptions.id,
      status: promoRedemptions.status,
      promoCodeId: promoRedemptions.promoCodeId,
    })
    .from(promoRedemptions)
    .where(eq(promoRedemptions.checkoutSessionId, sessionId))
    .limit(1);
  if (!redemption || redemption.status === 'used') return;
  await tx.update(promoRedemptions).set({ status: 'used' }).where(eq(promoRedemptions.id, redemption.id));
  if (redemption.status === 'released') {
    await tx
      .update(promoCodes)
      .set({ uses: sql`${promoCodes.uses} + 1` })
      .where(eq(promoCodes.id, redemption.promoCodeId));
  }
}
