// Best available under a rush (issue 32, decision 037). Every request used to choose from the same seat map, outside
// any lock, then race the others to hold what it chose: 160 customers at once were all sent to the same best seats,
// and on PostgreSQL one in ten was seated. Here each server process keeps, per showtime, one view of the seats that
// every request chooses from, and a choice claims its seats in that view in the same synchronous step (no await
// between choosing and claiming), so the next request, in the same turn of the event loop or a later one, sees them
// taken while the hold is still on its way to the database. The database stays the only judge of who holds a seat:
// a hold that loses a seat to someone the view did not know of (another process, a stale view) marks the lost seats
// taken, and the next choice waits for the map to be read again.
//
// The view is the seat map (from the seat-map cache) with two things on top, a seat being taken if either says so:
// - seats this process saw held or sold since the map was asked for (the `seatsChanged` events, and the seats a hold
//   was refused for): kept until a map asked for after them replaces the view's, which then shows them;
// - the seats of the holds on their way (claims): until the hold is answered.
// Nothing frees a seat in the view but a newer map: a seat freed in this process (a cancelled or expired hold) drops
// the view, so the next request reads the map again. Otherwise the map is asked for again once the view is FRESH_MS
// old, and requests go on choosing from the view meanwhile: in a rush the map is read about once a second instead of
// after every hold (160 reads of 1,500 seats for 160 requests, which on a cold embedded engine took 20 s).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { accessibleSeatsReleased, bestAvailable, type SeatStatus, type SeatType } from '@cinema/contract';
import { setNewest } from '../../bounded-map.ts';
import type { SeatMapSnapshot } from './seating.service.ts';

/**
 * How long after asking the seat-map cache a view serves before a request asks it again (and goes on with the view
 * while the answer comes). Changes made by this process are in the view at once; this bounds how long one made by
 * another process, or freed by the clock (an expired hold), can be missed: a hold refused for such a seat chooses
 * again.
 */
export const FRESH_MS = 1000;
/** Showtimes with a view at once (a view is about 1,500 small objects). */
const MAX_VIEWS = 50;

/** A seat cell of the view: its state is recomputed from the map, the marks and the claims. */
interface SeatCell {
  kind: 'SEAT';
  id: string;
  type: SeatType;
  pairId?: string;
  state: 'free' | 'taken';
  /** Taken in the map the view was built from (held, sold or blocked). */
  takenInMap: boolean;
}

interface View {
  /** Local clock (ms) when the map was asked of the database: changes seen before then are in it. */
  requestedAt: number;
  /** Local clock (ms) when the seat-map cache was last asked for this map. */
  checkedAt: number;
  /**
   * A hold lost seats the view showed free: someone it does not know of (another process) is choosing too, so the
   * next choice waits for the map to be read again rather than going on with this view.
   */
  behind?: boolean;
  rows: (SeatCell | { kind: 'GAP' })[][];
  cells: Map<string, SeatCell>;
  /** When the showtime's wheelchair spaces and companion seats sell as standard seats by the clock (DESIGN §7.5). */
  accessibleReleaseAt?: string;
}

interface Showtime {
  view?: View;
  layout?: Layout;
  /** Seats seen taken (held or sold, or refused to a hold) since, by local clock. */
  marks: Map<string, number>;
  /** Seats of holds on their way, chosen here. */
  claims: Set<string>;
  /** A read of the map under way (shared by the requests that need it). */
  reading?: Promise<void>;
}

/** The hall's grid of cells, kept from one read of the map to the next while the hall's seats stay the same. */
interface Layout {
  rows: View['rows'];
  cells: Map<string, SeatCell>;
  /** The cells in the map's seat order. */
  order: SeatCell[];
}

function buildLayout(snapshot: SeatMapSnapshot): Layout {
  const rows: View['rows'] = snapshot.layout.rows.map(() =>
    Array.from({ length: snapshot.layout.cols }, () => ({ kind: 'GAP' as const })),
  );
  const cells = new Map<string, SeatCell>();
  const order = snapshot.seats.map((seat) => {
    const cell: SeatCell = { kind: 'SEAT', id: seat.id, type: seat.type, state: 'free', takenInMap: false };
    if (seat.pairId) cell.pairId = seat.pairId;
    rows[seat.row - 1]![seat.col] = cell;
    cells.set(seat.id, cell);
    return cell;
  });
  return { rows, cells, order };
}

/** Whether a map has the very seats of a layout, in the same places (a hall edited since has not). */
function sameLayout(layout: Layout | undefined, snapshot: SeatMapSnapshot): boolean {
  if (!layout || layout.order.length !== snapshot.seats.length) return false;
  if (layout.rows.length !== snapshot.layout.rows.length || layout.rows[0]?.length !== snapshot.layout.cols)
    return false;
  return snapshot.seats.every((seat, i) => {
    const cell = layout.order[i]!;
    return (
      cell.id === seat.id &&
      cell.type === seat.type &&
      cell.pairId === (seat.pairId ?? undefined) &&
      layout.rows[seat.row - 1]?.[seat.col] === cell
    );
  });
}

/** Where the view's map comes from: the seat-map cache, with when the map it gives was asked for. */
export interface SeatMapSource {
  snapshotRead(showtimeId: string): Promise<{ snapshot: SeatMapSnapshot; requestedAt: number }>;
}

/** Seats chosen for one request and claimed in the view until `settle` says how the hold went. */
export interface Choice {
  seatIds: string[];
  /**
   * The hold is answered: `held` keeps the seats taken in the view; `lost` names seats someone else has (taken in
   * the view from now on); otherwise the claim is simply let go.
   */
  settle(outcome: { held: true } | { held: false; lost?: string[] }): void;
}

export class BestSeats {
  private readonly showtimes = new Map<string, Showtime>();

  constructor(
    private readonly source: SeatMapSource,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The best `count` seats for one customer as this process sees them now, claimed until `settle`; null when there
   * are not that many together. 404 for an unknown showtime (from the map).
   */
  async choose(
    showtimeId: string,
    count: number,
    type: SeatType | undefined,
    { claim = true }: { claim?: boolean } = {},
  ): Promise<Choice | null> {
    const id = showtimeId.toLowerCase();
    const show = await this.fresh(id);
    // From here to the claim nothing waits: no other request can choose in between.
    const view = show.view!;
    const accessibleReleased = accessibleSeatsReleased(view.accessibleReleaseAt, freeCells(view), this.now());
    const seatIds = bestAvailable(view.rows, count, { type, accessibleReleased });
    if (!seatIds) return null;
    if (!claim) return { seatIds, settle: () => {} };
    for (const seatId of seatIds) show.claims.add(seatId);
    this.restate(show, seatIds);
    let settled = false;
    return {
      seatIds,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        for (const seatId of seatIds) show.claims.delete(seatId);
        const at = this.now();
        const taken = outcome.held ? seatIds : (outcome.lost ?? []);
        for (const seatId of taken) show.marks.set(seatId.toLowerCase(), at);
        if (!outcome.held && outcome.lost?.length && show.view) show.view.behind = true;
        this.restate(show, [...seatIds, ...taken]);
      },
    };
  }

  /** Seats changed status in this process (after commit): held or sold ones are taken in the view at once. */
  seatsChanged(showtimeId: string, seats: { id: string; status: SeatStatus }[]): void {
    const show = this.showtimes.get(showtimeId.toLowerCase());
    if (!show) return;
    const at = this.now();
    const taken: string[] = [];
    for (const seat of seats) {
      if (seat.status === 'HELD' || seat.status === 'CONFIRMED') {
        show.marks.set(seat.id.toLowerCase(), at);
        taken.push(seat.id.toLowerCase());
      } else {
        // A seat came free: only a newer map can say so (a free seat may still be blocked).
        show.view = undefined;
      }
    }
    this.restate(show, taken);
  }

  /** The map changed in a way no seat status says (a showtime deleted, a layout edited): read it again. */
  stale(showtimeId?: string): void {
    if (!showtimeId) {
      for (const show of this.showtimes.values()) show.view = undefined;
      return;
    }
    const show = this.showtimes.get(showtimeId.toLowerCase());
    if (show) show.view = undefined;
  }

  /** The showtime's state with a view whose map is at most FRESH_MS old. */
  private async fresh(id: string): Promise<Showtime> {
    let show = this.showtimes.get(id);
    if (!show) {
      show = { marks: new Map(), claims: new Set() };
      setNewest(this.showtimes, id, show, MAX_VIEWS);
    }
    if (show.view && !show.view.behind && this.now() - show.view.checkedAt < FRESH_MS) return show;
    const reading = (show.reading ??= this.read(id, show).finally(() => {
      show!.reading = undefined;
    }));
    if (show.view && !show.view.behind) {
      // In a rush the view goes on serving while the map is read again (as long as that takes: on a cold embedded
      // engine, reads wait behind the holds).
      reading.catch(() => {});
      return show;
    }
    await reading;
    // A view dropped while its read was under way (a seat came free meanwhile): this request reads again.
    return show.view ? show : this.fresh(id);
  }

  private async read(id: string, show: Showtime): Promise<void> {
    const checkedAt = this.now();
    const { snapshot, requestedAt } = await this.source.snapshotRead(id);
    // A view built meanwhile from a newer map stays (and is as fresh as this check).
    if (show.view && show.view.requestedAt >= requestedAt) {
      show.view.checkedAt = Math.max(show.view.checkedAt, checkedAt);
      if (show.view.requestedAt >= checkedAt) show.view.behind = false;
      return;
    }
    // Changes seen before the map was asked for are in it.
    for (const [seatId, at] of show.marks) if (at < requestedAt) show.marks.delete(seatId);
    const layout = sameLayout(show.layout, snapshot) ? show.layout! : buildLayout(snapshot);
    show.layout = layout;
    snapshot.seats.forEach((seat, i) => {
      const cell = layout.order[i]!;
      cell.takenInMap = seat.status !== 'AVAILABLE';
      cell.state = this.taken(show, cell) ? 'taken' : 'free';
    });
    show.view = {
      requestedAt,
      checkedAt,
      rows: layout.rows,
      cells: layout.cells,
      accessibleReleaseAt: snapshot.showtime.accessibleReleaseAt,
    };
  }

  private taken(show: Showtime, cell: SeatCell): boolean {
    return cell.takenInMap || show.marks.has(cell.id) || show.claims.has(cell.id);
  }

  private restate(show: Showtime, seatIds: Iterable<string>): void {
    const cells = show.view?.cells;
    if (!cells) return;
    for (const seatId of seatIds) {
      const cell = cells.get(seatId);
      if (cell) cell.state = this.taken(show, cell) ? 'taken' : 'free';
    }
  }
}

/** The view's seats as accessibleSeatsReleased reads them (it stops at the first free seat of another type). */
function* freeCells(view: View): Iterable<{ type: SeatType; free: boolean }> {
  for (const cell of view.cells.values()) yield { type: cell.type, free: cell.state === 'free' };
}

declare module 'fastify' {
  interface FastifyInstance {
    bestSeats: BestSeats;
  }
}

/** `app.bestSeats`, on top of the seat-map cache; seat-events.ts tells it of every seat change. */
export const bestSeatsPlugin = fp(
  async function bestSeatsPlugin(app: FastifyInstance) {
    app.decorate('bestSeats', new BestSeats(app.seatMaps));
  },
  { name: 'best-seats', dependencies: ['seat-map-cache'] },
);
