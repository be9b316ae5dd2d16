import { hash, verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { Role, User } from '@cinema/contract';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { conflict } from '../../errors.ts';

// argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function presentUser(u: { id: string; name: string; email: string; role: Role }): User {
  return { id: u.id, name: u.name, email: u.email, role: u.role };
}

/** Creates a user; a taken email (in any letter case, even under a simultaneous insert) is a 409. */
export async function createUser(
  db: Queryable,
  input: { name: string; email: string; password: string; role?: Role },
): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await db
      .insert(users)
      .values({
        name: input.name.trim(),
        email: normalizeEmail(input.email),
        passwordHash,
        role: input.role ?? 'USER',
      })
      .returning();
    return presentUser(row!);
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION)
      throw conflict('Email is already registered', 'email_taken');
    throw err;
  }
}

export async function findUserByEmail(db: Queryable, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row ?? null;
}
