import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CheckoutBodySchema,
  CheckoutErrorSchema,
  CheckoutResponseSchema,
  ErrorSchema,
  LookupQuerySchema,
  LookupResponseSchema,
} from '@cinema/contract';
import { rateLimit } from '../../app.ts';
import { badRequest } from '../../errors.ts';
import { localCheckoutRoutes } from './local-checkout.routes.ts';
import { handlePaymentWebhook, lookupCheckout, startCheckout } from './payments.service.ts';
import { loadStripeSdk } from './providers/stripe.ts';

const WebhookResponseSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  // With Stripe's keys, Stripe sessions can be paid or refunded (whichever provider new checkouts use).
  if (app.config.stripe.secretKey && app.config.stripe.webhookSecret) await loadStripeSdk();
  app.post(
    '/pay/checkout',
    {
      onRequest: app.requireUser,
      config: rateLimit(app, 30, '1 minute'),
      schema: {
        tags: ['payments'],
        summary: "Start paying for the caller's own live holds; the browser then goes to `url`",
        security: [{ bearer: [] }],
        body: CheckoutBodySchema,
        response: {
          200: CheckoutResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: CheckoutErrorSchema,
          409: CheckoutErrorSchema,
          429: ErrorSchema,
          502: ErrorSchema,
        },
      },
    },
    async (request) =>
      startCheckout(app, {
        userId: request.user!.id,
        email: request.user!.email,
        bookingIds: request.body.bookingIds,
      }),
  );

  app.get(
    '/pay/lookup',
    {
      // Owner only: the success page sends the stored token; a visitor gets 401, another customer 404.
      onRequest: app.requireUser,
      // The success page polls every 1.5 s for about 30 s.
      config: rateLimit(app, 120, '1 minute'),
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
    async (request) => lookupCheckout(app, request.user!.id, request.query.session_id),
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
        const { duplicate } = await handlePaymentWebhook(app, request.body, request.headers);
        return { received: true as const, duplicate };
      },
    );
  });

  await app.register(localCheckoutRoutes);
};
