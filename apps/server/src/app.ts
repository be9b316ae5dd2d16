import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { validatorCompiler } from './validation.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { authPlugin } from './plugins/auth.ts';
import { dbPlugin } from './plugins/db.ts';
import { answerClientError, errorsPlugin } from './plugins/errors.ts';
import { i18nPlugin, languageOf, translateMessage } from './i18n.ts';
import { corsPlugin } from './plugins/cors.ts';
import { eventsPlugin } from './plugins/events.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { redisPlugin } from './plugins/redis.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { webPlugin } from './plugins/web.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { requestIdMixin, requestIdOf, requestIdPlugin } from './request-id.ts';
import { lazyChildLogger } from './request-logger.ts';
import {
  LOG_HOOKS,
  LOG_REDACT_PATHS,
  logSerializers,
  securityPlugin,
  swaggerCsp,
} from './plugins/security.ts';
import { socketGuardPlugin } from './plugins/socket-guard.ts';
import { embeddedMaintenance } from './plugins/embedded-maintenance.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { accountsHousekeeping } from './modules/accounts/housekeeping.ts';
import { hallsRoutes } from './modules/halls/halls.routes.ts';
import { moviesRoutes } from './modules/movies/movies.routes.ts';
import { showtimesRoutes } from './modules/showtimes/showtimes.routes.ts';
import { seatingRoutes } from './modules/seating/seating.routes.ts';
import { seatingSocket } from './modules/seating/seating.socket.ts';
import { seatMapCachePlugin } from './modules/seating/seat-map-cache.ts';
import { seatEvents } from './modules/seating/seat-events.ts';
import { bestSeatsPlugin } from './modules/seating/best-seats.ts';
import { checkinRoutes } from './modules/checkin/checkin.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { giftCardsRoutes } from './modules/gift-cards/gift-cards.routes.ts';
import { taxesRoutes } from './modules/taxes/taxes.routes.ts';
import { receiptsRoutes } from './modules/orders/receipts.routes.ts';
import { pricingRoutes } from './modules/pricing/pricing.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { filmHireRoutes } from './modules/film-hire/film-hire.routes.ts';
import { boxOfficeRoutes } from './modules/box-office/box-office.routes.ts';
import { guestOrdersRoutes } from './modules/box-office/guest-orders.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { paymentProvidersPlugin } from './modules/payments/providers/registry.ts';
import { paymentEvents } from './modules/payments/payment-events.ts';
import { ticketsRoutes } from './modules/tickets/tickets.routes.ts';
import { backupRoutes } from './modules/backup/backup.routes.ts';
import { mailRoutes } from './modules/mail/mail.routes.ts';
import { mailPlugin } from './modules/mail/mail.plugin.ts';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.ts';
import { waitlistPlugin } from './modules/waitlist/waitlist.plugin.ts';
import { concessionsRoutes } from './modules/concessions/concessions.routes.ts';
import { kitchenPlugin } from './modules/concessions/kitchen.plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface BuildOptions {
  /** An already opened database (tests share one per file); otherwise the configured one is opened. */
  database?: Database;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

/** The whole application as one Fastify plugin tree; server.ts listens, tests inject. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      serializers: logSerializers,
      hooks: LOG_HOOKS,
      mixin: requestIdMixin,
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // Our own check of X-Request-Id (fastify would take any value): see request-id.ts.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Each request's logger is made when it first writes a line (most never do at LOG_LEVEL=warn).
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 1024 * 1024,
    // Forwarded-for headers are believed only from as many proxies as configured: otherwise any client could
    // pick its own address and slip past the per-address limits.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    clientErrorHandler: answerClientError,
    // A URL fastify cannot even decode (bad percent-encoding) gets the API's own error shape, not fastify's.
    // It comes before the request has its language, so the language is read off the header here.
    frameworkErrors: (error, request, reply) => {
      const badUrl = error.code === 'FST_ERR_BAD_URL';
      const body = {
        error: translateMessage(
          badUrl ? 'The address is not valid (bad percent-encoding)' : 'Bad request',
          languageOf(request.headers['accept-language']),
        ),
        code: 'bad_request',
      };
      void (reply as FastifyReply).code(400).send(body);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config.dbTimeouts,
    }));
  await app.register(requestIdPlugin);
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(corsPlugin);
  await app.register(dbPlugin, { database });
  await app.register(eventsPlugin);
  await app.register(metricsPlugin);
  await app.register(redisPlugin);
  await app.register(realtimePlugin, { redisUrl: config.redisUrl });
  await app.register(socketGuardPlugin);
  await app.register(seatMapCachePlugin);
  await app.register(bestSeatsPlugin);
  await app.register(seatEvents);
  await app.register(paymentProvidersPlugin);
  await app.register(paymentEvents);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(idempotencyPlugin);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Cinema ticketing API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: swaggerCsp,
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(settingsRoutes);
      await api.register(accountsRoutes);
      await api.register(hallsRoutes);
      await api.register(moviesRoutes);
      await api.register(showtimesRoutes);
      await api.register(seatingRoutes);
      await api.register(checkinRoutes);
      await api.register(paymentsRoutes);
      await api.register(pricingRoutes);
      await api.register(auditRoutes);
      await api.register(reportsRoutes);
      await api.register(boxOfficeRoutes);
      await api.register(guestOrdersRoutes);
      await api.register(giftCardsRoutes);
      await api.register(taxesRoutes);
      await api.register(receiptsRoutes);
      await api.register(usersRoutes);
      await api.register(ticketsRoutes);
      await api.register(backupRoutes);
      await api.register(mailRoutes);
      await api.register(waitlistRoutes);
      await api.register(concessionsRoutes);
      await api.register(filmHireRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(seatingSocket);
  await app.register(embeddedMaintenance);
  await app.register(accountsHousekeeping);
  await app.register(mailPlugin);
  await app.register(waitlistPlugin);
  await app.register(kitchenPlugin);
  await app.register(webPlugin, { dist: config.webDist });
  return app;
}
