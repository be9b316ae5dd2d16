import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { VerifyEmailResponse } from '@cinema/contract';
import { emailVerifications, users } from '../../db/schema/index.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../../plugins/auth.ts';
import { customerLanguage, type Language } from '../../i18n.ts';
import { claimWalkInOrders } from '../box-office/walk-in.ts';
import { sendEmailVerification } from '../mail/messages.ts';

/** A verification link works once, for this long. */
export const VERIFY_LINK_HOURS = 24;
/** Verification emails one account gets per hour at most; more requests send nothing. */
export const VERIFY_EMAILS_PER_HOUR = 3;

/**
 * Emails a single-use verification link to the account's current address (after register, a change of email, or
 * "Send the link again"), in the asked language else the account's. Nothing for a verified account, one nobody
 * can sign in to, or past VERIFY_EMAILS_PER_HOUR. Returns whether a link was sent.
 */
export async function requestEmailVerification(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  userId: string,
  language?: Language,
): Promise<boolean> {
  const token = randomBytes(32).toString('base64url');
  const user = await deps.db.transaction(async (tx) => {
    // One request at a time per account, so simultaneous requests cannot pass the hourly limit together.
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!row?.passwordHash || row.emailVerifiedAt) return null;
    const [recent] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(emailVerifications)
      .where(
        and(
          eq(emailVerifications.userId, userId),
          gt(emailVerifications.createdAt, sql`now() - interval '1 hour'`),
        ),
      );
    if ((recent?.count ?? 0) >= VERIFY_EMAILS_PER_HOUR) return null;
    await tx.insert(emailVerifications).values({
      userId,
      email: row.email,
      tokenHash: hashToken(token),
      expiresAt: sql`now() + make_interval(hours => ${VERIFY_LINK_HOURS})`,
    });
    return row;
  });
  if (!user) return false;
  await sendEmailVerification(deps, {
    to: user.email,
    name: user.name,
    token,
    hours: VERIFY_LINK_HOURS,
    language: customerLanguage(user.language, language),
  });
  return true;
}

const invalidLink = () =>
  new AppError(
    400,
    'invalid_verification_link',
    'This verification link is invalid, used or expired. Ask for a new one.',
  );

/**
 * Uses a verification link: the account's email (still the one the link was sent to) is verified, every other
 * verification link of the account ends, and the box-office orders sold to that email as guest orders join the
 * account (README, "Walk-in orders").
 */
export async function verifyEmail(deps: Pick<Deps, 'db'>, token: string): Promise<VerifyEmailResponse> {
  return deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(emailVerifications)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(emailVerifications.tokenHash, hashToken(token)),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: emailVerifications.userId, email: emailVerifications.email });
    if (!used) throw invalidLink();
    const [user] = await tx
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(and(eq(users.id, used.userId), eq(users.email, used.email), isNotNull(users.passwordHash)))
      .returning({ id: users.id, email: users.email });
    if (!user) throw invalidLink();
    await tx
      .update(emailVerifications)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailVerifications.userId, user.id), isNull(emailVerifications.usedAt)));
    const claimedOrders = await claimWalkInOrders(tx, user.id, user.email);
    return { ok: true as const, email: user.email, claimedOrders };
  });
}
