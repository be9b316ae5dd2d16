import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditQuerySchema, AuditResponseSchema, ErrorSchema } from '@cinema/contract';
import { listAudit } from './audit.service.ts';

/** The audit log of staff actions (admins). */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/audit',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Staff actions on money, seats and roles: who, when, what, before and after (newest first)',
        security: [{ bearer: [] }],
        querystring: AuditQuerySchema,
        response: { 200: AuditResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => listAudit(app.database.db, request.query),
  );
};
