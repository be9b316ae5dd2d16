import { asc, eq, sql } from 'drizzle-orm';
import type { GuestOrder } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { bookings, seats, users } from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import { hashToken } from '../../plugins/auth.ts';
import { orderByGuestToken } from '../orders/orders.service.ts';
import { selectTickets } from '../tickets/tickets.service.ts';
import { WALK_IN_EMAIL } from './walk-in.ts';

/**
 * A guest order as its emailed link shows it, without signing in: the order and its paid tickets. The token is
 * the only key (32 random bytes; only its hash is stored); an unknown one is a 404 that says nothing more.
 */
export async function guestOrder(db: Queryable, token: string): Promise<GuestOrder> {
  const found = await orderByGuestToken(db, hashToken(token));
  if (!found) throw notFound('This order link is invalid');
  const tickets = await selectTickets(db, eq(bookings.checkoutSessionId, found.sessionId), [
    sql`${bookings.createdAt} asc`,
    asc(seats.row),
    asc(seats.number),
  ]);
  // A verified account claimed it when it belongs to anyone but the walk-in account.
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, found.userId));
  const claimed = owner?.email !== WALK_IN_EMAIL;
  return { order: found.order, tickets, claimed };
}
