import { randomUUID } from 'node:crypto';
import { gzip } from 'node:zlib';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { createClient } from 'redis';
import { batchPerTurn } from '../../batch.ts';
import type { SeatMap } from '@cinema/contract';
import type { Db } from '../../db/database.ts';
import { setNewest } from '../../bounded-map.ts';
import { CONNECT_WAIT_MS, connectWaitMs } from '../../plugins/redis.ts';
import { loadSeatMap, presentSeat, type SeatMapSnapshot } from './seating.service.ts';

/** The selection rules every seat map carries (SEAT_GAP_RULE). */
type SeatMapRules = NonNullable<SeatMap['rules']>;

/** Showtimes kept at once; the least recently loaded goes first. */
const MAX_ENTRIES = 500;
/**
 * A safety net, not the mechanism: every change drops its map at once. This only bounds how long a map could stay
 * wrong if Redis lost a version (or several processes share a database without sharing a Redis).
 */
const MAX_AGE_MS = 2000;
const ALL = '*';
const KEY_PREFIX = 'cinema:seat-map:';
const VERSION_TTL_SECONDS = 7 * 24 * 3600;
/**
 * Reads of one map (by clients that accept gzip) after which it is compressed. A 600-seat map is about 52 KB of
 * JSON and 16 KB gzipped (level 1); compressing it takes about 0.3 ms on the thread pool, about what ten smaller
 * responses save in sending. Every open seat map reloads on each change, so a popular map is read hundreds of times
 * per version; in a quiet moment, or between changes in a rush, a map read a few times is not worth compressing.
 */
export const GZIP_AFTER_READS = 8;

interface Entry {
  snapshot: SeatMapSnapshot;
  /** Local clock (ms) when the map was asked of the database: every change made here before then is in it. */
  requestedAt: number;
  /** The shared versions the map was read under ('' with no Redis). */
  version: string;
  /** Local clock (ms) from which the entry must not be served: the earliest hold expiry, or MAX_AGE. */
  staleAt: number;
  /** '{"showtime":{…},"layout":{…},"rules":{…},"seats":[' */
  head: string;
  /** Each seat's JSON as a visitor (or anyone but its holder) sees it. */
  seatJson: string[];
  /**
   * The map as a visitor (or anyone without a hold in it) sees it: JSON, already encoded. Sending a 52 KB string
   * cost the server about 45 µs per response in encoding it again (the map is most of what a read costs).
   */
  visitorBody: Buffer;
  /** `visitorBody` gzipped, once it has been read GZIP_AFTER_READS times by clients that accept gzip. */
  visitorGzip?: Buffer;
  gzipReads: number;
  /** Seat indexes of each customer's live holds, to mark heldByMe for them alone. */
  holdsByUser: Map<string, number[]>;
}

interface Loading {
  version: string;
  promise: Promise<Entry>;
  /** Set when a change is made while loading: the result may predate it, so it is served but not kept. */
  superseded: boolean;
}

function buildEntry(
  snapshot: SeatMapSnapshot,
  rules: SeatMapRules,
  version: string,
  requestedAt: number,
): Entry {
  // How far the database clock may be ahead of ours, at most: now() was read after `requestedAt` (our clock).
  // Holds expire by the database clock, so the entry goes stale that much earlier, never later.
  const skew = snapshot.readAt.getTime() - requestedAt;
  let staleAt = requestedAt + MAX_AGE_MS;
  const holdsByUser = new Map<string, number[]>();
  snapshot.seats.forEach((seat, i) => {
    if (seat.status !== 'HELD') return;
    staleAt = Math.min(staleAt, seat.expiresAt!.getTime() - skew);
    const list = holdsByUser.get(seat.holderId!);
    if (list) list.push(i);
    else holdsByUser.set(seat.holderId!, [i]);
  });
  const head = `{"showtime":${JSON.stringify(snapshot.showtime)},"layout":${JSON.stringify(snapshot.layout)},"rules":${JSON.stringify(rules)},"seats":[`;
  const seatJson = snapshot.seats.map((s) => JSON.stringify(presentSeat(s, null)));
  const visitorBody = Buffer.from(`${head}${seatJson.join(',')}]}`);
  return { snapshot, requestedAt, version, staleAt, head, seatJson, visitorBody, gzipReads: 0, holdsByUser };
}

/**
 * Who is reading a map: given a test of whether a user holds seats in it, the caller's user id if that user does
 * (their map is their own), else null (they see what everybody sees). Answered at once when it needs no database
 * (a visitor, or a token this process knows to be someone's without holds), else later.
 */
export type Viewer = (holdsSeats: (userId: string) => boolean) => string | null | Promise<string | null>;

const holdsIn = (entry: Entry) => (userId: string) => entry.holdsByUser.has(userId);

/** A seat map's response body: JSON, or the same JSON gzipped (`gzip`). */
export interface SeatMapBody {
  body: string | Buffer;
  gzip: boolean;
}

function render(entry: Entry, userId: string | null, acceptsGzip: boolean): SeatMapBody {
  const mine = userId ? entry.holdsByUser.get(userId) : undefined;
  if (mine) {
    // The caller's own holds are marked for them alone: never compressed, never kept.
    const parts = entry.seatJson.slice();
    for (const i of mine) parts[i] = JSON.stringify(presentSeat(entry.snapshot.seats[i]!, userId));
    return { body: `${entry.head}${parts.join(',')}]}`, gzip: false };
  }
  if (acceptsGzip) {
    if (entry.visitorGzip) return { body: entry.visitorGzip, gzip: true };
    if (++entry.gzipReads === GZIP_AFTER_READS) {
      // Off the event loop; until it is done (or if it fails) the map goes out as it is.
      gzip(entry.visitorBody, { level: 1 }, (err, compressed) => {
        if (!err) entry.visitorGzip = compressed;
      });
    }
  }
  return { body: entry.visitorBody, gzip: false };
}

/**
 * Versions of the seat maps shared by every server process through Redis: a change sets a new random version
 * (and waits for Redis to take it) before its response goes out; a read compares versions before serving a map.
 * So a customer's next read sees their own change whichever process answers it.
 */
export interface SharedVersions {
  /** The versions a showtime's map depends on: its own and the one of "every map". */
  read(showtimeId: string): Promise<string>;
  bump(showtimeId: string): Promise<void>;
  /** Whether Redis is connected right now. */
  ready(): boolean;
}

function redisVersions(client: ReturnType<typeof createClient>): SharedVersions {
  // The reads of one turn of the event loop share one MGET (a busy map is read by many requests at once); each was
  // asked before the MGET went out, so each still sees every change acknowledged before its request arrived.
  const read = batchPerTurn(async (showtimeIds: string[]) => {
    const [all, ...ones] = await client.mGet([KEY_PREFIX + ALL, ...showtimeIds.map((id) => KEY_PREFIX + id)]);
    return new Map(showtimeIds.map((id, i) => [id, `${all ?? ''}/${ones[i] ?? ''}`]));
  });
  return {
    // The batch's own promise (every id asked is in its answer): no promise of its own per read.
    read: read as (showtimeId: string) => Promise<string>,
    async bump(showtimeId) {
      await client.set(KEY_PREFIX + showtimeId, randomUUID(), { EX: VERSION_TTL_SECONDS });
    },
    ready: () => client.isReady,
  };
}

/**
 * Seat maps, read from the database once per change instead of once per request. A map is dropped on every
 * change (the `seatsChanged` and `seatMapStale` events, see seat-events.ts), everywhere; it is never served past its
 * first hold's expiry, so lazy expiry stays exact.
 */
export class SeatMapCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Loading>();
  /** The last version change sent to Redis: one connection answers in order, so once it is done all are. */
  private lastBump: Promise<void> = Promise.resolve();
  /** Version changes sent to Redis and not answered yet: none, and every change made so far is shared. */
  private bumpsOut = 0;
  /** False from the moment Redis fails until it is back: maps are then read from the database and not kept. */
  private trusted = true;

  constructor(
    private readonly deps: {
      db: Db;
      log: FastifyBaseLogger;
      rules: SeatMapRules;
      timeZone: string;
      accessibleReleaseMinutes?: number;
    },
    /** Absent when this process is alone (no Redis): local drops are then the whole story. */
    private readonly shared?: SharedVersions,
  ) {}

  /**
   * The seat map's JSON as this caller sees it (their own holds marked); gzipped when the caller accepts it, the map
   * is the one everybody without a hold in it sees, and it was read often enough to be compressed. `viewer` names
   * the caller's user if it is one of those the given test picks (the ones holding seats in the map), else null.
   * 404 for an unknown showtime.
   */
  body(showtimeId: string, viewer: Viewer, acceptsGzip: boolean): Promise<SeatMapBody> {
    // Chained, not awaited, and no promise where the answer is at hand: a cached read made 27 promises (the bare
    // route makes 13), each one a turn of the request id's async hooks; now 16 (issue 32).
    return this.current(showtimeId).then(({ entry, kept }) => {
      // Nobody holds seats in it: everybody's map is the same, whoever asks (no token read, hashed or checked).
      const userId = entry.holdsByUser.size === 0 ? null : viewer(holdsIn(entry));
      return userId instanceof Promise
        ? userId.then((id) => render(entry, id, acceptsGzip && kept))
        : render(entry, userId, acceptsGzip && kept);
    });
  }

  /**
   * The seat map as the database had it at most a change ago (as every reader sees it): for rules that look at the
   * seats around a selection (the single-seat gap, best available). 404 for an unknown showtime.
   */
  async snapshot(showtimeId: string): Promise<SeatMapSnapshot> {
    return (await this.current(showtimeId)).entry.snapshot;
  }

  /** The same, with the moment (local clock) the map was asked of the database: for views kept on top of it. */
  async snapshotRead(showtimeId: string): Promise<{ snapshot: SeatMapSnapshot; requestedAt: number }> {
    const { entry } = await this.current(showtimeId);
    return { snapshot: entry.snapshot, requestedAt: entry.requestedAt };
  }

  /** The current entry of a map, and whether it is kept (false: read past the cache, Redis being away). */
  private current(showtimeId: string): Promise<{ entry: Entry; kept: boolean }> {
    const id = showtimeId.toLowerCase();
    if (!this.shared) return Promise.resolve(this.kept(id, ''));
    // Until Redis is back (and every map kept from before it went away has been dropped), versions mean nothing.
    if (!this.trusted) {
      // A failure without a reconnect (no 'ready' to wait for): try again while it answers.
      if (this.shared.ready()) void this.redisBack();
      return this.unkept(id, new Error('seat-map versions are not trusted until Redis is back'));
    }
    let read: Promise<string>;
    try {
      read = this.shared.read(id);
    } catch (err) {
      return this.unkept(id, err);
    }
    return read.then(
      (version) => this.kept(id, version),
      (err: unknown) => this.unkept(id, err),
    );
  }

  /** The kept entry of a map under `version` (at once when it is current), loaded when missing or stale. */
  private kept(id: string, version: string) {
    const entry = this.entries.get(id);
    if (entry && entry.version === version && entry.staleAt > Date.now()) return { entry, kept: true };
    return this.load(id, version).then((loaded) => ({ entry: loaded, kept: true }));
  }

  /** Without the versions nothing here can be trusted: the map read from the database, kept nowhere. */
  private async unkept(id: string, err: unknown): Promise<{ entry: Entry; kept: boolean }> {
    this.distrust(err);
    return { entry: await this.fromDatabase(id, ''), kept: false };
  }

  /** The map as the database has it now, read under `version`. */
  private async fromDatabase(id: string, version: string): Promise<Entry> {
    const requestedAt = Date.now();
    const snapshot = await loadSeatMap(
      this.deps.db,
      id,
      this.deps.timeZone,
      this.deps.accessibleReleaseMinutes,
    );
    return buildEntry(snapshot, this.deps.rules, version, requestedAt);
  }

  /**
   * Drops a showtime's map (no id: every map) here and, with Redis, in every process; the returned promise (which
   * never rejects) resolves once no process can serve the old map any more.
   */
  invalidate(showtimeId?: string): Promise<void> {
    const id = showtimeId?.toLowerCase() ?? ALL;
    if (id === ALL) {
      this.dropAllLocally();
    } else {
      this.entries.delete(id);
      const loading = this.loading.get(id);
      if (loading) loading.superseded = true;
      this.loading.delete(id);
    }
    if (!this.shared) return Promise.resolve();
    this.bumpsOut++;
    const bump = this.shared
      .bump(id)
      .catch((err: unknown) => this.distrust(err))
      .finally(() => {
        this.bumpsOut--;
      });
    this.lastBump = bump;
    return bump;
  }

  /**
   * Redis failed (or went away): changes made meanwhile by other processes cannot be seen in the versions, so maps
   * are read from the database, and nothing is kept, until `redisBack`. Logged once per outage.
   */
  distrust(err?: unknown): void {
    if (!this.shared || !this.trusted) return;
    this.trusted = false;
    this.deps.log.warn({ err }, 'seat-map versions unavailable: seat maps are read from the database');
  }

  /**
   * Redis answers again: every map kept from before the outage is dropped here, and (through a new version of
   * every map) in every other process, before versions are trusted again.
   */
  redisBack(): Promise<void> {
    this.recovering ??= this.recover().finally(() => {
      this.recovering = null;
    });
    return this.recovering;
  }

  private recovering: Promise<void> | null = null;

  private async recover(): Promise<void> {
    if (!this.shared) return;
    this.dropAllLocally();
    try {
      await this.shared.bump(ALL);
    } catch (err) {
      this.distrust(err);
      return;
    }
    // A map read while the bump was under way may predate it: drop once more, then trust.
    this.dropAllLocally();
    if (!this.trusted) this.deps.log.warn('seat-map versions are back');
    this.trusted = true;
  }

  private dropAllLocally() {
    for (const loading of this.loading.values()) loading.superseded = true;
    this.loading.clear();
    this.entries.clear();
  }

  /** Resolves once every change made so far is visible to every process. */
  settled(): Promise<void> {
    return this.lastBump;
  }

  /** True when every change made so far is visible to every process already (nothing to wait for). */
  isSettled(): boolean {
    return this.bumpsOut === 0;
  }

  private load(id: string, version: string): Promise<Entry> {
    // Simultaneous readers of a missing map share one read (unless a change arrives meanwhile).
    const current = this.loading.get(id);
    if (current && current.version === version) return current.promise;
    const loading = { version, superseded: false } as Loading;
    loading.promise = this.read(id, loading);
    this.loading.set(id, loading);
    return loading.promise;
  }

  private async read(id: string, loading: Loading): Promise<Entry> {
    try {
      const entry = await this.fromDatabase(id, loading.version);
      if (!loading.superseded && entry.staleAt > Date.now()) {
        setNewest(this.entries, id, entry, MAX_ENTRIES); // the Map's order is the load order
      }
      return entry;
    } finally {
      if (this.loading.get(id) === loading) this.loading.delete(id);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    seatMaps: SeatMapCache;
  }
}

/**
 * `app.seatMaps`. Seat events drop maps (seat-events.ts); every response waits until the changes made so far are
 * shared (a fraction of a millisecond), so whichever process answers the customer's next request already knows of
 * them.
 */
export const seatMapCachePlugin = fp(
  async function seatMapCachePlugin(app: FastifyInstance) {
    let shared: SharedVersions | undefined;
    // The cache is made once the connection is set up; the connection's events reach it from then on.
    const made: { cache?: SeatMapCache } = {};
    let startedWithout = false;
    if (app.config.redisUrl) {
      // No offline queue: with Redis unreachable a read falls back to the database instead of waiting. The start
      // waits a few seconds for Redis, then goes on without it (maps are then read from the database).
      const { createClient } = await import('redis');
      const client = createClient({
        url: app.config.redisUrl,
        disableOfflineQueue: true,
        socket: {
          connectTimeout: CONNECT_WAIT_MS,
          reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000),
        },
      });
      let closing = false;
      client.on('error', (err) => {
        if (!closing) made.cache?.distrust(err);
      });
      client.on('end', () => {
        if (!closing) made.cache?.distrust();
      });
      // Not inside the client's own 'ready' handling: it is still settling its connection then.
      client.on('ready', () => setTimeout(() => void made.cache?.redisBack(), 50));
      const connected = client.connect().then(
        () => true,
        () => false,
      );
      const waitMs = connectWaitMs(app);
      const ready = await Promise.race([
        connected,
        new Promise<boolean>((r) => setTimeout(() => r(false), waitMs)),
      ]);
      if (!ready) startedWithout = true;
      shared = redisVersions(client);
      app.addHook('preClose', async () => {
        closing = true;
      });
      app.addHook('onClose', async () => {
        await Promise.resolve()
          .then(() => client.close())
          .catch(() => client.destroy());
      });
    }
    const rules = { singleSeatGap: app.config.seatGapRule };
    const cache = new SeatMapCache(
      {
        db: app.database.db,
        log: app.log,
        rules,
        timeZone: app.config.timeZone,
        accessibleReleaseMinutes: app.config.accessibleReleaseMinutes,
      },
      shared,
    );
    if (startedWithout) cache.distrust(new Error('REDIS_URL did not answer at start'));
    made.cache = cache;
    if (shared) {
      // Most responses (every read, every refused hold) have nothing to wait for: they go on in the same turn,
      // without a promise of their own.
      app.addHook('onSend', (_request, _reply, payload, done) => {
        if (cache.isSettled()) done(null, payload);
        else void cache.settled().then(() => done(null, payload));
      });
    }
    app.decorate('seatMaps', cache);
  },
  { name: 'seat-map-cache', dependencies: ['db'] },
);
