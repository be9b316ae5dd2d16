import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Socket } from 'socket.io';

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

/**
 * Socket abuse guards: a token bucket per socket over every incoming event (over-limit events are dropped and
 * acknowledged with an error; a socket that keeps flooding is disconnected), a cap on sockets per address, and
 * a watch that cuts off clients that stopped reading, before their backlog grows the server's memory.
 */
export const socketGuardPlugin = fp(
  async function socketGuardPlugin(app: FastifyInstance) {
    const { io } = app.realtime;
    const perAddress = new Map<string, number>();

    io.use((socket, next) => {
      if (!app.config.rateLimit) return next();
      const address = socket.handshake.address;
      const open = perAddress.get(address) ?? 0;
      if (open >= SOCKET_LIMITS.maxSocketsPerAddress) return next(new Error('Too many connections'));
      perAddress.set(address, open + 1);
      socket.once('disconnect', () => {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left <= 0) perAddress.delete(address);
        else perAddress.set(address, left);
      });
      next();
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
        if (typeof ack === 'function') ack({ ok: false, error: 'Too many requests, please slow down' });
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
  { name: 'socket-guard', dependencies: ['realtime'] },
);
