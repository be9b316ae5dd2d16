import { and, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { StaffOrder } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { orders, users, type OrderStatus } from '../../db/schema/index.ts';
import { notFound } from '../../errors.ts';
import { presentStaffOrders } from '../orders/orders.service.ts';
import { orderRefIs } from '../orders/order-ref.ts';

/** Orders staff look after: paid ones, in part or wholly refunded ones. Not checkouts that came to nothing. */
const STAFF_SHOWN: OrderStatus[] = ['PAID', 'PARTLY_REFUNDED', 'REFUNDED'];
const PAGE = 20;

/** A reference as people type it: any case, with or without its dash ("k7q4mx2" finds "K7Q-4MX2"). */
function refMatch(q: string): SQL | null {
  const bare = q.toUpperCase().replace(/[^0-9A-Z]/g, '');
  if (bare.length !== 7) return null;
  return eq(orders.ref, `${bare.slice(0, 3)}-${bare.slice(3)}`);
}

/**
 * `GET /api/admin/orders`: the newest orders, or those whose reference is `q` or whose customer's email (the
 * account's, or the one given at the counter) contains it; 20 a page.
 */
export async function searchOrders(
  db: Queryable,
  { q, page }: { q?: string; page: number },
): Promise<{ orders: StaffOrder[]; nextPage: number | null }> {
  const text = q?.trim() ?? '';
  let match: SQL | undefined;
  if (text) {
    // LIKE's own wildcards in what staff typed are matched as themselves.
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byRef = refMatch(text);
    match = or(
      ...(byRef ? [byRef] : []),
      ilike(orders.customerEmail, pattern),
      inArray(orders.userId, db.select({ id: users.id }).from(users).where(ilike(users.email, pattern))),
    );
  }
  const rows = await db
    .select()
    .from(orders)
    .where(and(inArray(orders.status, STAFF_SHOWN), match))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(PAGE + 1)
    .offset((page - 1) * PAGE);
  return {
    orders: await presentStaffOrders(db, rows.slice(0, PAGE)),
    nextPage: rows.length > PAGE ? page + 1 : null,
  };
}

/** The order with this reference (any case, dash optional) as staff see it; 404 when there is none. */
export async function findSession(db: Queryable, ref: string, lock = false) {
  const match = refMatch(ref) ?? orderRefIs(ref);
  const query = db.select().from(orders).where(match).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row || !STAFF_SHOWN.includes(row.status)) throw notFound('Order not found');
  return row;
}

/** `GET /api/admin/orders/{ref}`. */
export async function getStaffOrder(db: Queryable, ref: string): Promise<StaffOrder> {
  return (await presentStaffOrders(db, [await findSession(db, ref)]))[0]!;
}
