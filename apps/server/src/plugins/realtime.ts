import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { CONNECT_WAIT_MS, connectWaitMs } from './redis.ts';
import { SOCKET_EVENTS, type SeatsUpdate } from '@cinema/contract';

export interface Realtime {
  io: Server;
  /** Sends `seats_update` to everyone watching the showtime, on every server process. */
  broadcastSeats(update: SeatsUpdate): void;
  /** False while the Redis link between processes is down (always true without REDIS_URL). */
  linked(): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export const showtimeRoom = (showtimeId: string) => `showtime:${showtimeId}`;

/**
 * Socket.IO on the same HTTP server; with a Redis URL, broadcasts cross server processes.
 *
 * Redis going away stops no process and queues nothing: a broadcast still reaches this process's clients at once,
 * its copy for the other processes is dropped (the publisher has no offline queue), and once Redis is back every
 * client that may have missed something is told to read its seat map again (`seats_resync`) instead of getting a
 * late burst of stale deltas. The start waits a few seconds for Redis, then goes on without it.
 */
export const realtimePlugin = fp(
  async function realtimePlugin(app: FastifyInstance, opts: { redisUrl?: string }) {
    const io = new Server(app.server, {
      serveClient: false,
      transports: ['websocket', 'polling'],
      maxHttpBufferSize: 16 * 1024,
      // Our own origin, and the third-party clients' of CORS_ORIGINS.
      cors: { origin: app.config.corsOrigins.length > 0 ? app.config.corsOrigins : false },
    });
    const redisClients: { close(): Promise<unknown>; destroy(): void }[] = [];
    let linked = true;
    if (opts.redisUrl) {
      // Loaded only when configured: a server on its own does not carry the Redis client in memory.
      const [{ createClient }, { createAdapter }] = await Promise.all([
        import('redis'),
        import('@socket.io/redis-adapter'),
      ]);
      const pub = createClient({
        url: opts.redisUrl,
        // A publish while Redis is away fails at once instead of waiting in an unbounded queue.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: CONNECT_WAIT_MS,
          reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000),
        },
      });
      // The subscriber keeps its queue: it only ever holds the subscriptions, sent again on every reconnect.
      const sub = pub.duplicate({ disableOfflineQueue: false });
      let downSince: number | null = null;
      /** Broadcasts other processes did not get since the link went down. */
      let dropped = 0;
      let closing = false;
      app.addHook('preClose', async () => {
        closing = true;
      });
      const lost = (err: unknown) => {
        if (closing) return;
        linked = false;
        if (downSince !== null) return;
        downSince = Date.now();
        app.log.warn(
          { err, redisUrl: opts.redisUrl },
          'REDIS_URL unreachable: seat updates reach only the clients of this process until it is back',
        );
      };
      const back = () => {
        if (!pub.isReady || !sub.isReady) return;
        linked = true;
        if (downSince === null) return;
        app.log.warn(
          { downMs: Date.now() - downSince, dropped },
          'REDIS_URL is back: open seat maps read themselves again',
        );
        downSince = null;
        // This process's clients may have missed the others' updates; the others' clients missed ours.
        if (dropped > 0) io.emit(SOCKET_EVENTS.seatsResync);
        else io.local.emit(SOCKET_EVENTS.seatsResync);
        dropped = 0;
      };
      for (const client of [pub, sub]) {
        client.on('error', lost);
        client.on('end', () => lost(new Error('connection closed')));
        // Not inside the client's own 'ready' handling: it is still settling its connection then.
        client.on('ready', () => setTimeout(back, 50));
      }
      // The adapter publishes without waiting for the answer: a refused publish is noted here, never left unhandled.
      const publisher = new Proxy(pub, {
        get(target, prop, receiver) {
          if (prop === 'publish' || prop === 'PUBLISH') {
            return (...args: unknown[]) =>
              (Reflect.get(target, prop, target) as (...a: unknown[]) => Promise<unknown>)
                .apply(target, args)
                .catch((err: unknown) => {
                  dropped++;
                  lost(err);
                });
          }
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const subConnected = sub.connect();
      const connected = Promise.all([pub.connect(), subConnected]).then(
        () => true,
        () => false,
      );
      // node-redis (5.x) mishandles subscriptions sent from its offline queue: the first message on them fails to
      // decode and drops the connection. The adapter subscribes as it is created, so its subscriptions wait for the
      // first connection; after that the client subscribes again by itself on every reconnect.
      const subscriber = new Proxy(sub, {
        get(target, prop, receiver) {
          if (prop === 'subscribe' || prop === 'pSubscribe' || prop === 'sSubscribe') {
            const method = Reflect.get(target, prop, target) as (...a: unknown[]) => Promise<unknown>;
            return (...args: unknown[]) =>
              subConnected.then(() => method.apply(target, args)).catch((err: unknown) => lost(err));
          }
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const waitMs = connectWaitMs(app);
      const ready = await Promise.race([
        connected,
        new Promise<boolean>((r) => setTimeout(() => r(false), waitMs)),
      ]);
      if (!ready) lost(new Error(`no answer within ${waitMs} ms`));
      io.adapter(createAdapter(publisher, subscriber));
      redisClients.push(pub, sub);
    }
    app.decorate('realtime', {
      io,
      broadcastSeats(update: SeatsUpdate) {
        if (update.seats.length === 0) return;
        io.to(showtimeRoom(update.showtimeId)).emit(SOCKET_EVENTS.seatsUpdate, update);
      },
      linked: () => linked,
    });
    app.addHook('preClose', async () => {
      io.local.disconnectSockets(true);
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await Promise.all(
        redisClients.map((c) =>
          Promise.resolve()
            .then(() => c.close())
            .catch(() => c.destroy()),
        ),
      );
    });
  },
  { name: 'realtime' },
);
