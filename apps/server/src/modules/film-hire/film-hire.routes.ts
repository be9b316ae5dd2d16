import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DistributorBodySchema,
  DistributorSchema,
  ErrorSchema,
  FilmHireTermsBodySchema,
  FilmHireTermsSchema,
  IdParamsSchema,
  MovieFilmHireListSchema,
  OkSchema,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import {
  listDistributors,
  listMovieTerms,
  removeFilmHireTerms,
  saveDistributor,
  setFilmHireTerms,
} from './film-hire.service.ts';

const admin = { tags: ['film hire'], security: [{ bearer: [] }] };
const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Distributors and each movie's film-hire terms, for admins (DESIGN §7.4). */
export const filmHireRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  app.get(
    '/admin/distributors',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Distributors, by name',
        response: { 200: z.array(DistributorSchema), ...adminErrors },
      },
    },
    async () => listDistributors(db),
  );
  app.post(
    '/admin/distributors',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a distributor (409 when the name is taken, in any case)',
        body: DistributorBodySchema,
        response: { 201: DistributorSchema, ...adminErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await saveDistributor(db, actorOf(request), null, request.body)),
  );
  app.put(
    '/admin/distributors/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Rename a distributor',
        params: IdParamsSchema,
        body: DistributorBodySchema,
        response: { 200: DistributorSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => saveDistributor(db, actorOf(request), request.params.id, request.body),
  );
  app.get(
    '/admin/film-hire/terms',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Every movie (newest first, at most 500) with its film-hire terms, null when it has none',
        response: { 200: MovieFilmHireListSchema, ...adminErrors },
      },
    },
    async () => listMovieTerms(db),
  );
  app.put(
    '/admin/movies/:id/film-hire',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: "Set a movie's distributor and film-hire terms",
        description:
          'percent: the share of the net box office (ticket revenue without tax and fees, after refunds), to the ' +
          'hundredth; scale: from week fromWeek of the run on (week 1: the film week of its first showtime) the share ' +
          'is that step’s percent; guaranteeCents: the least owed for a film week it plays (minor units).',
        params: IdParamsSchema,
        body: FilmHireTermsBodySchema,
        response: { 200: FilmHireTermsSchema, ...adminErrors, 404: ErrorSchema },
      },
    },
    async (request) => setFilmHireTerms(db, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/movies/:id/film-hire',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: "Remove a movie's film-hire terms",
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema },
      },
    },
    async (request) => {
      await removeFilmHireTerms(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
