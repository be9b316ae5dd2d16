import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { SOCKET_EVENTS, type SeatsUpdate } from '@cinema/contract';

export interface Realtime {
  io: Server;
  /** Sends `seats_update` to everyone watching the showtime, on every server process. */
  broadcastSeats(update: SeatsUpdate): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export const showtimeRoom = (showtimeId: string) => `showtime:${showtimeId}`;

/** Socket.IO on the same HTTP server; with a Redis URL, broadcasts cross server processes. */
export const realtimePlugin = fp(
  async function realtimePlugin(app: FastifyInstance, opts: { redisUrl?: string }) {
    const io = new Server(app.server, {
      serveClient: false,
      transports: ['websocket', 'polling'],
      maxHttpBufferSize: 16 * 1024,
      // Our own origin, and the third-party clients' of CORS_ORIGINS.
      cors: { origin: app.config.corsOrigins.length > 0 ? app.config.corsOrigins : false },
    });
    const redisClients: { quit(): Promise<unknown> }[] = [];
    if (opts.redisUrl) {
      // Loaded only when configured: a server on its own does not carry the Redis client in memory.
      const [{ createClient }, { createAdapter }] = await Promise.all([
        import('redis'),
        import('@socket.io/redis-adapter'),
      ]);
      const pub = createClient({ url: opts.redisUrl });
      const sub = pub.duplicate();
      pub.on('error', (err) => app.log.error({ err }, 'redis publisher error'));
      sub.on('error', (err) => app.log.error({ err }, 'redis subscriber error'));
      await Promise.all([pub.connect(), sub.connect()]);
      io.adapter(createAdapter(pub, sub));
      redisClients.push(pub, sub);
    }
    app.decorate('realtime', {
      io,
      broadcastSeats(update: SeatsUpdate) {
        if (update.seats.length === 0) return;
        io.to(showtimeRoom(update.showtimeId)).emit(SOCKET_EVENTS.seatsUpdate, update);
      },
    });
    app.addHook('preClose', async () => {
      io.local.disconnectSockets(true);
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all(redisClients.map((c) => c.quit().catch(() => undefined)));
    });
  },
  { name: 'realtime' },
);
