import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/index.ts';
import { runPeriodically } from '../../periodic.ts';
import { broadcastAvailable } from './seating.service.ts';

const BATCH = 500;
const MAX_BATCHES_PER_SWEEP = 20;

/**
 * Marks holds past their expiry EXPIRED and broadcasts the freed seats; returns how many it expired. Several
 * processes may sweep at once: SKIP LOCKED gives each expired hold to exactly one of them.
 */
export async function sweepExpiredHolds(app: FastifyInstance): Promise<number> {
  const db = app.database.db;
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
      .where(and(inArray(bookings.id, due), eq(bookings.status, 'HELD')))
      .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId });
    // Broadcast only after the statement (its own transaction) has committed.
    broadcastAvailable(app, freed);
    total += freed.length;
    if (freed.length < BATCH) break;
  }
  return total;
}

/** Sweeps every SWEEP_SECONDS from ready until close; the timer never keeps the process alive. */
export const holdSweeper = fp(async function holdSweeper(app: FastifyInstance) {
  runPeriodically(app, app.config.sweepSeconds * 1000, 'sweeping expired holds', () =>
    sweepExpiredHolds(app),
  );
});
