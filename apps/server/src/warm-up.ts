// The start's rehearsal of a rush (issue 32, decision 042). A process that has just started pays, on its first
// requests of a kind, for compiling what they run: V8 compiles and then optimises the JavaScript as it runs hot (the
// seat-map reader and serialiser, best available's chooser and view, the query builder and the driver), the embedded
// engine's WebAssembly tiers up the same way, and a database connection parses and plans `hold_seats` and the
// session lookup on their first call. In a rush of 160 customers pressing "Find me N seats" on a fresh server those
// first costs came all at once, on top of the rush itself: the slowest answer took 2.5–9 s instead of under 1 s.
//
// So before the process listens it runs the same code once on a hall of its own: in one transaction that is always
// rolled back, it writes a hall of 300 seats, a showtime and a few customers with sessions, checks their sessions,
// reads and serialises the seat map, and seats the customers through best available with hold (the very functions a
// request calls, with a seat-map cache and a view of their own over the transaction). Nothing of it is ever
// committed, told to anyone (its events stay in a bus of its own) or seen by another transaction.
import { randomBytes } from 'node:crypto';
import { rowLabel } from '@cinema/contract';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from './db/database.ts';
import { sql } from 'drizzle-orm';
import { halls, movies, sessions as sessionRows, showtimes, users } from './db/schema/index.ts';
import { DomainEvents } from './events.ts';
import { BestSeats } from './modules/seating/best-seats.ts';
import { SeatMapCache } from './modules/seating/seat-map-cache.ts';
import { findBestAvailable, type SeatingDeps } from './modules/seating/seating.service.ts';
import { loadPdfKit } from './pdf-document.ts';
import { hashToken, sessionsFor } from './plugins/auth.ts';

/**
 * The rehearsal's hall and how many customers it seats, 2–4 seats each: enough for every path of a rush to run hot,
 * small enough to cost a fraction of a second (the seats and the map reads are most of it on the embedded engine).
 */
export const WARM_UP = { rows: 10, cols: 30, customers: 24 };

/** Thrown at the end of the rehearsal's transaction so that it rolls back. */
class RollBack extends Error {}

export interface WarmUpReport {
  /** Customers seated in the rehearsal (all of them, in a hall this size). */
  seated: number;
  ms: number;
}

/**
 * Runs the rehearsal (see the top of this file); resolves with what it did, or null if it failed (the server starts
 * all the same: the rehearsal only saves time; a failure is logged).
 */
export async function warmUp(app: FastifyInstance): Promise<WarmUpReport | null> {
  const started = performance.now();
  let seated = 0;
  // The first PDF's module load (about 0.45 s of CPU), paid here rather than by a customer's first ticket download; if
  // it fails, the first PDF tries again.
  await loadPdfKit().catch((err: unknown) =>
    app.log.warn({ err }, 'loading the PDF library before listening failed'),
  );
  try {
    await app.database.db.transaction(async (tx) => {
      seated = await rehearse(app, tx);
      throw new RollBack();
    });
  } catch (err) {
    if (!(err instanceof RollBack)) {
      app.log.warn({ err }, 'the warm-up before listening failed (the first requests will be slower)');
      return null;
    }
  }
  return { seated, ms: Math.round(performance.now() - started) };
}

async function rehearse(app: FastifyInstance, tx: Tx): Promise<number> {
  // A transaction is a database handle like any other to the services.
  const db: Db = tx;
  const { rows, cols, customers } = WARM_UP;
  const tag = randomBytes(6).toString('hex');
  const rowLabels = Array.from({ length: rows }, (_, r) => rowLabel(r + 1));
  const [hall] = await db
    .insert(halls)
    .values({ name: `Warm-up ${tag}`, rows, cols, rowLabels })
    .returning({ id: halls.id });
  // One statement for the seats (a parameter per seat costs more than the rest of the rehearsal on the embedded
  // engine), labelled by the hall's row labels.
  await db.execute(sql`
    insert into seats (hall_id, row, number, col, row_label)
    select h.id, r, n, n - 1, h.row_labels[r]
    from halls h, generate_series(1, ${rows}::int) r, generate_series(1, ${cols}::int) n
    where h.id = ${hall!.id}`);
  const [movie] = await db
    .insert(movies)
    .values({ title: `Warm-up ${tag}`, description: '', durationMinutes: 100, rating: 'PG' })
    .returning({ id: movies.id });
  const startsAt = new Date(Date.now() + 24 * 3600_000);
  const [show] = await db
    .insert(showtimes)
    .values({
      movieId: movie!.id,
      hallId: hall!.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 115 * 60_000),
      priceCents: 1000,
    })
    .returning({ id: showtimes.id });
  const people = await db
    .insert(users)
    .values(
      Array.from({ length: customers }, (_, i) => ({
        name: `Warm-up ${i + 1}`,
        email: `warm-up-${tag}-${i + 1}@warm-up.invalid`,
        passwordHash: null,
      })),
    )
    .returning({ id: users.id });
  const tokens = people.map(() => randomBytes(32).toString('base64url'));
  await db.insert(sessionRows).values(
    people.map((person, i) => ({
      userId: person.id,
      tokenHash: hashToken(tokens[i]!),
      expiresAt: new Date(Date.now() + 3600_000),
    })),
  );

  // As the requests do: who is asking (the session lookup), then the seat map and best available with hold.
  const sessions = sessionsFor(db);
  const signedIn = await Promise.all(tokens.map((token) => sessions.user(token)));
  const events = new DomainEvents(app.log);
  const seatMaps = new SeatMapCache({
    db,
    log: app.log,
    rules: { singleSeatGap: app.config.seatGapRule },
    timeZone: app.config.timeZone,
  });
  const bestSeats = new BestSeats(seatMaps);
  // What seat-events.ts does for the app's own cache and view (the fan-out to browsers aside).
  events.subscribe('seatsChanged', (update) => void seatMaps.invalidate(update.showtimeId));
  events.subscribe('seatsChanged', (update) => bestSeats.seatsChanged(update.showtimeId, update.seats));
  const deps: SeatingDeps = { db, events, config: app.config, log: app.log, seatMaps, bestSeats };
  const showtimeId = show!.id;
  const anyone = async () => null;
  await seatMaps.body(showtimeId, anyone, false);
  let seated = 0;
  for (const [i, user] of signedIn.entries()) {
    if (!user) continue;
    const answer = await findBestAvailable(deps, {
      showtimeId,
      count: 2 + (i % 3),
      // An address each (a documentation range), as customers of a rush come from theirs.
      hold: { userId: user.id, clientAddress: `192.0.2.${i + 1}` },
    });
    if (answer.hold) seated++;
    // Every few holds the map is read and serialised again, as the open seat maps of a rush do (one of them as its
    // holder sees it).
    if (i % 8 === 7) {
      await seatMaps.body(showtimeId, anyone, true);
      await seatMaps.body(showtimeId, async (holds) => (holds(user.id) ? user.id : null), false);
    }
  }
  return seated;
}
