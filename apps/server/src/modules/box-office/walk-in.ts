import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { bookings, orders, sessions, users } from '../../db/schema/index.ts';
import { endAccountLinks } from '../accounts/account-links.ts';

/**
 * The account counter sales to walk-in customers belong to (a booking always has an owner). It is the cinema's, not
 * a person's: it has no password (a null hash, which no sign-in path accepts), no sessions, no reset or verification
 * links, and its address is refused wherever a person gives an email (register, profile, ADMIN_EMAIL); see
 * docs/decisions/038-the-walk-in-account-and-verified-emails.md.
 */
export const WALK_IN_EMAIL = 'walk-in@box-office.invalid';

/** Whether a person may not use this address: it is the box office's (in any letter case, with spaces around). */
export const isReservedEmail = (email: string) => email.trim().toLowerCase() === WALK_IN_EMAIL;

/**
 * Makes the walk-in account one nobody can reach: no password, the customer role, every session and every reset or
 * verification link ended. Returns whether it was reachable before (someone registered the address or reset its
 * password before this version): then its owner has just been shut out.
 */
export async function lockWalkInAccount(
  db: Queryable,
): Promise<{ id: string; wasReachable: boolean } | null> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: users.id, passwordHash: users.passwordHash, role: users.role })
      .from(users)
      .where(eq(users.email, WALK_IN_EMAIL))
      .for('update');
    if (!account) return null;
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.userId, account.id))
      .returning({ id: sessions.id });
    const links = await endAccountLinks(tx, account.id);
    const reachable = account.passwordHash !== null || account.role !== 'USER';
    if (reachable) {
      await tx
        .update(users)
        .set({ passwordHash: null, role: 'USER', emailVerifiedAt: null })
        .where(eq(users.id, account.id));
    }
    return { id: account.id, wasReachable: reachable || ended.length > 0 || links > 0 };
  });
}

const known = new WeakMap<Queryable, Promise<string>>();

/** The walk-in account's id, created (locked) the first time a counter sale needs it. */
export function walkInUserId(db: Queryable): Promise<string> {
  let id = known.get(db);
  if (!id) {
    id = (async () => {
      await db
        .insert(users)
        .values({ name: 'Walk-in customer', email: WALK_IN_EMAIL, passwordHash: null, role: 'USER' })
        .onConflictDoNothing();
      // Never adopted as it is: an account someone made reachable is locked before it takes a ticket.
      const locked = await lockWalkInAccount(db);
      return locked!.id;
    })();
    id.catch(() => known.delete(db));
    known.set(db, id);
  }
  return id;
}

/**
 * Gives a verified account the counter sales made to its email while no verified account had it (guest orders of
 * the walk-in account): the orders and their tickets become the account's, under My Tickets. Their guest links keep
 * working. Returns how many orders moved.
 */
export async function claimWalkInOrders(tx: Queryable, userId: string, email: string): Promise<number> {
  const [walkIn] = await tx.select({ id: users.id }).from(users).where(eq(users.email, WALK_IN_EMAIL));
  if (!walkIn) return 0;
  const moved = await tx
    .update(orders)
    .set({ userId })
    .where(
      and(
        eq(orders.userId, walkIn.id),
        eq(orders.provider, 'box_office'),
        eq(sql`lower(${orders.customerEmail})`, email.toLowerCase()),
      ),
    )
    .returning({ id: orders.id });
  if (moved.length === 0) return 0;
  await tx
    .update(bookings)
    .set({ userId })
    .where(
      inArray(
        bookings.checkoutSessionId,
        moved.map((m) => m.id),
      ),
    );
  return moved.length;
}
