import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { emailVerifications, passwordResets } from '../../db/schema/index.ts';

/**
 * Ends every outstanding password reset and email verification link of an account (issue 31): a change of email or
 * password makes them stale, so a link sent to an old address, or read by whoever had the old password, stops
 * working. Returns how many links it ended.
 */
export async function endAccountLinks(db: Queryable, userId: string): Promise<number> {
  const resets = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  const verifications = await db
    .update(emailVerifications)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt)))
    .returning({ id: emailVerifications.id });
  return resets.length + verifications.length;
}
