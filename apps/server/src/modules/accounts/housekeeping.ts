import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { loginFailures, sessions } from '../../db/schema/index.ts';
import { runPeriodically } from '../../periodic.ts';
import { LOGIN_LOCK_MINUTES } from './accounts.service.ts';

/** Every hour: a session or a login failure nobody can use any more is still personal data. */
const EVERY_MS = 60 * 60_000;

/**
 * Deletes sessions past their expiry and login failures older than the lock's window (they no longer count);
 * returns how many of each went.
 */
export async function removeStaleAccountsData(db: Db): Promise<{ sessions: number; loginFailures: number }> {
  const goneSessions = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .returning({ id: sessions.id });
  const goneFailures = await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, sql`now() - make_interval(mins => ${LOGIN_LOCK_MINUTES})`))
    .returning({ id: loginFailures.id });
  return { sessions: goneSessions.length, loginFailures: goneFailures.length };
}

/** Runs removeStaleAccountsData every hour (each process; the deletes are idempotent). */
export const accountsHousekeeping = fp(
  async function accountsHousekeeping(app: FastifyInstance) {
    runPeriodically(app, EVERY_MS, 'removing expired sessions and old login failures', async () => {
      const removed = await removeStaleAccountsData(app.database.db);
      if (removed.sessions || removed.loginFailures) app.log.info(removed, 'expired account data removed');
    });
  },
  { name: 'accounts-housekeeping', dependencies: ['db'] },
);
