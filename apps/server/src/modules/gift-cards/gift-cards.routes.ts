import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorSchema,
  GiftCardBalanceSchema,
  GiftCardCodeParamsSchema,
  GiftCardLedgerSchema,
  GiftCardLiabilityQuerySchema,
  GiftCardLiabilitySchema,
  GiftCardSearchQuerySchema,
  GiftCardSearchResponseSchema,
  VoidGiftCardBodySchema,
  formatGiftCardCode,
  type GiftCardLiability,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { cardLedger, findCards, liabilityCsv, liabilityOn } from './gift-cards-admin.service.ts';
import { cardBalance, voidCardByStaff } from './gift-cards.service.ts';

/**
 * Balance lookups are limited per client address and, for a signed-in caller, per account too: a code has 80 random
 * bits, and nobody gets to try many (DESIGN §7.3).
 */
const LOOKUPS_PER_MINUTE = 20;

/** Gift cards for customers: what a card holds (DESIGN §7.3, decision 045). */
export const giftCardsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The route's own limit counts per address; this second budget counts per account (a request runs only one of
  // the plugin's hooks, so it is applied by hand).
  const perAccount = app.createRateLimit({
    max: LOOKUPS_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request) => `gift-card-lookup:user:${request.user?.id ?? 'none'}`,
  });
  app.get(
    '/gift-cards/:code',
    {
      // Signed in or not: a token, when sent, counts the lookup against its account as well.
      onRequest: async (request) => {
        const user = await app.userIf(request, () => true);
        if (user) request.user = user;
      },
      preHandler: async (request) => {
        if (!request.user) return;
        const limit = await perAccount(request);
        if (!limit.isAllowed && limit.isExceeded) {
          throw Object.assign(new Error('Too many requests, please try again later'), { statusCode: 429 });
        }
      },
      config: { rateLimit: { max: LOOKUPS_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        tags: ['gift cards'],
        summary:
          "A gift card's balance, currency and expiry by its code (dashes, spaces and case do not matter)",
        description: 'No sign-in needed. Unknown code: 404. Limited per address and per account.',
        params: GiftCardCodeParamsSchema,
        response: { 200: GiftCardBalanceSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return cardBalance(app.database.db, request.params.code);
    },
  );

  // Staff (DESIGN §7.3): find a card, read its ledger; admins void one (audited) and read the liability.
  app.get(
    '/admin/gift-cards',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['admin', 'gift cards'],
        summary: 'Gift cards by code, or those sent to or bought by an email (newest first, 50 at most)',
        security: [{ bearer: [] }],
        querystring: GiftCardSearchQuerySchema,
        response: { 200: GiftCardSearchResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => findCards(app.database.db, request.query.q),
  );

  app.get(
    '/admin/gift-cards/liability',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin', 'gift cards'],
        summary:
          'What the gift cards held at the end of a day (cinema clocks), per card and in all: JSON, or CSV with format=csv',
        security: [{ bearer: [] }],
        querystring: GiftCardLiabilityQuerySchema,
        response: { 200: GiftCardLiabilitySchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      const report = await liabilityOn(app.database.db, app.config, request.query.date);
      if (request.query.format !== 'csv') return report;
      return reply
        .header('content-disposition', `attachment; filename="gift-card-liability-${report.date}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(liabilityCsv(report) as unknown as GiftCardLiability);
    },
  );

  app.get(
    '/admin/gift-cards/:code',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['admin', 'gift cards'],
        summary: 'A gift card and its ledger: sold, redeemed, released, refunded, voided, who and when',
        security: [{ bearer: [] }],
        params: GiftCardCodeParamsSchema,
        response: {
          200: GiftCardLedgerSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request) => cardLedger(app.database.db, request.params.code),
  );

  app.post(
    '/admin/gift-cards/:code/void',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin', 'gift cards'],
        summary: 'Void a gift card: its balance goes to zero (audited); 409 when it is void already',
        security: [{ bearer: [] }],
        params: GiftCardCodeParamsSchema,
        body: VoidGiftCardBodySchema,
        response: {
          200: GiftCardLedgerSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const reason = request.body.reason?.trim() || null;
      await app.database.db.transaction(async (tx) => {
        const { before } = await voidCardByStaff(tx, request.params.code, { userId: actor.id, reason });
        await recordAudit(tx, actor, {
          action: 'gift_card.void',
          subjectType: 'gift_card',
          subjectId: formatGiftCardCode(before.code),
          before: { status: before.status, balanceCents: before.balanceCents },
          after: { status: 'VOIDED', balanceCents: 0, reason },
        });
      });
      return cardLedger(app.database.db, request.params.code);
    },
  );
};
