import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyRateLimit, { type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit';
import type { RedisCommands } from './redis.ts';

/**
 * A request-rate limit counted per signed-in user, checked after the sign-in check (the route's `onRequest`) and
 * before the body is validated: an anonymous flood from the venue's address never uses up a staff member's budget,
 * and a customer on a busy network is not blocked by their neighbours (DESIGN §6.1). Use it inline in a route's
 * config: `config: { rateLimit: perUser(60, '1 minute') }`.
 */
export function perUser(max: number, timeWindow: string): RateLimitOptions {
  return {
    max,
    timeWindow,
    hook: 'preValidation',
    keyGenerator: (request: FastifyRequest) =>
      request.user ? `user:${request.user.id}` : `address:${request.ip}`,
  };
}

// INCR with the window as the key's life: the same counting as @fastify/rate-limit's own Redis store.
const INCR = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

type Done = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * A rate-limit store on the node-redis client (@fastify/rate-limit's own Redis store wants ioredis): every process
 * counts against one budget. A failing Redis lets the request through (`skipOnError`), as an outage must not lock
 * every customer out.
 */
function redisStore(client: RedisCommands) {
  return class SharedBudget implements FastifyRateLimitStore {
    constructor(
      _params: unknown,
      private readonly prefix = 'cinema:rate:',
    ) {}

    incr(key: string, done: Done, timeWindow: number) {
      client
        .eval(INCR, { keys: [this.prefix + key], arguments: [String(timeWindow)] })
        .then((reply) => {
          const [current, ttl] = reply as [number, number];
          done(null, { current, ttl: Math.max(ttl, 0) });
        })
        .catch((err: Error) => done(err));
    }

    // The plugin hands each route's merged options here, with the route as `routeInfo` (its typings say otherwise).
    child(options: Parameters<FastifyRateLimitStore['child']>[0]) {
      const { method, url } = (options as unknown as { routeInfo: { method: string; url: string } })
        .routeInfo;
      return new SharedBudget(options, `${this.prefix}${method}${url}:`);
    }
  };
}

/**
 * @fastify/rate-limit for the routes that state a limit (`config.rateLimit`, always inline in the route). Counted in
 * Redis when REDIS_URL is set (one budget for every process), else in this process; RATE_LIMIT=off lets every
 * request through. Client addresses are the ones after TRUST_PROXY (`request.ip`).
 */
export const rateLimitPlugin = fp(
  async function rateLimitPlugin(app: FastifyInstance) {
    await app.register(fastifyRateLimit, {
      global: false,
      allowList: app.config.rateLimit ? undefined : () => true,
      ...(app.redis && { store: redisStore(app.redis), skipOnError: true }),
    });
  },
  { name: 'rate-limit', dependencies: ['redis'] },
);
