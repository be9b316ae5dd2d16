import { crc32, deflateSync } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, posters, seats, showtimes } from '../../db/schema/index.ts';
import { minutesFromNow, postMovie, tinyPng } from '../../test/catalogue.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { encodePng } from '../demo/png.ts';
import { ensureDefaultHalls } from '../halls/halls.service.ts';
import { convertLegacyPosters } from './posters.service.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A real width × height PNG with something painted on it. */
const paintedPng = (width: number, height: number) =>
  encodePng(
    width,
    height,
    new Uint8Array(width * height * 3).map((_, i) => (i * 7 + Math.floor(i / 997)) % 256),
  );

/** A PNG whose header claims width × height pixels, with a scrap of image data: tiny on disk, huge when decoded. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit grey
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(800_000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sizeOf = async (data: Buffer) => {
  const { format, width, height } = await (await import('sharp')).default(data).metadata();
  return { format, width, height };
};

describe.each(engines)('movies on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  let hallId: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    customer = await signedInUser(t.app);
    hallId = (await ensureDefaultHalls(t.database.db))[0]!.id;
  });
  afterAll(() => t.close());

  const adminMovies = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/admin/movies', headers: admin.headers })).json();
  const posterCount = async () => (await t.database.db.select({ n: count() }).from(posters))[0]!.n;

  it('lists no movies on an empty catalogue, to anyone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/movies' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('re-encodes a PNG poster as WebP at three widths and serves each with an ETag and a long cache', async () => {
    const png = paintedPng(800, 1200);
    const res = await postMovie(
      t.app,
      admin.headers,
      {
        title: ' Arrival ',
        description: 'Linguist meets heptapods.',
        durationMinutes: '116',
        rating: 'PG-13',
      },
      { data: png, filename: 'arrival.png' },
    );
    expect(res.statusCode).toBe(201);
    const movie = res.json();
    const url = movie.posterUrl as string;
    expect(movie).toEqual({
      id: expect.any(String),
      title: 'Arrival',
      description: 'Linguist meets heptapods.',
      durationMinutes: 116,
      rating: 'PG-13',
      posterUrl: expect.stringMatching(/^\/api\/posters\/[0-9a-f-]{36}$/),
      posterSrcSet: `${url}?w=160 160w, ${url}?w=320 320w, ${url} 640w`,
      genres: [],
      cast: [],
      director: null,
      releaseDate: null,
      trailerUrl: null,
      minAge: null,
    });

    const poster = await t.app.inject({ method: 'GET', url });
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/webp');
    expect(poster.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sizeOf(poster.rawPayload)).toEqual({ format: 'webp', width: 640, height: 960 });
    // A browser asking for 200 pixels gets the narrowest copy at least that wide.
    const small = await t.app.inject({ method: 'GET', url: `${url}?w=200` });
    expect(await sizeOf(small.rawPayload)).toEqual({ format: 'webp', width: 320, height: 480 });
    expect(small.headers.etag).not.toBe(poster.headers.etag);
    expect((await t.app.inject({ method: 'GET', url: `${url}?w=0` })).statusCode).toBe(400);

    const etag = poster.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const cached = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    const stale = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"x"' } });
    expect(stale.statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: '/api/movies', headers: customer.headers });
    expect(list.json()).toEqual([movie]);
    const one = await t.app.inject({ method: 'GET', url: `/api/movies/${movie.id}` });
    expect(one.json()).toEqual(movie);
  });

  it('reads JPEG and WebP posters by their content, whatever the file is called, and never enlarges one', async () => {
    const sharp = (await import('sharp')).default;
    const image = sharp({ create: { width: 200, height: 300, channels: 3, background: '#c03' } });
    for (const data of [await image.clone().jpeg().toBuffer(), await image.clone().webp().toBuffer()]) {
      const res = await postMovie(
        t.app,
        admin.headers,
        { title: 'Small poster' },
        { data, filename: 'poster.bin', type: 'application/octet-stream' },
      );
      expect(res.statusCode).toBe(201);
      const { posterUrl, posterSrcSet } = res.json();
      expect(posterSrcSet).toBe(`${posterUrl}?w=160 160w, ${posterUrl} 200w`);
      const poster = await t.app.inject({ method: 'GET', url: posterUrl });
      expect(await sizeOf(poster.rawPayload)).toEqual({ format: 'webp', width: 200, height: 300 });
    }
  });

  it('refuses a 30000 × 30000 PNG (under 1 MB) without decoding it, and one that does not decode', async () => {
    const before = await posterCount();
    for (const [data, error] of [
      [pngHeaderOnly(30_000, 30_000), 'Poster must be at most 40 megapixels'],
      [
        Buffer.concat([tinyPng().subarray(0, 40), Buffer.alloc(200, 7)]),
        'Poster could not be read as an image',
      ],
    ] as const) {
      const res = await postMovie(t.app, admin.headers, { title: 'Bomb' }, { data, filename: 'bomb.png' });
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toEqual({ error, code: 'unsupported_media_type' });
    }
    expect(await posterCount()).toBe(before);
  });

  it('adds a movie without a poster; empty optional fields are simply absent', async () => {
    const res = await postMovie(
      t.app,
      admin.headers,
      { title: 'Untitled Short', description: '', durationMinutes: '', rating: '' },
      { data: Buffer.alloc(0), filename: '' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Untitled Short',
      description: null,
      durationMinutes: null,
      rating: null,
      posterUrl: null,
    });
  });

  it('refuses a text file renamed to .png with 415 and creates nothing', async () => {
    const before = { movies: (await adminMovies()).length, posters: await posterCount() };
    const res = await postMovie(
      t.app,
      admin.headers,
      { title: 'Sneaky Text' },
      {
        data: Buffer.from('just some text, honestly\n'.repeat(20)),
        filename: 'poster.png',
        type: 'image/png',
      },
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'Poster must be a JPEG, PNG or WebP image',
      code: 'unsupported_media_type',
    });
    expect((await adminMovies()).length).toBe(before.movies);
    expect(await posterCount()).toBe(before.posters);
  });

  it('refuses a 6 MB image with a JSON 413 and creates nothing', async () => {
    const before = { movies: (await adminMovies()).length, posters: await posterCount() };
    const huge = Buffer.concat([tinyPng(), Buffer.alloc(6 * 1024 * 1024, 7)]);
    const res = await postMovie(
      t.app,
      admin.headers,
      { title: 'Too Big' },
      { data: huge, filename: 'big.png' },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Poster must be at most 5 MB', code: 'payload_too_large' });
    expect((await adminMovies()).length).toBe(before.movies);
    expect(await posterCount()).toBe(before.posters);
  });

  it.each([
    [{ description: 'no title' }, /title/i],
    [{ title: '   ' }, /title/i],
    [{ title: 'Bad length', durationMinutes: 'long' }, /durationMinutes/],
    [{ title: 'Negative', durationMinutes: '-5' }, /durationMinutes/],
    [{ title: 'x'.repeat(201) }, /title/i],
  ])('answers bad fields %j with 400', async (fields, message) => {
    const res = await postMovie(t.app, admin.headers, fields as Record<string, string>);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.stringMatching(message), code: 'bad_request' });
  });

  it('wants the Add Movie form as multipart (415 for JSON)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/movies',
      headers: admin.headers,
      payload: { title: 'JSON Movie' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers unknown ids with 404 and malformed ids with 400', async () => {
    for (const url of [`/api/movies/${UNKNOWN_ID}`, `/api/posters/${UNKNOWN_ID}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    for (const url of ['/api/movies/42', '/api/posters/not-a-uuid']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.stringContaining('Invalid id'), code: 'bad_request' });
    }
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/movies/${UNKNOWN_ID}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/movies/nope',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('keeps movie management to admins: 401 for visitors, 403 for customers', async () => {
    const cases = [
      () => ({ method: 'GET' as const, url: '/api/admin/movies' }),
      () => ({ method: 'DELETE' as const, url: `/api/admin/movies/${UNKNOWN_ID}` }),
    ];
    for (const c of cases) {
      expect((await t.app.inject(c())).statusCode).toBe(401);
      expect((await t.app.inject({ ...c(), headers: customer.headers })).statusCode).toBe(403);
    }
    expect((await postMovie(t.app, {}, { title: 'Visitor Movie' }, { data: tinyPng() })).statusCode).toBe(
      401,
    );
    const byCustomer = await postMovie(
      t.app,
      customer.headers,
      { title: 'Customer Movie' },
      { data: tinyPng() },
    );
    expect(byCustomer.statusCode).toBe(403);
    const titles = (await adminMovies()).map((m: { title: string }) => m.title);
    expect(titles).not.toContain('Visitor Movie');
    expect(titles).not.toContain('Customer Movie');
  });

  describe('deleting', () => {
    async function movieWithShowtime() {
      const movie = (
        await postMovie(t.app, admin.headers, { title: 'Doomed', durationMinutes: '90' }, { data: tinyPng() })
      ).json();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/showtimes',
        headers: admin.headers,
        payload: {
          movieId: movie.id,
          auditoriumId: hallId,
          startsAt: minutesFromNow(60 * 24 * 30 + Math.floor(Math.random() * 1e5)),
          priceCents: 1200,
        },
      });
      expect(res.statusCode).toBe(201);
      return { movie, showtimeId: res.json().id as string };
    }
    async function book(showtimeId: string, values: Partial<typeof bookings.$inferInsert>) {
      const [seat] = await t.database.db
        .select({ id: seats.id })
        .from(seats)
        .where(eq(seats.hallId, hallId))
        .offset(Math.floor(Math.random() * 90))
        .limit(1);
      await t.database.db.insert(bookings).values({
        showtimeId,
        seatId: seat!.id,
        userId: customer.id,
        priceCents: 1200,
        ...values,
      });
    }
    const showtimeExists = async (id: string) =>
      (await t.database.db.select({ n: count() }).from(showtimes).where(eq(showtimes.id, id)))[0]!.n === 1;

    it('deletes a movie with its showtimes, unpaid holds and poster', async () => {
      const { movie, showtimeId } = await movieWithShowtime();
      await book(showtimeId, { status: 'HELD', expiresAt: new Date(Date.now() + 60_000) });
      await book(showtimeId, { status: 'EXPIRED', expiresAt: new Date(Date.now() - 60_000) });
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/movies/${movie.id}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect((await adminMovies()).map((m: { id: string }) => m.id)).not.toContain(movie.id);
      expect(await showtimeExists(showtimeId)).toBe(false);
      expect((await t.app.inject({ method: 'GET', url: movie.posterUrl })).statusCode).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/movies/${movie.id}/showtimes` })).statusCode,
      ).toBe(404);
    });

    it.each([
      ['a confirmed ticket', { status: 'CONFIRMED' as const, confirmedAt: new Date() }, /has sold tickets/],
      ['a refunded ticket', { status: 'REFUNDED' as const }, /has sold tickets/],
      [
        'a payment in progress',
        {
          status: 'HELD' as const,
          expiresAt: new Date(Date.now() + 20 * 60_000),
          checkoutSessionId: crypto.randomUUID(),
        },
        /paying/,
      ],
    ])('refuses to delete a movie with %s (409) and deletes nothing', async (_what, booking, message) => {
      const { movie, showtimeId } = await movieWithShowtime();
      await book(showtimeId, booking);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/movies/${movie.id}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: expect.stringMatching(message), code: 'has_sold_tickets' });
      expect((await adminMovies()).map((m: { id: string }) => m.id)).toContain(movie.id);
      expect(await showtimeExists(showtimeId)).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: movie.posterUrl })).statusCode).toBe(200);
    });
  });
});

describe('posters stored before they were re-encoded', () => {
  it('are converted to WebP at the next start, once; one that does not decode is left alone', async () => {
    const t = await createTestApp('pglite');
    try {
      const db = t.app.database.db;
      const png = encodePng(400, 600, new Uint8Array(400 * 600 * 3).fill(90));
      const [old] = await db
        .insert(posters)
        .values({ contentType: 'image/png', data: png, sizeBytes: png.length, etag: '"old"' })
        .returning({ id: posters.id });
      const [broken] = await db
        .insert(posters)
        .values({ contentType: 'image/png', data: Buffer.from('not a png'), sizeBytes: 9, etag: '"broken"' })
        .returning({ id: posters.id });

      expect(await convertLegacyPosters(db)).toBe(1);
      expect(await convertLegacyPosters(db)).toBe(0);
      const served = await t.app.inject({ method: 'GET', url: `/api/posters/${old!.id}` });
      expect(served.headers['content-type']).toBe('image/webp');
      expect(await sizeOf(served.rawPayload)).toEqual({ format: 'webp', width: 400, height: 600 });
      const small = await t.app.inject({ method: 'GET', url: `/api/posters/${old!.id}?w=150` });
      expect(await sizeOf(small.rawPayload)).toEqual({ format: 'webp', width: 160, height: 240 });
      const untouched = await t.app.inject({ method: 'GET', url: `/api/posters/${broken!.id}` });
      expect(untouched.rawPayload.toString()).toBe('not a png');
    } finally {
      await t.close();
    }
  });
});
