import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema, FeesSchema, TaxesBodySchema, TaxesSchema } from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import { getFees, getTaxes, saveFees, saveTaxes } from './taxes.service.ts';

const admin = { tags: ['taxes'], security: [{ bearer: [] }] };
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Tax rates and mode, and the booking fees, at /admin/taxes (admins; DESIGN §7.4, §7.8). */
export const taxesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const defaultMode = app.config.taxMode;

  app.get(
    '/admin/taxes',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary:
          'The tax mode in force and the rates for tickets, food and drink (all, a category, a product) and fees',
        response: { 200: TaxesSchema, ...errors },
      },
    },
    async () => getTaxes(db, defaultMode),
  );
  app.put(
    '/admin/taxes',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Set the tax mode and replace every rate (orders already made keep theirs); audited',
        body: TaxesBodySchema,
        response: { 200: TaxesSchema, ...errors },
      },
    },
    async (request) => saveTaxes(db, actorOf(request), request.body, defaultMode),
  );
  app.get(
    '/admin/fees',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'The booking fees online and at the counter',
        response: { 200: FeesSchema, ...errors },
      },
    },
    async () => getFees(db),
  );
  app.put(
    '/admin/fees',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary:
          'Set the booking fees online and at the counter (per ticket, per order, exempt types, refundable); audited',
        body: FeesSchema,
        response: { 200: FeesSchema, ...errors },
      },
    },
    async (request) => saveFees(db, actorOf(request), request.body),
  );
};
