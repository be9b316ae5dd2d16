import { asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { AdminUser, Role } from '@cinema/contract';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';

const LIMIT = 50;

const present = (u: typeof users.$inferSelect): AdminUser => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  createdAt: u.createdAt.toISOString(),
});

/** Accounts whose name or email contains `q` (50 at most); without `q`, admins and staff first, then the newest. */
export async function findUsers(db: Db, q: string | undefined): Promise<AdminUser[]> {
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const rows = await db
    .select()
    .from(users)
    .where(like ? or(ilike(users.name, like), ilike(users.email, like)) : undefined)
    .orderBy(sql`case ${users.role} when 'ADMIN' then 0 when 'STAFF' then 1 else 2 end`, asc(users.email))
    .limit(LIMIT);
  return rows.map(present);
}

/**
 * Sets an account's role, audited as `user.role`. The cinema always keeps one admin: the transaction locks every
 * admin's row (in id order, so two demotions cannot deadlock) before counting them, so of two admins demoting each
 * other at once the second waits, sees one admin left and is refused.
 */
export async function setRole(db: Db, actor: Actor, userId: string, role: Role): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, 'ADMIN'))
      .orderBy(asc(users.id))
      .for('update');
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!before) throw notFound('Unknown account');
    if (before.role === role) return present(before);
    if (before.role === 'ADMIN' && admins.length <= 1)
      throw conflict('The last admin cannot be demoted: make someone else admin first', 'last_admin');
    const [after] = await tx.update(users).set({ role }).where(eq(users.id, userId)).returning();
    await recordAudit(tx, actor, {
      action: 'user.role',
      subjectType: 'user',
      subjectId: userId,
      before: { email: before.email, role: before.role },
      after: { email: after!.email, role },
    });
    return present(after!);
  });
}
