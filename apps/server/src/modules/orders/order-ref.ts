import { eq, type SQL } from 'drizzle-orm';
import { orders } from '../../db/schema/index.ts';

/**
 * The order whose reference is `ref` as people type it (any letter case), found through the reference's unique
 * index. References are made in upper case (`newOrderRef` in checkout.service.ts), so the input is upper-cased, not
 * every order's reference: that read the whole table on every lookup, half a million orders after a year.
 */
export const orderRefIs = (ref: string): SQL => eq(orders.ref, ref.trim().toUpperCase());
