import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { loginFailures, passwordResets, sessions, users } from '../../db/schema/index.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { hashToken } from '../../plugins/auth.ts';
import { sendPasswordReset } from '../mail/messages.ts';
import { endAccountLinks } from './account-links.ts';
import { findUserByEmail, hashPassword, normalizeEmail } from './accounts.service.ts';
import { customerLanguage, type Language } from '../../i18n.ts';

/** A reset link works once, for this long. */
export const RESET_LINK_MINUTES = 60;
/** Reset emails one account gets per hour at most; more requests are answered the same and send nothing. */
export const RESET_EMAILS_PER_HOUR = 3;

/**
 * "Forgot password?": for a known account, a single-use link valid one hour is emailed (at most
 * RESET_EMAILS_PER_HOUR an hour); for an unknown email nothing happens. The route answers 202 before this runs, so
 * neither the answer nor its timing tells whether the account exists.
 */
export async function requestPasswordReset(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  email: string,
  /** The language the request asked for; else the account's. */
  language?: Language,
) {
  const user = await findUserByEmail(deps.db, normalizeEmail(email));
  // No link for an account nobody may sign in to (the box office's walk-in account has no password).
  if (!user?.passwordHash) return;
  const token = randomBytes(32).toString('base64url');
  const created = await deps.db.transaction(async (tx) => {
    // One request at a time per account, so simultaneous requests cannot pass the hourly limit together.
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    const [recent] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(passwordResets)
      .where(
        and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, sql`now() - interval '1 hour'`)),
      );
    if ((recent?.count ?? 0) >= RESET_EMAILS_PER_HOUR) return false;
    await tx.insert(passwordResets).values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: sql`now() + make_interval(mins => ${RESET_LINK_MINUTES})`,
    });
    return true;
  });
  if (created) {
    await sendPasswordReset(deps, {
      to: user.email,
      name: user.name,
      token,
      language: customerLanguage(user.language, language),
    });
  }
}

const invalidLink = () =>
  new AppError(400, 'invalid_reset_link', 'This reset link is invalid, used or expired. Ask for a new one.');

/**
 * Sets a new password with a reset link's token: the token is used up (whatever happens next it never works
 * again), every other reset and verification link of the account dies with it, and every session of the account
 * ends.
 */
export async function resetPassword(
  deps: Pick<Deps, 'db'>,
  input: { token: string; newPassword: string },
): Promise<void> {
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResets.tokenHash, hashToken(input.token)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResets.userId });
    if (!used) throw invalidLink();
    const [user] = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, used.userId), isNotNull(users.passwordHash)))
      .returning({ email: users.email });
    if (!user) throw invalidLink();
    // A new password ends every other reset and verification link of the account (issue 31).
    await endAccountLinks(tx, used.userId);
    await tx.delete(sessions).where(eq(sessions.userId, used.userId));
    // The owner proved themselves by email: earlier wrong guesses no longer lock them out.
    await tx.delete(loginFailures).where(eq(loginFailures.email, user.email));
  });
}
