import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { createClient } from 'redis';

export type RedisCommands = ReturnType<typeof createClient>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * One Redis connection for small shared state (request-rate budgets, socket counts per address), or null without
     * REDIS_URL. Commands fail at once while Redis is away (no offline queue): every user of it has a local answer.
     */
    redis: RedisCommands | null;
  }
}

/** How long the start waits for Redis before going on without it (it keeps reconnecting in the background). */
export const CONNECT_WAIT_MS = 3000;

/**
 * How long a later Redis user waits for its own connection at start: not at all when this plugin's connection has
 * just waited in vain (the start waits once for a Redis that is away, not once per connection).
 */
export const connectWaitMs = (app: FastifyInstance) =>
  app.hasDecorator('redis') && app.redis && !app.redis.isReady ? 0 : CONNECT_WAIT_MS;

export const redisPlugin = fp(
  async function redisPlugin(app: FastifyInstance) {
    if (!app.config.redisUrl) {
      app.decorate('redis', null);
      return;
    }
    const { createClient } = await import('redis');
    const client: RedisCommands = createClient({
      url: app.config.redisUrl,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: CONNECT_WAIT_MS,
        reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000),
      },
    });
    let down = false;
    client.on('error', (err) => {
      // Once per outage, not once per reconnect attempt.
      if (!down)
        app.log.warn({ err }, 'redis (shared budgets) unreachable: limits are counted per process meanwhile');
      down = true;
    });
    client.on('ready', () => {
      if (down) app.log.warn('redis (shared budgets) is back');
      down = false;
    });
    const connected = client.connect().then(
      () => true,
      () => false,
    );
    const ready = await Promise.race([
      connected,
      new Promise((r) => setTimeout(() => r(false), CONNECT_WAIT_MS)),
    ]);
    if (!ready)
      app.log.warn(
        { redisUrl: app.config.redisUrl },
        'REDIS_URL did not answer: starting without it (limits per process, seat updates within this process) and trying again in the background',
      );
    app.decorate('redis', client);
    app.addHook('onClose', async () => {
      client.destroy();
    });
  },
  { name: 'redis' },
);
