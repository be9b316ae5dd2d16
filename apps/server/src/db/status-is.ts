import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A status written as `(…) IS TRUE` is checked on the rows found by their keys and never searched by. A partial index
 * on that status (`bookings_held_expiry_idx`: every live hold) looks cheaper to a planner whose statistics were taken
 * when few rows had it, and in an on-sale rush a statement naming the status beside a key would walk every live hold
 * there is (docs/decisions/011, 029). Results are the same: the status is never null.
 */
export const statusIs = (column: AnyColumn, status: string): SQL => sql`(${column} = ${status}) is true`;
