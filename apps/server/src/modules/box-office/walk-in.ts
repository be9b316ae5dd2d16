import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import { hashPassword } from '../accounts/accounts.service.ts';

/**
 * The account counter sales to walk-in customers belong to (a booking always has an owner). `.invalid` is reserved
 * (RFC 2606), so nobody can register it, and its password is 32 random bytes nobody keeps: nobody signs in as it.
 */
export const WALK_IN_EMAIL = 'walk-in@box-office.invalid';

const known = new WeakMap<Queryable, Promise<string>>();

/** The walk-in account's id, created the first time a counter sale needs it. */
export function walkInUserId(db: Queryable): Promise<string> {
  let id = known.get(db);
  if (!id) {
    id = (async () => {
      await db
        .insert(users)
        .values({
          name: 'Walk-in customer',
          email: WALK_IN_EMAIL,
          passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
          role: 'USER',
        })
        .onConflictDoNothing();
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, WALK_IN_EMAIL));
      return row!.id;
    })();
    id.catch(() => known.delete(db));
    known.set(db, id);
  }
  return id;
}
