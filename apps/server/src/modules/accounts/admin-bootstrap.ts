import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { PasswordSchema } from '@cinema/contract';
import { ConfigError, type Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { hashPassword, normalizeEmail, verifyPassword } from './accounts.service.ts';
import { endAccountLinks } from './account-links.ts';
import { isReservedEmail } from '../box-office/walk-in.ts';

export const DEFAULT_ADMIN_EMAIL = 'admin@localhost';

export interface AdminBootstrap {
  email: string;
  /** Set only when a password was generated: the one chance to show it. */
  generatedPassword?: string;
  /** The line to print at start. */
  message: string;
}

const ALPHABET = {
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  lower: 'abcdefghijkmnopqrstuvwxyz',
  digit: '23456789',
  // None a shell treats specially inside a word (no #, ~, !, $, quotes).
  symbol: '%+-.@_',
};

/** A random 20-character password meeting the policy, starting with a letter, easy to copy from a terminal. */
export function generatePassword(): string {
  const all = Object.values(ALPHABET).join('');
  const letters = ALPHABET.upper + ALPHABET.lower;
  for (;;) {
    const rest = Array.from({ length: 19 }, () => all[randomInt(all.length)]).join('');
    const password = letters[randomInt(letters.length)] + rest;
    if (PasswordSchema.safeParse(password).success) return password;
  }
}

// Two server processes starting at once must not both create (and print) an admin: one waits for the other.
const ADMIN_BOOTSTRAP_LOCK = 727_001;

/**
 * Makes sure an admin can sign in: ADMIN_EMAIL and ADMIN_PASSWORD → that account is created, or promoted with that
 * password and signed out everywhere; ADMIN_EMAIL alone → created with a password shown once, left alone if it is an
 * admin already, and a ConfigError (the start stops) if it is a customer's account, which anyone could have
 * registered; neither and no admin yet → admin@localhost with a random password, returned to print once; otherwise
 * nothing (null).
 */
export async function ensureAdmin(
  db: Db,
  config: Partial<Pick<Config, 'adminEmail' | 'adminPassword'>>,
): Promise<AdminBootstrap | null> {
  const fromEnv = config.adminPassword;
  // Hashing is slow: done before the transaction so the database is not held meanwhile.
  const generated = fromEnv ? undefined : generatePassword();
  const passwordHash = await hashPassword(fromEnv ?? generated!);
  const shownOnce = (email: string): AdminBootstrap => ({
    email,
    generatedPassword: generated,
    message: `Admin login: ${email} / ${generated} (shown once)`,
  });

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_BOOTSTRAP_LOCK})`);
    if (!config.adminEmail) {
      const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
      if (admin) return null;
    }
    const email = config.adminEmail ? normalizeEmail(config.adminEmail) : DEFAULT_ADMIN_EMAIL;
    if (isReservedEmail(email)) {
      throw new ConfigError(
        `ADMIN_EMAIL=${email} is the box office's walk-in address: choose another address.`,
      );
    }
    const [existing] = await tx.select().from(users).where(eq(users.email, email)).limit(1);

    if (!existing) {
      await tx.insert(users).values({ name: 'Admin', email, passwordHash, role: 'ADMIN' });
      return fromEnv
        ? { email, message: `Admin login: ${email} (password from ADMIN_PASSWORD)` }
        : shownOnce(email);
    }
    const promoting = existing.role !== 'ADMIN';
    if (config.adminEmail && !fromEnv) {
      if (!promoting) return { email, message: `Admin login: ${email} (its existing password)` };
      // Whoever registered that address knows its password: promoting it alone would hand them the cinema.
      throw new ConfigError(
        `ADMIN_EMAIL=${email} is an existing customer account. Set ADMIN_PASSWORD as well to make it the admin ` +
          '(that sets its password and signs it out everywhere), or choose an address nobody has registered.',
      );
    }
    // Setting the same ADMIN_PASSWORD at every start must not sign the admin out every time; a promotion always
    // sets the password and ends the account's sessions (they were signed in as a customer).
    const unchanged =
      !promoting &&
      fromEnv !== undefined &&
      existing.passwordHash !== null &&
      (await verifyPassword(existing.passwordHash, fromEnv));
    await tx
      .update(users)
      .set(unchanged ? { role: 'ADMIN' } : { role: 'ADMIN', passwordHash })
      .where(eq(users.id, existing.id));
    if (!unchanged) {
      await tx.delete(sessions).where(eq(sessions.userId, existing.id));
      await endAccountLinks(tx, existing.id);
    }
    return fromEnv
      ? { email, message: `Admin login: ${email} (password from ADMIN_PASSWORD)` }
      : shownOnce(email);
  });
}
