import type { FastifyBaseLogger } from 'fastify';
import type { SeatStatus, SeatsUpdate } from '@cinema/contract';
import type { Db, Tx } from './db/database.ts';

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
  /**
   * An order was paid, once: an online checkout fulfilled (a free order too) or a counter sale. `confirmed` seats
   * were sold; `refunded` were lost before the payment arrived (an `orderRefunded` of kind `automatic` follows).
   * Decision 034.
   */
  orderPaid: OrderRef & {
    channel: 'online' | 'box_office';
    confirmed: number;
    refunded: number;
    /** Food and drink lines delivered: the kitchen has the order to prepare (DESIGN §7.2). */
    items?: number;
    /** A guest order's link token (a counter sale no verified account received), for its confirmation only. */
    guestToken?: string;
  };
  /**
   * Money of an order went back: tickets refunded by staff, paid seats lost after their hold expired (`automatic`),
   * or what a cheaper seat gave back in an exchange. `seats` is how many lines it refunded.
   */
  orderRefunded: OrderRef & { kind: 'staff' | 'automatic' | 'exchange'; seats: number; amountCents: number };
  /** Tickets of an order moved to other seats (an exchange), each keeping its booking (and QR code). */
  ticketsMoved: OrderRef & { moves: TicketMove[] };
  /** The kitchen moved an order's food and drink on: ready, or handed over (DESIGN §7.2). */
  kitchenChanged: OrderRef & { status: 'ready' | 'collected' | 'delivered' };
  /** The sweeper ran once and expired this many holds (none is a run too). */
  holdsSwept: { expired: number };
  /** A customer joined a showtime's waiting list (DESIGN §7.6). */
  waitlistJoined: { showtimeId: string; entryId: string };
  /** Seats were held for a customer of a waiting list, once per offer: the customer is told (email). */
  waitlistOffered: { offerId: string; entryId: string; showtimeId: string; userId: string; seats: number };
  /** An offer ended: paid (`taken`), run out or released (`passed`), or declined by leaving the list. */
  waitlistOfferSettled: { offerId: string; showtimeId: string; outcome: 'taken' | 'passed' | 'declined' };
}

/** The order an order event is about: its id (the checkout session's) and the reference the customer knows. */
export interface OrderRef {
  sessionId: string;
  ref: string;
}

/** One ticket moved by an exchange: from the seat it had to the one it has now. */
export interface TicketMove {
  bookingId: string;
  from: { showtimeId: string; seatId: string };
  to: { showtimeId: string; seatId: string };
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
    orderPaid: [],
    orderRefunded: [],
    ticketsMoved: [],
    kitchenChanged: [],
    holdsSwept: [],
    waitlistJoined: [],
    waitlistOffered: [],
    waitlistOfferSettled: [],
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

/**
 * What a transaction records as it goes, to be told once it has committed: domain events and seat changes, published
 * in the order recorded. A transaction that rolls back (a thrown error, a refused seat, a failed commit) tells nothing.
 */
export class AfterCommit {
  private readonly pending: (() => void)[] = [];

  constructor(private readonly events: DomainEvents) {}

  /** An event to publish after commit. */
  record<K extends DomainEventName>(name: K, event: DomainEventMap[K]): void {
    this.pending.push(() => this.events.publish(name, event));
  }

  /** Seat changes to publish after commit, one `seatsChanged` per showtime (see publishSeatChanges). */
  seats(changes: readonly SeatChange[]): void {
    this.pending.push(() => publishSeatChanges(this.events, changes));
  }

  /** Publishes what was recorded, once. */
  publish(): void {
    for (const tell of this.pending.splice(0)) tell();
  }
}

/**
 * Runs `work` in one transaction with an AfterCommit to record its events in; publishes them only once the
 * transaction has committed, and never when it threw or rolled back (decision 034).
 */
export async function transactionWithEvents<T>(
  deps: { db: Db; events: DomainEvents },
  work: (tx: Tx, after: AfterCommit) => Promise<T>,
): Promise<T> {
  const after = new AfterCommit(deps.events);
  const result = await deps.db.transaction((tx) => work(tx, after));
  after.publish();
  return result;
}
