import pg from 'pg';
import { groupedBy, perTurn } from '../../batch.ts';
import { pgErrorCode, type Db } from '../../db/database.ts';
import type { HoldOutcome, HoldRow } from './seating.service.ts';

/** One hold as hold_seats takes it: ids in the database's spelling, the seats in seat-id order. */
export type HoldCall = {
  showtimeId: string;
  userId: string;
  seatIds: string[];
  minutes: number;
  maxLive: number;
  maxUser: number;
  /** Null: no per-address limit. */
  address: string | null;
  maxAddress: number;
  accessibleReleaseMinutes: number;
};

/**
 * At most this many holds go in one call: a busy moment's holds go out in several calls side by side, on as many
 * connections, so that PostgreSQL still works on both cores (one call runs its holds one after the other).
 */
export const HOLDS_PER_CALL = 8;

const CALL = {
  name: 'hold_seats_batch',
  text:
    'call hold_seats_batch($1::uuid[], $2::uuid[], $3::int[], $4::uuid[], $5::text[], $6::float8, $7::int, ' +
    '$8::int, $9::int, $10::int, null)',
};

/**
 * SQLSTATE classes of a call cut off while it ran: connection exceptions, insufficient resources, operator
 * intervention (a statement timeout, a cancel, a shutdown) and system errors.
 */
const CUT_OFF = new Set(['08', '53', '57', '58']);

/** Calls of hold_seats_batch made by this process, and the holds they carried (for tests and diagnostics). */
export const holdBatches = { calls: 0, holds: 0 };

/** One of hold_seats' rows in the procedure's JSON: outcome, booking_id, held_seat_id, held_until, detail. */
type AnswerRow = [HoldOutcome, string | null, string | null, string | null, string | null];
/** A hold's answer in the procedure's JSON: hold_seats' rows, or the SQLSTATE it raised. */
type Answer = AnswerRow[] | { error: string };

interface Waiting {
  call: HoldCall;
  resolve: (rows: HoldRow[]) => void;
  reject: (err: unknown) => void;
}

/** The limits a call shares by all its holds. */
const limitsOf = (c: HoldCall) =>
  `${c.minutes}/${c.maxLive}/${c.maxUser}/${c.maxAddress}/${c.accessibleReleaseMinutes}`;

/**
 * The holds asked for within one turn of the event loop, sent together (decision 062): a hold alone goes out as it
 * always did (`alone`, the prepared hold_seats statement); several go out as one `hold_seats_batch` call per
 * HOLDS_PER_CALL, which runs each of them as hold_seats in a transaction of its own, in the order they were asked.
 * Every hold still gets its own answer, and a hold that raised in the call (a deadlock, a lock timeout, a seat retired
 * meanwhile) is run again alone, so that it fails, is retried or succeeds exactly as a hold sent alone does. When the
 * call itself fails (the database went away), every hold of it fails with that error.
 */
export function holdsTogether(
  pool: pg.Pool,
  alone: (call: HoldCall) => Promise<HoldRow[]>,
): (call: HoldCall) => Promise<HoldRow[]> {
  const settle = (w: Waiting, rows: Promise<HoldRow[]>) => rows.then(w.resolve, w.reject);

  const send = async (holds: Waiting[]) => {
    if (holds.length === 1) return settle(holds[0]!, alone(holds[0]!.call));
    const first = holds[0]!.call;
    let answers: Answer[];
    try {
      const { rows } = await pool.query<{ p_results: Answer[] }>({
        ...CALL,
        values: [
          holds.map((w) => w.call.showtimeId),
          holds.map((w) => w.call.userId),
          holds.map((w) => w.call.seatIds.length),
          holds.flatMap((w) => w.call.seatIds),
          holds.map((w) => w.call.address),
          first.minutes,
          first.maxLive,
          first.maxUser,
          first.maxAddress,
          first.accessibleReleaseMinutes,
        ],
      });
      answers = rows[0]!.p_results; // jsonb, parsed by node-postgres
    } catch (err) {
      // Refused before any hold ran (an argument PostgreSQL would not take, say): each runs alone and answers for
      // itself. Cut off or cancelled while it ran, some holds may have been made: they all fail (503), as a hold
      // alone does when its connection drops after it committed.
      const code = pgErrorCode(err);
      if (code && !CUT_OFF.has(code.slice(0, 2))) for (const w of holds) void settle(w, alone(w.call));
      else for (const w of holds) w.reject(err);
      return;
    }
    holdBatches.calls++;
    holdBatches.holds += holds.length;
    holds.forEach((w, i) => {
      const answer = answers[i];
      if (Array.isArray(answer)) w.resolve(answer.map(toRow));
      else void settle(w, alone(w.call)); // it raised: answered as a hold alone is
    });
  };

  const ask = perTurn<Waiting>((all) => {
    // A turn's holds by their limits (in practice all alike), then HOLDS_PER_CALL to a call; one alone goes alone.
    for (const group of groupedBy(all, (w) => limitsOf(w.call)).values()) {
      for (let i = 0; i < group.length; i += HOLDS_PER_CALL) void send(group.slice(i, i + HOLDS_PER_CALL));
    }
  });
  return (call) => new Promise<HoldRow[]>((resolve, reject) => ask({ call, resolve, reject }));
}

const toRow = ([outcome, id, seatId, heldUntil, detail]: AnswerRow): HoldRow => ({
  outcome,
  id,
  seatId,
  expiresAt: heldUntil === null ? null : new Date(heldUntil),
  detail,
});

/** node-postgres's pool behind a database handle, or null (the embedded engine, a transaction). */
export function poolOf(db: Db): pg.Pool | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}
