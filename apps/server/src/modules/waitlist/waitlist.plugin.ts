import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../deps.ts';
import { runPeriodically } from '../../periodic.ts';
import { hasLine, offerFreedSeats, showtimesInLine } from './waitlist.service.ts';

/** How often every list with someone in line is looked at, whatever the events said (a lost event, a started show). */
const LOOK_EVERY_MS = 30_000;

/**
 * Runs the offering of each showtime's list in the background, one run at a time per showtime in this process: a
 * run asked for while one is under way runs once more after it (the seats it frees may have come too late for it).
 * Across processes the run's own lock (waitlist.service.ts) keeps them apart.
 */
export class WaitlistRuns {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(private readonly deps: Deps) {}

  /** Asks for a run of the showtime's list; `look`: only when someone is in its line (a cheap read first). */
  request(showtimeId: string, { look = true }: { look?: boolean } = {}): void {
    const id = showtimeId.toLowerCase();
    if (this.running.has(id)) {
      this.again.add(id);
      return;
    }
    const run = (async () => {
      do {
        this.again.delete(id);
        if (look && !(await hasLine(this.deps, id))) continue;
        await offerFreedSeats(this.deps, id);
      } while (this.again.has(id));
    })()
      .catch((err) =>
        this.deps.log.warn({ err, showtimeId: id }, 'offering freed seats to the waiting list failed'),
      )
      .finally(() => this.running.delete(id));
    this.running.set(id, run);
  }

  /** Waits for the runs under way (and those they ask for): before close, and in tests. */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    waitlist: WaitlistRuns;
  }
}

/**
 * The waiting list listens to seats (DESIGN §7.6, decision 041): a seat freed (an expiry, a cancel, a refund, an
 * exchange, a release) or sold (an offer taken) asks for a run of its showtime's list, as does a customer joining;
 * every 30 s each list with someone in line is looked at too (offers run out, a showtime starts, an event lost in
 * a crash).
 */
export const waitlistPlugin = fp(
  async function waitlistPlugin(app: FastifyInstance) {
    const runs = new WaitlistRuns(app.deps);
    app.decorate('waitlist', runs);
    app.events.subscribe('seatsChanged', ({ showtimeId, seats }) => {
      if (seats.some((s) => s.status === 'AVAILABLE' || s.status === 'CONFIRMED')) runs.request(showtimeId);
    });
    app.events.subscribe('seatMapStale', ({ showtimeId }) => {
      if (showtimeId) runs.request(showtimeId);
    });
    app.events.subscribe('waitlistJoined', ({ showtimeId }) => runs.request(showtimeId, { look: false }));
    runPeriodically(app, LOOK_EVERY_MS, 'looking at waiting lists', async () => {
      for (const showtimeId of await showtimesInLine(app.deps)) runs.request(showtimeId, { look: false });
      await runs.settle();
    });
    app.addHook('preClose', () => runs.settle());
  },
  { name: 'waitlist', dependencies: ['db', 'events'] },
);
