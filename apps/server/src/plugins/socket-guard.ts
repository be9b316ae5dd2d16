import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import proxyAddr from '@fastify/proxy-addr';
import type { Socket } from 'socket.io';
import type { RedisCommands } from './redis.ts';
import { socketLanguage, translateMessage } from '../i18n.ts';

/**
 * Limits that keep one client from starving the others. A real seat map emits a join when it opens and after a
 * reconnect, so a burst of 10 events and 2 more a second is far above any honest use.
 */
export const SOCKET_LIMITS = {
  /** Events a socket may send at once… */
  burst: 10,
  /** …and per second after that. */
  perSecond: 2,
  /** Events dropped for being over the limit before the socket is disconnected. */
  dropsBeforeDisconnect: 50,
  /** A client this far behind on reading its updates is cut off (it reconnects and reloads the map). */
  maxBacklogBytes: 1024 * 1024,
  maxBacklogPackets: 500,
  /** Open sockets per client address (lifted with RATE_LIMIT=off, as benchmarks open many from one host). */
  maxSocketsPerAddress: 100,
  checkBacklogEveryMs: 250,
} as const;

interface EngineConnection {
  writeBuffer?: unknown[];
  transport?: { name?: string; socket?: { bufferedAmount?: number; terminate?: () => void } };
  close(discard?: boolean): void;
}

/** What a socket has not yet been able to send: engine.io's queued packets and the WebSocket's buffered bytes. */
function backlog(socket: Socket): { packets: number; bytes: number } {
  const conn = socket.conn as unknown as EngineConnection;
  return { packets: conn.writeBuffer?.length ?? 0, bytes: conn.transport?.socket?.bufferedAmount ?? 0 };
}

/** Drops the connection at once, with whatever it had queued (a WebSocket close handshake would wait on it). */
function cutOff(socket: Socket) {
  const conn = socket.conn as unknown as EngineConnection;
  const ws = conn.transport?.socket;
  if (conn.transport?.name === 'websocket' && typeof ws?.terminate === 'function') ws.terminate();
  else conn.close(true);
}

/** The client's address as HTTP requests see it: after as many trusted proxies as TRUST_PROXY says. */
export function socketClientAddress(request: IncomingMessage, trustProxyHops: number): string {
  return proxyAddr(request, (_address, hop) => hop < trustProxyHops);
}

/** Open sockets per client address: counted here, or across every process through Redis. */
interface AddressCounts {
  /** Counts the socket in if the address has room; false when it has not. */
  open(address: string, socketId: string): Promise<boolean>;
  close(address: string, socketId: string): void;
  stop?(): void;
}

function localCounts(max: number): AddressCounts {
  const perAddress = new Map<string, number>();
  return {
    async open(address) {
      const open = perAddress.get(address) ?? 0;
      if (open >= max) return false;
      perAddress.set(address, open + 1);
      return true;
    },
    close(address) {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    },
  };
}

/** How long a process's claim on a socket lasts without a heartbeat: a crashed process's sockets drop out. */
const CLAIM_MS = 60_000;
const HEARTBEAT_MS = 20_000;
const countKey = (address: string) => `cinema:sockets:${address}`;
// A sorted set per address: one member per open socket, scored by when its claim runs out.
const OPEN = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * One budget of sockets per address for every process: each open socket is a member of its address's sorted set in
 * Redis, renewed by a heartbeat; a process that dies stops renewing and its sockets leave the count within a
 * minute. While Redis is away, new sockets are counted in this process instead.
 */
function sharedCounts(redis: RedisCommands, max: number, log: FastifyBaseLogger): AddressCounts {
  const processId = randomUUID();
  const local = localCounts(max);
  const mine = new Map<string, Map<string, 'shared' | 'local'>>();
  const member = (socketId: string) => `${processId}:${socketId}`;
  const heartbeat = setInterval(() => {
    const until = Date.now() + CLAIM_MS;
    for (const [address, sockets] of mine) {
      const shared = [...sockets].filter(([, where]) => where === 'shared').map(([id]) => member(id));
      if (shared.length === 0) continue;
      redis
        .zAdd(
          countKey(address),
          shared.map((value) => ({ score: until, value })),
          { XX: true },
        )
        .catch(() => undefined);
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const remember = (address: string, socketId: string, where: 'shared' | 'local') => {
    const sockets = mine.get(address) ?? new Map<string, 'shared' | 'local'>();
    sockets.set(socketId, where);
    mine.set(address, sockets);
  };
  return {
    async open(address, socketId) {
      const now = Date.now();
      try {
        const admitted = await redis.eval(OPEN, {
          keys: [countKey(address)],
          arguments: [
            String(now),
            String(max),
            String(now + CLAIM_MS),
            member(socketId),
            String(2 * CLAIM_MS),
          ],
        });
        if (admitted !== 1) return false;
        remember(address, socketId, 'shared');
        return true;
      } catch (err) {
        log.debug({ err }, 'socket count in Redis failed; counting in this process');
        if (!(await local.open(address, socketId))) return false;
        remember(address, socketId, 'local');
        return true;
      }
    },
    close(address, socketId) {
      const sockets = mine.get(address);
      const where = sockets?.get(socketId);
      sockets?.delete(socketId);
      if (sockets?.size === 0) mine.delete(address);
      if (where === 'local') local.close(address, socketId);
      else if (where === 'shared') redis.zRem(countKey(address), member(socketId)).catch(() => undefined);
    },
    stop: () => clearInterval(heartbeat),
  };
}

/**
 * Socket abuse guards: a token bucket per socket over every incoming event (over-limit events are dropped and
 * acknowledged with an error; a socket that keeps flooding is disconnected), a cap on sockets per client address
 * (the address after TRUST_PROXY, as for HTTP; one budget for every process with REDIS_URL), and a watch that cuts
 * off clients that stopped reading, before their backlog grows the server's memory.
 */
export const socketGuardPlugin = fp(
  async function socketGuardPlugin(app: FastifyInstance) {
    const { io } = app.realtime;
    const max = SOCKET_LIMITS.maxSocketsPerAddress;
    const counts = app.redis ? sharedCounts(app.redis, max, app.log) : localCounts(max);
    app.addHook('onClose', async () => counts.stop?.());

    io.use((socket, next) => {
      if (!app.config.rateLimit) return next();
      const address = socketClientAddress(socket.request, app.config.trustProxyHops);
      counts.open(address, socket.id).then(
        (admitted) => {
          if (!admitted) return next(new Error('Too many connections'));
          socket.once('disconnect', () => counts.close(address, socket.id));
          next();
        },
        (err: unknown) => next(err as Error),
      );
    });

    io.on('connection', (socket) => {
      let tokens: number = SOCKET_LIMITS.burst;
      let refilledAt = Date.now();
      let dropped = 0;
      socket.use((packet, next) => {
        const now = Date.now();
        tokens = Math.min(
          SOCKET_LIMITS.burst,
          tokens + ((now - refilledAt) / 1000) * SOCKET_LIMITS.perSecond,
        );
        refilledAt = now;
        if (tokens >= 1) {
          tokens -= 1;
          return next();
        }
        dropped++;
        const ack = packet[packet.length - 1];
        if (typeof ack === 'function')
          ack({
            ok: false,
            error: translateMessage('Too many requests, please slow down', socketLanguage(socket)),
          });
        if (dropped >= SOCKET_LIMITS.dropsBeforeDisconnect) {
          app.log.warn({ address: socket.handshake.address, dropped }, 'socket disconnected for flooding');
          socket.disconnect(true);
        }
      });
    });

    const watch = setInterval(() => {
      for (const socket of io.of('/').sockets.values()) {
        const { packets, bytes } = backlog(socket);
        if (packets > SOCKET_LIMITS.maxBacklogPackets || bytes > SOCKET_LIMITS.maxBacklogBytes) {
          app.log.warn({ address: socket.handshake.address, packets, bytes }, 'socket cut off: not reading');
          cutOff(socket);
        }
      }
    }, SOCKET_LIMITS.checkBacklogEveryMs);
    watch.unref();
    app.addHook('onClose', async () => clearInterval(watch));
  },
  { name: 'socket-guard', dependencies: ['realtime', 'redis'] },
);
