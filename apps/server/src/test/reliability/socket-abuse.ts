import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import { SOCKET_EVENTS } from '@cinema/contract';

/** A socket.io client over WebSocket only (what the app's client tries first). */
function client(url: string): Socket {
  return connect(url, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 10_000 });
}

function connected(socket: Socket): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

/** Stops reading from the socket's TCP connection: the server's writes pile up behind it. */
function stopReading(socket: Socket) {
  const transport = (socket.io.engine as unknown as { transport: { ws?: { _socket?: { pause(): void } } } })
    .transport;
  const tcp = transport.ws?._socket;
  if (!tcp) throw new Error('no underlying TCP socket to pause');
  tcp.pause();
}

export interface HealthProbe {
  answered: number;
  failed: number;
  latenciesMs: number[];
}

/** Asks /api/health every `everyMs` until stopped, recording how long each answer took. */
function probeHealth(url: string, everyMs = 100) {
  const probe: HealthProbe = { answered: 0, failed: 0, latenciesMs: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
        await res.text();
        if (res.ok) {
          probe.answered++;
          probe.latenciesMs.push(performance.now() - started);
        } else probe.failed++;
      } catch {
        probe.failed++;
      }
      await sleep(everyMs);
    }
  })();
  return {
    probe,
    stop: async () => {
      running = false;
      await loop;
      return probe;
    },
  };
}

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export interface GarbageReport {
  sent: number;
  /** Garbage joins the server acknowledged as ok (must be 0). */
  accepted: string[];
  /** Garbage the server did not answer at all (an oversized frame closes the connection instead). */
  unanswered: number;
  /** The real showtime could still be joined afterwards. */
  realJoinWorked: boolean;
}

/** Joins with ids that are not ids, or not showtimes: none may be accepted. */
export async function garbageJoins(url: string, showtimeId: string): Promise<GarbageReport> {
  const garbage: unknown[] = [
    undefined,
    null,
    42,
    -1,
    Number.MAX_SAFE_INTEGER,
    true,
    {},
    { id: showtimeId },
    [showtimeId],
    '',
    ' ',
    'not-a-uuid',
    `${showtimeId} `,
    `${showtimeId}\u0000`,
    '\u202e' + showtimeId,
    "' or 1=1 --",
    'x'.repeat(15_000),
    randomUUID(),
    randomUUID(),
    '00000000-0000-0000-0000-000000000000',
    { toString: 'boom', valueOf: 1 },
    { __proto__: { polluted: true } },
  ];
  const report: GarbageReport = { sent: 0, accepted: [], unanswered: 0, realJoinWorked: false };
  // A few values per connection, so the per-socket rate limit never answers in the parser's place.
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < garbage.length; i += 5) {
      const socket = client(url);
      sockets.push(socket);
      await connected(socket);
      for (const value of garbage.slice(i, i + 5)) {
        report.sent++;
        try {
          const ack = (await socket.timeout(3000).emitWithAck(SOCKET_EVENTS.joinShowtime, value)) as {
            ok: boolean;
            error?: string;
          };
          if (ack?.ok !== false || typeof ack.error !== 'string') {
            report.accepted.push(JSON.stringify(value)?.slice(0, 60) ?? String(value));
          }
        } catch {
          report.unanswered++;
        }
      }
    }
    // A frame over the 16 KB limit is not parsed at all: the server drops the connection.
    const big = client(url);
    await connected(big);
    const closed = new Promise<boolean>((resolve) => {
      big.once('disconnect', () => resolve(true));
      setTimeout(() => resolve(false), 5000);
    });
    big.emit(SOCKET_EVENTS.joinShowtime, 'y'.repeat(64 * 1024));
    report.sent++;
    if (!(await closed)) report.accepted.push('a 64 KB frame was not refused');
    big.disconnect();

    const fresh = client(url);
    await connected(fresh);
    const ack = (await fresh.timeout(5000).emitWithAck(SOCKET_EVENTS.joinShowtime, showtimeId)) as {
      ok: boolean;
    };
    report.realJoinWorked = ack.ok === true;
    fresh.disconnect();
  } finally {
    for (const s of sockets) s.disconnect();
  }
  return report;
}

export interface FloodReport {
  clients: number;
  joinsSent: number;
  durationMs: number;
  /** Flooding clients the server disconnected for it. */
  disconnected: number;
  health: HealthProbe;
  healthP50Ms: number;
  healthMaxMs: number;
  rssBefore: number | null;
  rssPeak: number | null;
  /** A polite client joining right after the flood is answered. */
  politeJoinWorked: boolean;
}

/**
 * `clients` sockets emit join_showtime as fast as they can for `durationMs` (random unknown ids and real ones,
 * without waiting for answers) while a probe asks /api/health every 100 ms.
 */
export async function joinFlood(opts: {
  url: string;
  showtimeIds: string[];
  clients: number;
  durationMs: number;
  rss: () => number | null;
}): Promise<FloodReport> {
  const sockets = Array.from({ length: opts.clients }, () => client(opts.url));
  await Promise.all(sockets.map(connected));
  let disconnected = 0;
  for (const s of sockets) {
    s.once('disconnect', (reason) => {
      if (reason === 'io server disconnect') disconnected++;
    });
  }
  const rssBefore = opts.rss();
  let rssPeak = rssBefore;
  const health = probeHealth(opts.url);
  let joinsSent = 0;
  const started = Date.now();
  while (Date.now() - started < opts.durationMs) {
    for (const s of sockets) {
      if (!s.connected) continue;
      // About a thousand joins per client per tick: thousands per second in all.
      for (let i = 0; i < 200; i++) {
        const id = i % 4 === 0 ? opts.showtimeIds[i % opts.showtimeIds.length]! : randomUUID();
        s.emit(SOCKET_EVENTS.joinShowtime, id);
        joinsSent++;
      }
    }
    const rss = opts.rss();
    if (rss !== null && (rssPeak === null || rss > rssPeak)) rssPeak = rss;
    await sleep(50);
  }
  const probe = await health.stop();
  for (const s of sockets) s.disconnect();

  const polite = client(opts.url);
  let politeJoinWorked = false;
  try {
    await connected(polite);
    const ack = (await polite
      .timeout(10_000)
      .emitWithAck(SOCKET_EVENTS.joinShowtime, opts.showtimeIds[0])) as {
      ok: boolean;
    };
    politeJoinWorked = ack.ok === true;
  } catch {
    politeJoinWorked = false;
  } finally {
    polite.disconnect();
  }
  return {
    clients: opts.clients,
    joinsSent,
    durationMs: Date.now() - started,
    disconnected,
    health: probe,
    healthP50Ms: Math.round(percentile(probe.latenciesMs, 50)),
    healthMaxMs: Math.round(Math.max(0, ...probe.latenciesMs)),
    rssBefore,
    rssPeak,
    politeJoinWorked,
  };
}

export interface SlowReaderReport {
  clients: number;
  updatesSent: number;
  /** Connections the server still had open at the end (when it can be asked), of clients + 1. */
  openOnServerAfter: number | null;
  rssBefore: number | null;
  rssPeak: number | null;
  health: HealthProbe;
  healthMaxMs: number;
  /** A reading client in the same room kept getting updates. */
  readerKeptUp: boolean;
}

/**
 * `clients` sockets join the showtime and then never read again, while `update()` makes seat changes for
 * `durationMs`; a normal client in the same room must keep receiving them and the server's memory stay bounded.
 */
export async function slowReaders(opts: {
  url: string;
  showtimeId: string;
  clients: number;
  durationMs: number;
  update: () => Promise<void>;
  rss: () => number | null;
  openOnServer?: () => number;
}): Promise<SlowReaderReport> {
  const sockets = Array.from({ length: opts.clients }, () => client(opts.url));
  await Promise.all(sockets.map(connected));
  for (const s of sockets) {
    await s.timeout(5000).emitWithAck(SOCKET_EVENTS.joinShowtime, opts.showtimeId);
    stopReading(s);
  }
  const reader = client(opts.url);
  await connected(reader);
  await reader.timeout(5000).emitWithAck(SOCKET_EVENTS.joinShowtime, opts.showtimeId);
  let received = 0;
  reader.on(SOCKET_EVENTS.seatsUpdate, () => received++);

  const rssBefore = opts.rss();
  let rssPeak = rssBefore;
  const health = probeHealth(opts.url);
  let updatesSent = 0;
  const started = Date.now();
  while (Date.now() - started < opts.durationMs) {
    await opts.update();
    updatesSent++;
    if (updatesSent % 20 === 0) {
      const rss = opts.rss();
      if (rss !== null && (rssPeak === null || rss > rssPeak)) rssPeak = rss;
      await sleep(1);
    }
  }
  await sleep(500);
  const probe = await health.stop();
  const openOnServerAfter = opts.openOnServer?.() ?? null;
  const readerKeptUp = received > 0 && reader.connected;
  reader.disconnect();
  for (const s of sockets) s.disconnect();
  return {
    clients: opts.clients,
    updatesSent,
    openOnServerAfter,
    rssBefore,
    rssPeak,
    health: probe,
    healthMaxMs: Math.round(Math.max(0, ...probe.latenciesMs)),
    readerKeptUp,
  };
}
