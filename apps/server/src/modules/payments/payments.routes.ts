import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CheckoutBodySchema,
  CheckoutErrorSchema,
  CheckoutResponseSchema,
  ErrorSchema,
  LookupQuerySchema,
  LookupResponseSchema,
  OrderRefParamsSchema,
  OrderSchema,
  OrdersQuerySchema,
  OrdersResponseSchema,
  QuoteResponseSchema,
} from '@cinema/contract';
import { badRequest } from '../../errors.ts';
import { perUser } from '../../plugins/rate-limit.ts';
import { quoteCheckout, startCheckout } from './checkout.service.ts';
import { getMyOrder, listMyOrders } from '../orders/orders.service.ts';
import { localCheckoutRoutes } from './local-checkout.routes.ts';
import { lookupCheckout } from './lookup.service.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { handlePaymentWebhook } from './webhooks.service.ts';
import { askedLanguage, translateMessage } from '../../i18n.ts';
import { rememberLanguage } from '../accounts/accounts.service.ts';

const WebhookResponseSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: PaymentDeps = { ...app.deps, providers: app.paymentProviders };
  app.post(
    '/pay/checkout',
    {
      onRequest: app.requireUser,
      preHandler: app.idempotent,
      config: { rateLimit: perUser(30, '1 minute') },
      schema: {
        tags: ['payments'],
        summary:
          "Start paying for the caller's own live holds; the browser then goes to `url` (an Idempotency-Key header replays the first answer to retries)",
        security: [{ bearer: [] }],
        body: CheckoutBodySchema,
        response: {
          200: CheckoutResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: CheckoutErrorSchema,
          409: CheckoutErrorSchema,
          422: ErrorSchema,
          429: ErrorSchema,
          502: ErrorSchema,
        },
      },
    },
    async (request) => {
      // The order confirmation is written in the language the customer checks out in.
      const language = askedLanguage(request);
      if (language) await rememberLanguage(deps.db, request.user!.id, language);
      return startCheckout(deps, {
        ...request.body,
        userId: request.user!.id,
        email: request.user!.email,
        ...(language && { language }),
      });
    },
  );

  app.post(
    '/pay/quote',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(120, '1 minute') },
      schema: {
        tags: ['payments'],
        summary: 'What checkout would charge for these holds (ticket types, promo code), without starting it',
        security: [{ bearer: [] }],
        body: CheckoutBodySchema,
        response: {
          200: QuoteResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          404: CheckoutErrorSchema,
          409: CheckoutErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => {
      const quote = await quoteCheckout(deps, { ...request.body, userId: request.user!.id });
      // Why a code does not apply, in the customer's language.
      const reason = quote.promo && !quote.promo.applied ? quote.promo.reason : undefined;
      if (quote.promo && reason)
        quote.promo = { ...quote.promo, reason: translateMessage(reason, request.language) };
      return quote;
    },
  );

  app.get(
    '/me/orders',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['payments'],
        summary: "The caller's orders, newest first (20 a page)",
        security: [{ bearer: [] }],
        querystring: OrdersQuerySchema,
        response: { 200: OrdersResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => listMyOrders(app.database.db, request.user!.id, request.query.page),
  );

  app.get(
    '/me/orders/:ref',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['payments'],
        summary: "One of the caller's orders by its reference: lines, discount, total, refunds",
        security: [{ bearer: [] }],
        params: OrderRefParamsSchema,
        response: { 200: OrderSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => getMyOrder(app.database.db, request.user!.id, request.params.ref),
  );

  app.get(
    '/pay/lookup',
    {
      // Owner only: the success page sends the stored token; a visitor gets 401, another customer 404.
      onRequest: app.requireUser,
      // The success page polls every 1.5 s for about 30 s.
      config: { rateLimit: perUser(120, '1 minute') },
      schema: {
        tags: ['payments'],
        summary:
          'The outcome of a checkout session (ours or the provider’s id), fulfilling it if already paid',
        security: [{ bearer: [] }],
        querystring: LookupQuerySchema,
        response: {
          200: LookupResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          404: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => lookupCheckout(deps, request.user!.id, request.query.session_id),
  );

  // The webhook's signature covers the exact bytes sent, so this route alone keeps the body raw.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.post(
      '/pay/webhook',
      {
        schema: {
          tags: ['payments'],
          summary: "The payment provider's signed events (400 on a bad signature, nothing changed)",
          response: { 200: WebhookResponseSchema, 400: ErrorSchema },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body) || request.body.length === 0)
          throw badRequest('Empty webhook body');
        const { duplicate } = await handlePaymentWebhook(deps, request.body, request.headers);
        return { received: true as const, duplicate };
      },
    );
  });

  await app.register(localCheckoutRoutes, { deps });
};
