import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runPeriodically } from '../../periodic.ts';
import { sweepExpiredHolds } from './sweeper.ts';

/**
 * Where seat changes go, in one place (decision 016). Services publish `seatsChanged` and `seatMapStale` after
 * commit; here the seat-map cache drops the map (here and, through Redis, in every process) and then the Socket.IO
 * fan-out tells every open seat map, so a client reloading on `seats_update` never gets the old map. The sweeper,
 * which expires holds on a timer, publishes through the same events.
 */
export const seatEvents = fp(
  async function seatEvents(app: FastifyInstance) {
    const { events, seatMaps, realtime, bestSeats } = app;
    events.subscribe('seatsChanged', (update) => {
      if (update.seats.length > 0) void seatMaps.invalidate(update.showtimeId);
    });
    // Best available's view of the seats (best-seats.ts): held and sold seats are taken in it at once.
    events.subscribe('seatsChanged', (update) => bestSeats.seatsChanged(update.showtimeId, update.seats));
    events.subscribe('seatsChanged', (update) => realtime.broadcastSeats(update));
    events.subscribe('seatMapStale', ({ showtimeId }) => {
      void seatMaps.invalidate(showtimeId);
      bestSeats.stale(showtimeId);
    });

    runPeriodically(app, app.config.sweepSeconds * 1000, 'sweeping expired holds', async () => {
      const expired = await sweepExpiredHolds(app.deps);
      events.publish('holdsSwept', { expired });
    });
  },
  { name: 'seat-events', dependencies: ['events', 'realtime', 'seat-map-cache', 'best-seats'] },
);
