import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, instantAt, localDate } from '@cinema/contract';
import { postMovie } from '../../test/catalogue.ts';
import { createTestApp, engines, signedInAdmin, type SignedIn, type TestApp } from '../../test/helpers.ts';
import { ensureDefaultHalls } from '../halls/halls.service.ts';

// Movie details and certificates (DESIGN §7.5): genres, cast, director, release date, trailer link, and a rating
// that is a certificate of RATING_SYSTEM with its minimum age; /movies and /schedule filter by genre.
describe.each(engines)('movie details on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let hallId: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    hallId = (await ensureDefaultHalls(t.database.db))[0]!.id;
  });
  afterAll(() => t.close());

  // Two days ahead at fixed local times, so the day's schedule holds both whatever the hour the test runs at.
  const day = () => addDays(localDate(new Date(), t.app.config.timeZone), 2);
  const addShowtime = async (movieId: string, time: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/showtimes',
      headers: admin.headers,
      payload: {
        movieId,
        auditoriumId: hallId,
        startsAt: instantAt(day(), time, t.app.config.timeZone).at.toISOString(),
        priceCents: 1200,
      },
    });
    expect(res.statusCode).toBe(201);
  };

  it('keeps genres, cast, director, release date and trailer link, and tells the certificate’s minimum age', async () => {
    const res = await postMovie(t.app, admin.headers, {
      title: 'Heat',
      rating: 'r',
      genres: 'crime, THRILLER,crime',
      cast: 'Al Pacino, Robert De Niro , Val Kilmer',
      director: 'Michael Mann',
      releaseDate: '1995-12-15',
      trailerUrl: 'https://example.com/trailers/heat',
    });
    expect(res.statusCode).toBe(201);
    const movie = res.json();
    expect(movie).toMatchObject({
      title: 'Heat',
      rating: 'R',
      genres: ['CRIME', 'THRILLER'],
      cast: ['Al Pacino', 'Robert De Niro', 'Val Kilmer'],
      director: 'Michael Mann',
      releaseDate: '1995-12-15',
      trailerUrl: 'https://example.com/trailers/heat',
      minAge: 17,
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/movies/${movie.id}` })).json()).toEqual(movie);

    // A rating without an age rule has none; a film with no rating neither.
    const family = await postMovie(t.app, admin.headers, { title: 'Up', rating: 'PG', genres: 'ANIMATION' });
    expect(family.json()).toMatchObject({ rating: 'PG', genres: ['ANIMATION'], minAge: null });
  });

  it('takes genres and cast as repeated form fields too', async () => {
    const form = new FormData();
    form.append('title', 'Alien');
    form.append('genres', 'HORROR');
    form.append('genres', 'SCIENCE_FICTION');
    form.append('cast', 'Sigourney Weaver');
    form.append('cast', 'Tom Skerritt');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/movies',
      headers: admin.headers,
      payload: form,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      genres: ['HORROR', 'SCIENCE_FICTION'],
      cast: ['Sigourney Weaver', 'Tom Skerritt'],
    });
  });

  it('refuses a rating outside the cinema’s system, naming its certificates, in the client’s language', async () => {
    const res = await postMovie(t.app, admin.headers, { title: 'Trainspotting', rating: '18' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Rating must be one of the MPAA certificates: G, PG, PG-13, R, NC-17');
    const german = await postMovie(
      t.app,
      { ...admin.headers, 'accept-language': 'de' },
      { title: 'Trainspotting', rating: '18' },
    );
    expect(german.json().error).toBe(
      'Die Altersfreigabe muss eine der MPAA-Freigaben sein: G, PG, PG-13, R, NC-17',
    );
  });

  it.each([
    [{ genres: 'DRAMA,POLKA' }, /A genre is one of ACTION, /],
    [{ genres: 'ACTION,ADVENTURE,ANIMATION,COMEDY,CRIME,DRAMA,FAMILY' }, /At most 6 genres$/],
    [{ releaseDate: '15/12/1995' }, /Release date must be a date as YYYY-MM-DD$/],
    [{ trailerUrl: 'javascript:alert(1)' }, /Trailer link must be an http or https address$/],
    [{ director: 'Michael\nMann' }, /Director must be one line/],
  ])('refuses %j with a clear 400', async (fields, message) => {
    const res = await postMovie(t.app, admin.headers, { title: 'Bad', ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('lists movies of one genre, and the schedule’s showtimes of movies of that genre', async () => {
    const comedy = (await postMovie(t.app, admin.headers, { title: 'Airplane!', genres: 'COMEDY' })).json();
    const drama = (
      await postMovie(t.app, admin.headers, { title: 'Amadeus', genres: 'DRAMA,MUSICAL' })
    ).json();
    await addShowtime(comedy.id, '14:00');
    await addShowtime(drama.id, '18:00');

    const musicals = await t.app.inject({ method: 'GET', url: '/api/movies?genre=musical' });
    expect(musicals.json().map((m: { title: string }) => m.title)).toEqual(['Amadeus']);
    expect((await t.app.inject({ method: 'GET', url: '/api/movies?genre=POLKA' })).statusCode).toBe(400);

    const schedule = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/schedule?date=${day()}${query}` });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const all = await schedule('');
    const comedies = await schedule('&genre=COMEDY');
    expect(comedies.showtimes.map((s: { movieId: string }) => s.movieId)).toEqual([comedy.id]);
    expect(comedies.movies.map((m: { title: string }) => m.title)).toEqual(['Airplane!']);
    // The day strip counts alike.
    const counted = (s: { days: { date: string; showtimes: number }[] }) =>
      s.days.reduce((n, d) => n + d.showtimes, 0);
    expect(counted(comedies)).toBe(1);
    expect(counted(all)).toBe(2);
  });
});

describe.each(engines)('certificates of another rating system on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATING_SYSTEM: 'fsk' });
    admin = await signedInAdmin(t.app);
  });
  afterAll(() => t.close());

  it('takes FSK certificates, says the system in the settings, and refuses MPAA ones', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).json()).toMatchObject({
      ratingSystem: 'FSK',
    });
    const res = await postMovie(t.app, admin.headers, { title: 'Lola rennt', rating: 'fsk  12' });
    expect(res.json()).toMatchObject({ rating: 'FSK 12', minAge: 12 });
    const r = await postMovie(t.app, admin.headers, { title: 'Heat', rating: 'R' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe(
      'Rating must be one of the FSK certificates: FSK 0, FSK 6, FSK 12, FSK 16, FSK 18',
    );
  });
});
