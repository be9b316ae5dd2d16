import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BoxOfficeErrorSchema,
  CounterQuoteSchema,
  CounterSaleBodySchema,
  ErrorSchema,
  ExchangeBodySchema,
  ExchangeResponseSchema,
  OrderRefParamsSchema,
  RefundBodySchema,
  RefundResponseSchema,
  StaffOrderSchema,
  StaffOrdersQuerySchema,
  StaffOrdersResponseSchema,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import type { PaymentDeps } from '../payments/payment-deps.ts';
import { counterSale, exchangeTickets, quoteCounterSale, refundOrder } from './money.service.ts';
import { getStaffOrder, searchOrders } from './staff-orders.service.ts';

/**
 * The box office (DESIGN §6.4): finding orders, refunds and exchanges (admins), and counter sales (staff and admins,
 * §6.5).
 */
export const boxOfficeRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: PaymentDeps = { ...app.deps, providers: app.paymentProviders };
  const common = { tags: ['box office'], security: [{ bearer: [] }] };

  app.get(
    '/admin/orders',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...common,
        summary: 'Orders, newest first, or those matching a reference or a customer’s email (20 a page)',
        querystring: StaffOrdersQuerySchema,
        response: { 200: StaffOrdersResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => searchOrders(app.database.db, request.query),
  );

  app.get(
    '/admin/orders/:ref',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...common,
        summary: 'One order as staff see it: customer, payment, tickets with their door state, refunds',
        params: OrderRefParamsSchema,
        response: {
          200: StaffOrderSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request) => getStaffOrder(app.database.db, request.params.ref),
  );

  app.post(
    '/admin/orders/:ref/refund',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...common,
        summary:
          'Refund chosen tickets, or the whole order: seats freed at once, money back through the provider',
        params: OrderRefParamsSchema,
        body: RefundBodySchema,
        response: {
          200: RefundResponseSchema,
          400: BoxOfficeErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: BoxOfficeErrorSchema,
        },
      },
    },
    async (request) => refundOrder(deps, actorOf(request), request.params.ref, request.body),
  );

  app.post(
    '/admin/orders/:ref/exchange',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...common,
        summary:
          'Move tickets to other seats or another showtime, all or none; the price difference is settled',
        params: OrderRefParamsSchema,
        body: ExchangeBodySchema,
        response: {
          200: ExchangeResponseSchema,
          400: BoxOfficeErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: BoxOfficeErrorSchema,
        },
      },
    },
    async (request) => exchangeTickets(deps, actorOf(request), request.params.ref, request.body),
  );

  app.post(
    '/admin/box-office/quote',
    {
      onRequest: app.requireStaff,
      schema: {
        ...common,
        summary: 'What a counter sale would charge (same body): total, booking fees and tax; nothing is sold',
        body: CounterSaleBodySchema,
        response: {
          200: CounterQuoteSchema,
          400: BoxOfficeErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: BoxOfficeErrorSchema,
        },
      },
    },
    async (request) => quoteCounterSale(deps, request.body),
  );
  app.post(
    '/admin/box-office/sales',
    {
      onRequest: app.requireStaff,
      schema: {
        ...common,
        summary:
          'Sell seats at the counter, paid in cash or by card (blocked seats too); idempotent by requestId',
        body: CounterSaleBodySchema,
        response: {
          200: StaffOrderSchema,
          400: BoxOfficeErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: BoxOfficeErrorSchema,
        },
      },
    },
    async (request) => counterSale(deps, actorOf(request), request.body),
  );
};
