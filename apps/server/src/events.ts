import type { FastifyBaseLogger } from 'fastify';
import type { SeatStatus, SeatsUpdate } from '@cinema/contract';

/**
 * What happened to seats, told after the change has committed. Services publish; the consumers (the Socket.IO
 * fan-out and the seat-map cache) subscribe in one place, modules/seating/seat-events.ts. See decision 016.
 */
export interface DomainEventMap {
  /** Seats of a showtime changed status: held, cancelled, confirmed, expired, refunded. */
  seatsChanged: SeatsUpdate;
  /**
   * A showtime's seat map changed although no seat changed status (checkout extended holds, a showtime was
   * deleted): nobody needs telling, but no process may serve the old map. No showtimeId: every map.
   */
  seatMapStale: { showtimeId?: string };
  /**
   * Checkout sessions closed before they were paid (their holds were cancelled, or a newer checkout replaced them):
   * the provider's copies must be closed too, so nobody can still pay them there.
   */
  checkoutsClosed: {
    sessions: { provider: 'local' | 'stripe' | 'none' | 'box_office'; providerSessionId: string }[];
  };
}

export type DomainEventName = keyof DomainEventMap;
type Handler<K extends DomainEventName> = (event: DomainEventMap[K]) => void;

/**
 * A synchronous, in-process event bus. Handlers run in the order they subscribed, at the moment of publishing; a
 * handler that throws is logged and does not stop the others or the publisher (whose change has committed).
 * Crossing processes is the consumers' business (Socket.IO's Redis adapter, the cache's shared versions).
 */
export class DomainEvents {
  private readonly handlers: { [K in DomainEventName]: Handler<K>[] } = {
    seatsChanged: [],
    seatMapStale: [],
    checkoutsClosed: [],
  };

  constructor(private readonly log: FastifyBaseLogger) {}

  subscribe<K extends DomainEventName>(name: K, handler: Handler<K>): void {
    this.handlers[name].push(handler);
  }

  publish<K extends DomainEventName>(name: K, event: DomainEventMap[K]): void {
    for (const handler of this.handlers[name]) {
      try {
        handler(event);
      } catch (err) {
        this.log.error({ err, event: name }, 'a domain event handler failed');
      }
    }
  }
}

/** One seat of one showtime and the status seat maps now show for it. */
export interface SeatChange {
  showtimeId: string;
  seatId: string;
  status: SeatStatus;
}

/** Publishes `seatsChanged` once per showtime for the given changes (nothing for none). Call after commit. */
export function publishSeatChanges(events: DomainEvents, changes: readonly SeatChange[]): void {
  const byShowtime = new Map<string, SeatsUpdate['seats']>();
  for (const c of changes) {
    const list = byShowtime.get(c.showtimeId);
    if (list) list.push({ id: c.seatId, status: c.status });
    else byShowtime.set(c.showtimeId, [{ id: c.seatId, status: c.status }]);
  }
  for (const [showtimeId, seats] of byShowtime) events.publish('seatsChanged', { showtimeId, seats });
}
