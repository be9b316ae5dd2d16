import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorSchema,
  IdParamsSchema,
  MAX_POSTER_BYTES,
  MovieFieldsSchema,
  MovieGenreSchema,
  MovieSchema,
  OkSchema,
} from '@cinema/contract';
import { AppError, badRequest } from '../../errors.ts';
import { actorOf } from '../../plugins/auth.ts';
import type { Language } from '../../i18n.ts';
import { validationText } from '../../validation.ts';
import { createMovie, deleteMovie, getMovie, listMovies, type NewMovie } from './movies.service.ts';
import { getPoster, POSTER_WIDTHS } from './posters.service.ts';

const PosterQuerySchema = z.object({
  w: z.coerce
    .number()
    .int()
    .min(1)
    .max(POSTER_WIDTHS.at(-1)!)
    .optional()
    .describe('The width wanted, in pixels'),
});

const LIST_FIELDS = new Set(['genres', 'cast']);
const MoviesQuerySchema = z.object({ genre: MovieGenreSchema.optional() });

const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const tooLarge = () => new AppError(413, 'payload_too_large', 'Poster must be at most 5 MB');

/** Reads the Add Movie form: text fields plus the optional file part `poster` (an empty file means none). */
async function readMovieForm(request: FastifyRequest): Promise<{ fields: NewMovie; poster?: Buffer }> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', 'Send the movie as multipart/form-data');
  }
  const raw: Record<string, string> = {};
  let poster: Buffer | undefined;
  let strayFile: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== 'poster') strayFile = part.fieldname;
        else if (data.length > 0) poster = data;
      } else if (typeof part.value === 'string' && part.value.trim() !== '') {
        // An empty form field means "not given", not an invalid value. Genres and cast may come as one
        // comma-separated field or as the field repeated.
        const listed = LIST_FIELDS.has(part.fieldname) && raw[part.fieldname] !== undefined;
        raw[part.fieldname] = listed ? `${raw[part.fieldname]},${part.value}` : part.value;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    // The form parser's own errors (cut-off body, bad boundary, too many parts) are the client's: 4xx.
    if (err instanceof AppError || typeof (err as { statusCode?: unknown }).statusCode === 'number')
      throw err;
    throw badRequest('Malformed multipart form');
  }
  if (strayFile) throw badRequest(`Unexpected file field "${strayFile}"; send the image as "poster"`);
  const parsed = MovieFieldsSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.');
    const say = (language: Language) => validationText(where, issue, language);
    throw new AppError(400, 'bad_request', say('en'), {}, say);
  }
  return { fields: parsed.data, poster };
}

/** True when the client's cached copy (If-None-Match) is the current one. */
function clientHasCurrent(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

/** Movies for customers and staff, and their poster images. */
export const moviesRoutes: FastifyPluginAsyncZod = async (app) => {
  // The Add Movie form is the one multipart body: the form parser and its hooks (two promises and a listener on
  // every request they cover) serve these routes alone. Elsewhere a multipart body is answered 415.
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_POSTER_BYTES, files: 1, fields: 20 } });
  // Clients on other origins (CORS_ORIGINS) get posters they can load: absolute, and marked cross-origin.
  const crossOrigin = app.config.corsOrigins.length > 0;
  const posterBase = crossOrigin ? app.config.publicUrl : '';
  const view = { posterBase, ratingSystem: app.config.ratingSystem };
  app.get(
    '/movies',
    {
      schema: {
        tags: ['movies'],
        summary: 'All movies, by title (of one genre with ?genre=DRAMA)',
        querystring: MoviesQuerySchema,
        response: { 200: z.array(MovieSchema), 400: ErrorSchema },
      },
    },
    async (request) => listMovies(app.database.db, 'title', view, request.query.genre),
  );

  app.get(
    '/movies/:id',
    {
      schema: {
        tags: ['movies'],
        summary: 'One movie',
        params: IdParamsSchema,
        response: { 200: MovieSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => getMovie(app.database.db, request.params.id, view),
  );

  app.get(
    '/posters/:id',
    {
      schema: {
        tags: ['movies'],
        summary: 'A poster image, WebP (immutable: cache it forever)',
        description:
          "The narrowest stored copy at least `w` pixels wide (default: the widest); the movie's `posterSrcSet` " +
          'lists them. Answers 304 when If-None-Match carries the current ETag; 400 for a bad id, 404 unknown.',
        params: IdParamsSchema,
        querystring: PosterQuerySchema,
      },
    },
    async (request, reply) => {
      const poster = await getPoster(app.database.db, request.params.id, request.query.w);
      reply
        .header('etag', poster.etag)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff');
      if (crossOrigin) reply.header('cross-origin-resource-policy', 'cross-origin');
      if (clientHasCurrent(request.headers['if-none-match'], poster.etag)) return reply.status(304).send();
      return reply.type(poster.contentType).send(poster.data);
    },
  );

  app.get(
    '/admin/movies',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['movies'],
        summary: 'All movies, newest first',
        security: [{ bearer: [] }],
        response: { 200: z.array(MovieSchema), ...adminErrors },
      },
    },
    async () => listMovies(app.database.db, 'newest', view),
  );

  app.post(
    '/admin/movies',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['movies'],
        summary:
          'Add a movie (multipart: title, description, durationMinutes, rating, genres, cast, director, ' +
          'releaseDate, trailerUrl, file poster)',
        description:
          'rating is a certificate of RATING_SYSTEM (GET /api/settings names it; 400 lists its certificates); ' +
          'genres and cast are comma-separated (or the field repeated). ' +
          'The poster is decoded (JPEG, PNG or WebP, at most 5 MB and 40 megapixels; else 413 or 415) and stored ' +
          're-encoded as WebP at a few widths.',
        consumes: ['multipart/form-data'],
        security: [{ bearer: [] }],
        response: { 201: MovieSchema, ...adminErrors, 413: ErrorSchema, 415: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { fields, poster } = await readMovieForm(request);
      return reply
        .status(201)
        .send(await createMovie(app.database.db, actorOf(request), fields, poster, view));
    },
  );

  app.delete(
    '/admin/movies/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['movies'],
        summary: 'Delete a movie with its showtimes (409 if it sold tickets)',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      await deleteMovie(app.deps, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
