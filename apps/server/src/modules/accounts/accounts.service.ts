import { hash, verify, type Options } from '@node-rs/argon2';
import { and, desc, eq, lte, gt, ne, sql } from 'drizzle-orm';
import type { AuthResponse, Role, User } from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from '../../db/database.ts';
import { loginFailures, sessions, users } from '../../db/schema/index.ts';
import { AppError, conflict, unauthorized } from '../../errors.ts';
import { createSession } from '../../plugins/auth.ts';
import type { Language } from '../../i18n.ts';
import { isReservedEmail } from '../box-office/walk-in.ts';
import { endAccountLinks } from './account-links.ts';

/**
 * The test suite's setting (decision 050): with `INSECURE_TEST_PASSWORD_HASHES=1` new hashes cost 64 KiB and one
 * pass (about 0.1 ms of CPU instead of 18 ms; the suite hashes thousands of passwords). Never set it for a real
 * server: the server warns at start when it is set.
 */
export const INSECURE_TEST_PASSWORD_HASHES = 'INSECURE_TEST_PASSWORD_HASHES';
const TEST_ONLY_COST: Options = { memoryCost: 64, timeCost: 1, parallelism: 1 };

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane): OWASP's recommended minimum. Only the exact
 * value `1` of INSECURE_TEST_PASSWORD_HASHES lowers it. A hash records its own cost, so verifying works either way.
 */
export function passwordHashOptions(
  env: Record<string, string | undefined> = process.env,
): Options | undefined {
  return env[INSECURE_TEST_PASSWORD_HASHES] === '1' ? TEST_ONLY_COST : undefined;
}

export const hashPassword = (password: string) => hash(password, passwordHashOptions());
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Failed password attempts per (email, client address) that lock further attempts… */
export const LOGIN_LOCK_FAILURES = 10;
/** …for this many minutes after the failures. */
export const LOGIN_LOCK_MINUTES = 15;

export function presentUser(u: {
  id: string;
  name: string;
  email: string;
  role: Role;
  emailVerifiedAt?: Date | null;
}): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    // Only where the row was read whole (the caller's own account): a session's user does not carry it.
    ...(u.emailVerifiedAt !== undefined && { emailVerified: u.emailVerifiedAt !== null }),
  };
}

/** The account as its owner sees it (`GET /api/user/me`), with whether its email is verified. */
export async function ownAccount(db: Queryable, userId: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw unauthorized();
  return presentUser(row);
}

const emailTaken = () => conflict('Email is already registered', 'email_taken');
const emailReserved = () => new AppError(400, 'email_reserved', 'This address belongs to the cinema');

/** Creates a user; a taken email (in any letter case, even under a simultaneous insert) is a 409. */
export async function createUser(
  db: Queryable,
  input: { name: string; email: string; password: string; role?: Role; language?: Language },
): Promise<User> {
  if (isReservedEmail(input.email)) throw emailReserved();
  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await db
      .insert(users)
      .values({
        name: input.name.trim(),
        email: normalizeEmail(input.email),
        passwordHash,
        role: input.role ?? 'USER',
        ...(input.language && { language: input.language }),
      })
      .returning();
    return presentUser(row!);
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw emailTaken();
    throw err;
  }
}

/** The stored user with this email (any letter case), or null. */
export async function findUserByEmail(db: Queryable, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}

/** Creates a customer account and signs it in. */
export async function registerUser(
  db: Queryable,
  input: { name: string; email: string; password: string; language?: Language },
): Promise<AuthResponse> {
  const user = await createUser(db, input);
  return { user, token: await createSession(db, user.id) };
}

// A real argon2id hash of a random secret: unknown emails are verified against it, so a failed sign-in takes
// as long whether or not the account exists.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

// Database time, so every server process agrees on the window whatever its own clock says.
const windowStart = sql`(now() - ${sql.raw(`interval '${LOGIN_LOCK_MINUTES} minutes'`)})`;

function tooManyFailures(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AppError(
    429,
    'too_many_requests',
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retryAfterSeconds },
  );
}

/**
 * Runs one password check under the failure lock of (email, address). The attempt is recorded BEFORE the check
 * and counted with every other recent one, so simultaneous guesses cannot slip past the limit; it is kept as a
 * failure unless the check passes. Stored in the database, so the lock holds across server processes.
 */
async function lockedPasswordAttempt(
  db: Queryable,
  key: { email: string; ip: string },
  check: () => Promise<boolean>,
): Promise<boolean> {
  const forKey = and(eq(loginFailures.email, key.email), eq(loginFailures.ip, key.ip));
  await db.delete(loginFailures).where(and(forKey, lte(loginFailures.at, windowStart)));
  const [attempt] = await db
    .insert(loginFailures)
    .values({ email: key.email, ip: key.ip })
    .returning({ id: loginFailures.id });
  const recent = await db
    .select({
      secondsLeft: sql<string>`extract(epoch from ${loginFailures.at} - ${windowStart})`,
    })
    .from(loginFailures)
    .where(and(forKey, ne(loginFailures.id, attempt!.id), gt(loginFailures.at, windowStart)))
    .orderBy(desc(loginFailures.at))
    .limit(LOGIN_LOCK_FAILURES);
  if (recent.length >= LOGIN_LOCK_FAILURES) {
    await db.delete(loginFailures).where(eq(loginFailures.id, attempt!.id));
    // The lock lifts when the oldest of the last LOGIN_LOCK_FAILURES failures leaves the window.
    throw tooManyFailures(Math.max(1, Math.ceil(Number(recent.at(-1)!.secondsLeft))));
  }
  const ok = await check();
  if (ok) await db.delete(loginFailures).where(forKey);
  return ok;
}

/** Signs in with email and password; the same 401 for an unknown email and a wrong password. */
export async function signIn(
  db: Queryable,
  input: { email: string; password: string; ip: string; language?: Language },
): Promise<AuthResponse> {
  const email = normalizeEmail(input.email);
  const found = await findUserByEmail(db, email);
  // An account without a password (the box office's walk-in account) is checked like an unknown email: never in.
  const user = found?.passwordHash ? { ...found, passwordHash: found.passwordHash } : null;
  const ok = await lockedPasswordAttempt(db, { email, ip: input.ip }, async () => {
    const matches = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), input.password);
    return matches && user !== null;
  });
  if (!ok || !user) throw new AppError(401, 'invalid_credentials', 'Invalid credentials');
  if (input.language) await rememberLanguage(db, user.id, input.language);
  return { user: presentUser(user), token: await createSession(db, user.id) };
}

/** The language the customer's emails are written in from now on (a write only when it changes). */
export async function rememberLanguage(db: Queryable, userId: string, language: Language): Promise<void> {
  await db
    .update(users)
    .set({ language })
    .where(and(eq(users.id, userId), ne(users.language, language)));
}

/** Ends one session: its token stops working at once. */
export async function signOut(db: Queryable, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/**
 * Changes a user's name and email. A new email needs the current password, checked under the sign-in failure lock
 * before anything else: until it matched, a taken email and a free one get the same answer. An email another
 * account uses is then a 409. A new email is unverified, and every reset or verification link of the account ends
 * (`emailChanged`: the caller sends a verification link to the new address).
 */
export async function updateProfile(
  db: Queryable,
  who: { userId: string; ip: string },
  input: { name: string; email: string; currentPassword?: string },
): Promise<User & { emailChanged: boolean }> {
  const [user] = await db.select().from(users).where(eq(users.id, who.userId)).limit(1);
  if (!user?.passwordHash) throw unauthorized();
  const passwordHash = user.passwordHash;
  const email = normalizeEmail(input.email);
  const emailChanged = email !== user.email;
  if (emailChanged) {
    if (!input.currentPassword) {
      throw new AppError(400, 'wrong_password', 'Enter your current password to change your email');
    }
    const ok = await lockedPasswordAttempt(db, { email: user.email, ip: who.ip }, () =>
      verifyPassword(passwordHash, input.currentPassword!),
    );
    if (!ok) throw new AppError(400, 'wrong_password', 'Current password is incorrect');
    if (isReservedEmail(email)) throw emailReserved();
  }
  try {
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(users)
        .set({ name: input.name.trim(), email, ...(emailChanged && { emailVerifiedAt: null }) })
        .where(eq(users.id, who.userId))
        .returning();
      if (changed && emailChanged) await endAccountLinks(tx, changed.id);
      return changed;
    });
    if (!row) throw unauthorized();
    return { ...presentUser(row), emailChanged };
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw emailTaken();
    throw err;
  }
}

/**
 * Changes the password after checking the current one (under the same failure lock as sign-in, so a stolen
 * token cannot be used to guess it) and ends every other session of the user; the current one keeps working.
 */
export async function changePassword(
  db: Queryable,
  input: { userId: string; sessionId: string; currentPassword: string; newPassword: string; ip: string },
): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, input.userId)).limit(1);
  if (!user?.passwordHash) throw unauthorized();
  const current = user.passwordHash;
  const ok = await lockedPasswordAttempt(db, { email: user.email, ip: input.ip }, () =>
    verifyPassword(current, input.currentPassword),
  );
  if (!ok) throw new AppError(400, 'wrong_password', 'Current password is incorrect');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await tx.delete(sessions).where(and(eq(sessions.userId, user.id), ne(sessions.id, input.sessionId)));
    await endAccountLinks(tx, user.id);
  });
}
