import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatePriceCardBodySchema,
  CreatePromoCodeBodySchema,
  CreateTicketTypeBodySchema,
  ErrorSchema,
  IdParamsSchema,
  OkSchema,
  PriceCardSchema,
  PromoCodeSchema,
  ShowtimePricesSchema,
  TicketTypeSchema,
  UpdateTicketTypeBodySchema,
} from '@cinema/contract';
import {
  createPriceCard,
  createTicketType,
  deletePriceCard,
  deleteTicketType,
  listTicketTypes,
  loadPriceCards,
  presentCard,
  showtimePrices,
  updatePriceCard,
  updateTicketType,
} from './pricing.service.ts';
import { actorOf } from '../../plugins/auth.ts';
import { createPromoCode, deletePromoCode, listPromoCodes } from './promo.service.ts';

const admin = { tags: ['pricing'], security: [{ bearer: [] }] };
const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Ticket types, price cards and promo codes (staff), and a showtime's prices (everyone). */
export const pricingRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  app.get(
    '/showtimes/:id/prices',
    {
      schema: {
        tags: ['pricing'],
        summary: "A showtime's prices: each ticket type on each seat type, under the price card in force",
        params: IdParamsSchema,
        response: { 200: ShowtimePricesSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => showtimePrices(db, app.config, request.params.id),
  );

  app.get(
    '/admin/ticket-types',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Ticket types, in the order customers see them',
        response: { 200: z.array(TicketTypeSchema), ...adminErrors },
      },
    },
    async () => listTicketTypes(db),
  );
  app.post(
    '/admin/ticket-types',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a ticket type (excludedRatings: certificates of RATING_SYSTEM it is not sold for)',
        body: CreateTicketTypeBodySchema,
        response: { 201: TicketTypeSchema, ...adminErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createTicketType(db, actorOf(request), request.body, app.config.ratingSystem)),
  );
  app.put(
    '/admin/ticket-types/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Rename, reorder, (de)activate a ticket type, or change the certificates it is not sold for',
        params: IdParamsSchema,
        body: UpdateTicketTypeBodySchema,
        response: { 200: TicketTypeSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) =>
      updateTicketType(db, actorOf(request), request.params.id, request.body, app.config.ratingSystem),
  );
  app.delete(
    '/admin/ticket-types/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Delete a ticket type no price card uses (409 in_use)',
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      await deleteTicketType(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/admin/price-cards',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Price cards with their prices',
        response: { 200: z.array(PriceCardSchema), ...adminErrors },
      },
    },
    async () => (await loadPriceCards(db)).map(presentCard),
  );
  app.post(
    '/admin/price-cards',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary:
          'Add a price card: weekdays, a window of the day (cinema time) and prices per ticket type × seat type',
        body: CreatePriceCardBodySchema,
        response: { 201: PriceCardSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPriceCard(db, actorOf(request), request.body)),
  );
  app.put(
    '/admin/price-cards/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Replace a price card: name, weekdays, window and every price (open checkouts keep theirs)',
        params: IdParamsSchema,
        body: CreatePriceCardBodySchema,
        response: { 200: PriceCardSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => updatePriceCard(db, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/price-cards/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Delete a price card no showtime has chosen (409 in_use)',
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      await deletePriceCard(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/admin/promo-codes',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Promo codes, newest first, with their uses',
        response: { 200: z.array(PromoCodeSchema), ...adminErrors },
      },
    },
    async () => listPromoCodes(db),
  );
  app.post(
    '/admin/promo-codes',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a promo code (percent or fixed, dates, movie or showtime scope, caps)',
        body: CreatePromoCodeBodySchema,
        response: { 201: PromoCodeSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPromoCode(db, actorOf(request), request.body)),
  );
  app.delete(
    '/admin/promo-codes/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'End a promo code (deleted if unused, else deactivated)',
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema },
      },
    },
    async (request) => {
      await deletePromoCode(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
