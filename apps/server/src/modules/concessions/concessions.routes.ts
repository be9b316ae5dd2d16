import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminMenuSchema,
  CategoryBodySchema,
  ErrorSchema,
  ConcessionStatusBodySchema,
  IdParamsSchema,
  KitchenErrorSchema,
  KitchenOrderSchema,
  KitchenSchema,
  MenuSchema,
  OrderRefParamsSchema,
  OkSchema,
  ProductBodySchema,
  ProductCategorySchema,
  ProductSchema,
  StockBodySchema,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import {
  changeStock,
  createProduct,
  customerMenu,
  deleteCategory,
  deleteProduct,
  loadMenu,
  saveCategory,
  updateProduct,
} from './menu.service.ts';
import { kitchenOrders, setConcessionStatus } from './kitchen.service.ts';

const admin = { tags: ['concessions'], security: [{ bearer: [] }] };
const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** The menu (everyone) and its upkeep at /admin/concessions (admins), DESIGN §7.2. */
export const concessionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;

  for (const url of ['/menu', '/products']) {
    app.get(
      url,
      {
        schema: {
          tags: ['concessions'],
          summary: 'The menu: active food and drink by category, with options, combos and what is in stock',
          response: { 200: MenuSchema },
        },
      },
      async () => customerMenu(db, app.config.currency),
    );
  }

  app.get(
    '/admin/concessions',
    {
      onRequest: app.requireStaff,
      schema: {
        ...admin,
        summary: 'Every category and product, inactive ones too',
        response: { 200: AdminMenuSchema, ...adminErrors },
      },
    },
    async () => loadMenu(db),
  );
  app.post(
    '/admin/products',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a product or (with components) a combo',
        body: ProductBodySchema,
        response: { 201: ProductSchema, ...adminErrors },
      },
    },
    async (request, reply) => reply.status(201).send(await createProduct(db, actorOf(request), request.body)),
  );
  app.put(
    '/admin/products/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Change a product (its options and components are replaced when given)',
        params: IdParamsSchema,
        body: ProductBodySchema,
        response: { 200: ProductSchema, ...adminErrors, 404: ErrorSchema },
      },
    },
    async (request) => updateProduct(db, actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/admin/products/:id/stock',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Set what is left (null: not counted) or add a delivery',
        params: IdParamsSchema,
        body: StockBodySchema,
        response: { 200: ProductSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => changeStock(db, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/products/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Delete a product never sold and in no combo (409 in_use: deactivate it instead)',
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      await deleteProduct(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
  app.post(
    '/admin/product-categories',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a menu category',
        body: CategoryBodySchema,
        response: { 201: ProductCategorySchema, ...adminErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await saveCategory(db, actorOf(request), null, request.body)),
  );
  app.put(
    '/admin/product-categories/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Rename or move a menu category',
        params: IdParamsSchema,
        body: CategoryBodySchema,
        response: { 200: ProductCategorySchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => saveCategory(db, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/product-categories/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Delete an empty menu category (409 in_use)',
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      await deleteCategory(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/admin/kitchen',
    {
      onRequest: app.requireStaff,
      schema: {
        ...admin,
        summary:
          'The kitchen: paid orders with food and drink to prepare or ready (soonest due first), and those handed over lately',
        response: { 200: KitchenSchema, ...adminErrors },
      },
    },
    async () => kitchenOrders(db),
  );
  app.post(
    '/admin/concession-orders/:ref/status',
    {
      onRequest: app.requireStaff,
      schema: {
        ...admin,
        summary:
          'Mark an order’s food and drink ready, or hand it over (collected or delivered; once, audited) by its reference',
        params: OrderRefParamsSchema,
        body: ConcessionStatusBodySchema,
        response: { 200: KitchenOrderSchema, ...adminErrors, 404: ErrorSchema, 409: KitchenErrorSchema },
      },
    },
    async (request) => setConcessionStatus(app.deps, actorOf(request), request.params.ref, request.body),
  );
};
