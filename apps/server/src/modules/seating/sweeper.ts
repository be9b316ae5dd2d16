import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import { bookings } from '../../db/schema/index.ts';
import { statusIs } from '../../db/status-is.ts';
import { publishSeatChanges } from '../../events.ts';

const BATCH = 500;
const MAX_BATCHES_PER_SWEEP = 20;

/**
 * Marks holds past their expiry EXPIRED and publishes the freed seats; returns how many it expired. Several
 * processes may sweep at once: SKIP LOCKED gives each expired hold to exactly one of them.
 */
export async function sweepExpiredHolds({ db, events }: Pick<Deps, 'db' | 'events'>): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_SWEEP; batch++) {
    const due = db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.status, 'HELD'), lte(bookings.expiresAt, sql`now()`)))
      .orderBy(asc(bookings.expiresAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const freed = await db
      .update(bookings)
      .set({ status: 'EXPIRED', updatedAt: sql`now()` })
      .where(and(inArray(bookings.id, due), statusIs(bookings.status, 'HELD')))
      .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId });
    // Published only after the statement (its own transaction) has committed.
    publishSeatChanges(
      events,
      freed.map((f) => ({ ...f, status: 'AVAILABLE' as const })),
    );
    total += freed.length;
    if (freed.length < BATCH) break;
  }
  return total;
}
