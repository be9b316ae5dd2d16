import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminUserSchema,
  AdminUsersQuerySchema,
  AdminUsersResponseSchema,
  ErrorSchema,
  IdParamsSchema,
  SetRoleBodySchema,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import { findUsers, setRole } from './users.service.ts';

/** Accounts and their roles (admins only; DESIGN §6.5). */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/users',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Find accounts by name or email (50 at most; admins and staff first)',
        security: [{ bearer: [] }],
        querystring: AdminUsersQuerySchema,
        response: { 200: AdminUsersResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => ({ users: await findUsers(app.database.db, request.query.q) }),
  );

  app.put(
    '/admin/users/:id/role',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Set an account’s role (ADMIN, STAFF or USER); the last admin cannot be demoted',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        body: SetRoleBodySchema,
        response: {
          200: AdminUserSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
        },
      },
    },
    async (request) => setRole(app.database.db, actorOf(request), request.params.id, request.body.role),
  );
};
