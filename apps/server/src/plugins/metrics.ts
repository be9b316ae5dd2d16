import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * GET /metrics in Prometheus's text format (decision 025), when METRICS=on or METRICS_TOKEN is set; otherwise
 * nothing is registered and the address is a 404. Requests are counted by route pattern (never the raw URL, whose
 * ids would make a series per booking), the domain's own figures by a hook on the route that did them or by
 * subscribing to the domain events. Each process counts its own (with WORKERS > 1, one scrape sees one worker).
 */
export const metricsPlugin = fp(
  async function metricsPlugin(app: FastifyInstance) {
    const { enabled, token } = app.config.metrics;
    if (!enabled) {
      // A 404 of its own: the web app's fallback would otherwise answer /metrics with its page.
      app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
        reply.status(404).send({ error: 'Metrics are off (METRICS=on or METRICS_TOKEN)', code: 'not_found' }),
      );
      return;
    }

    const register = new Registry();
    collectDefaultMetrics({ register });
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [register],
    });
    const latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [register],
    });
    const holds = new Counter({
      name: 'cinema_holds_total',
      help: 'Hold requests (seats chosen or best available) by result: won, or refused with the reason',
      labelNames: ['result', 'reason'] as const,
      registers: [register],
    });
    const checkouts = new Counter({
      name: 'cinema_checkouts_started_total',
      help: 'Checkout sessions started',
      registers: [register],
    });
    const payments = new Counter({
      name: 'cinema_payments_fulfilled_total',
      help: 'Payments fulfilled: online checkout sessions paid, and box office sales',
      labelNames: ['channel'] as const,
      registers: [register],
    });
    const refunds = new Counter({
      name: 'cinema_refunds_total',
      help: 'Refunds in seats: by staff, automatic (a paid seat lost after its hold expired), or an exchange to a cheaper seat',
      labelNames: ['kind'] as const,
      registers: [register],
    });
    const moved = new Counter({
      name: 'cinema_tickets_moved_total',
      help: 'Tickets moved to another seat by an exchange',
      registers: [register],
    });
    const checkins = new Counter({
      name: 'cinema_checkins_total',
      help: 'Ticket scans at the door by result: admitted, already checked in, or refused with the reason',
      labelNames: ['result'] as const,
      registers: [register],
    });
    const sweeps = new Counter({
      name: 'cinema_sweeper_runs_total',
      help: 'Runs of the expired-hold sweeper',
      registers: [register],
    });
    const expired = new Counter({
      name: 'cinema_holds_expired_total',
      help: 'Holds the sweeper expired',
      registers: [register],
    });
    const waitlist = new Counter({
      name: 'cinema_waitlist_total',
      help: 'Waiting lists (DESIGN §7.6) by step: joined, offered (seats held for the next in line), taken (paid), passed (run out, released or declined)',
      labelNames: ['step'] as const,
      registers: [register],
    });
    const pool = app.database.pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections (node-postgres) by state: total, idle, waiting (callers queued for one)',
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        if (!pool) return; // the embedded engine has no pool: one connection inside the process
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });

    // Orders are counted from their events (decision 034), once each, after commit.
    app.events.subscribe('orderPaid', ({ channel }) => payments.inc({ channel }));
    app.events.subscribe('orderRefunded', ({ kind, seats }) => refunds.inc({ kind }, seats));
    app.events.subscribe('ticketsMoved', ({ moves }) => moved.inc(moves.length));
    app.events.subscribe('waitlistJoined', () => waitlist.inc({ step: 'joined' }));
    app.events.subscribe('waitlistOffered', () => waitlist.inc({ step: 'offered' }));
    app.events.subscribe('waitlistOfferSettled', ({ outcome }) =>
      waitlist.inc({ step: outcome === 'taken' ? 'taken' : 'passed' }),
    );
    app.events.subscribe('holdsSwept', (sweep) => {
      sweeps.inc();
      expired.inc(sweep.expired);
    });

    /** What a route's answer means to the domain counters (route patterns as fastify spells them). */
    type Count = (ok: boolean, body: Record<string, unknown> | null, request: FastifyRequest) => void;
    const domain: Record<string, Count> = {
      'POST /api/showtimes/:id/hold': (ok, body) => countHold(ok, body),
      'POST /api/showtimes/:id/best-available': (ok, body, request) => {
        // Without `hold: true` it only suggests seats: no hold won or refused.
        if ((request.body as { hold?: unknown } | undefined)?.hold === true) countHold(ok, body);
      },
      'POST /api/pay/checkout': (ok) => ok && checkouts.inc(),
      'POST /api/admin/scan': (ok, body) =>
        checkins.inc({
          result: ok ? (body?.alreadyCheckedIn ? 'already_checked_in' : 'admitted') : codeOf(body),
        }),
    };
    const countHold = (ok: boolean, body: Record<string, unknown> | null) => {
      if (ok) holds.inc({ result: 'won', reason: '' });
      else holds.inc({ result: 'refused', reason: codeOf(body) });
    };

    // The body is only looked at for the few domain routes, and only after it has been serialized.
    app.addHook('onSend', async (request, reply, payload) => {
      const count = domain[`${request.method} ${request.routeOptions.url ?? ''}`];
      if (count && reply.statusCode !== 401 && reply.statusCode !== 403 && reply.statusCode !== 429) {
        count(reply.statusCode < 300, parse(payload), request);
      }
      return payload;
    });
    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? '(unmatched)',
        status: `${Math.floor(reply.statusCode / 100)}xx`,
      };
      requests.inc(labels);
      latency.observe(labels, reply.elapsedTime / 1000);
    });

    const expected = token ? createHash('sha256').update(`Bearer ${token}`).digest() : null;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (expected) {
        const given = createHash('sha256')
          .update(request.headers.authorization ?? '')
          .digest();
        if (!timingSafeEqual(given, expected)) {
          return reply
            .code(401)
            .header('www-authenticate', 'Bearer')
            .send({ error: 'The metrics need the metrics token', code: 'unauthorized' });
        }
      }
      const text = await register.metrics();
      return reply
        .header('content-type', register.contentType)
        .header('cache-control', 'no-store')
        .send(text);
    });
  },
  { name: 'metrics', dependencies: ['db', 'events'] },
);

function parse(payload: unknown): Record<string, unknown> | null {
  if (typeof payload !== 'string') return null;
  try {
    const body: unknown = JSON.parse(payload);
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function codeOf(body: Record<string, unknown> | null): string {
  return typeof body?.code === 'string' ? body.code : 'unknown';
}
