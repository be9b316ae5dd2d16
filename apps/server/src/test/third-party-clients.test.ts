import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { postMovie } from './catalogue.ts';
import { createShowtimeFixture } from './fixtures.ts';
import { createTestApp, signedInAdmin, signedInUser, type TestApp } from './helpers.ts';
import { encodePng } from '../modules/demo/png.ts';

// DESIGN §6.1: CORS_ORIGINS opens /api (and Socket.IO) to those origins, unset keeps it closed; CLIENT_URL is where
// the success and cancel pages are; posterUrl is absolute when CORS is on; test payments say so everywhere.

const PARTNER = 'http://partner.test:8080';
const poster = () => encodePng(200, 300, new Uint8Array(200 * 300 * 3).fill(120));

const preflight = (app: FastifyInstance, origin: string, url = '/api/movies') =>
  app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

describe('a closed API (no CORS_ORIGINS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('sends no Access-Control header to another origin, and keeps posters relative', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/movies', headers: { origin: PARTNER } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(t.app, PARTNER)).headers['access-control-allow-origin']).toBeUndefined();
    const admin = await signedInAdmin(t.app);
    const movie = (await postMovie(t.app, admin.headers, { title: 'Local' }, { data: poster() })).json();
    expect(movie.posterUrl).toMatch(/^\/api\/posters\//);
  });

  it('says test mode in its settings, on tickets, on the lookup and at the door', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).json()).toEqual({
      testMode: true,
      currency: 'USD',
      holdMinutes: 10,
      maxHeldSeats: 10,
      timeZone: t.app.config.timeZone,
      ratingSystem: 'MPAA',
      filmWeekStart: 5,
    });
    const show = await createShowtimeFixture(t.app.database.db);
    const cathy = await signedInUser(t.app);
    const held = await t.app.inject({
      method: 'POST',
      url: `/api/showtimes/${show.showtimeId}/hold`,
      headers: cathy.headers,
      payload: { seatIds: [show.allSeatIds[0]] },
    });
    const { sessionId } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: cathy.headers,
        payload: held.json(),
      })
    ).json();
    await t.app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
    const lookup = await t.app.inject({
      method: 'GET',
      url: `/api/pay/lookup?session_id=${sessionId}`,
      headers: cathy.headers,
    });
    expect(lookup.json()).toMatchObject({ status: 'paid', testMode: true, tickets: [{ testMode: true }] });
    const tickets = await t.app.inject({ method: 'GET', url: '/api/me/tickets', headers: cathy.headers });
    expect(tickets.json().tickets).toEqual([expect.objectContaining({ testMode: true })]);
    const admin = await signedInAdmin(t.app);
    const scan = await t.app.inject({
      method: 'POST',
      url: '/api/admin/scan',
      headers: admin.headers,
      // Tomorrow's show: admitted ahead of its entry window, as staff may (audited).
      payload: { bookingId: held.json().bookingIds[0], force: true },
    });
    expect(scan.json()).toMatchObject({ ok: true, alreadyCheckedIn: false, testMode: true });
  });
});

describe('an API opened to a partner (CORS_ORIGINS, CLIENT_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      CORS_ORIGINS: `${PARTNER}, https://other.example`,
      CLIENT_URL: PARTNER,
      PUBLIC_URL: 'https://api.cinema.test',
      RATE_LIMIT: 'off',
    });
  });
  afterAll(() => t.close());

  it('answers the partner’s preflight and requests, and nobody else’s', async () => {
    const pre = await preflight(t.app, PARTNER, '/api/pay/checkout');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(PARTNER);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('authorization');
    expect(String(pre.headers['access-control-allow-methods'])).toContain('POST');
    const get = await t.app.inject({ method: 'GET', url: '/api/movies', headers: { origin: PARTNER } });
    expect(get.headers['access-control-allow-origin']).toBe(PARTNER);
    const stranger = await t.app.inject({
      method: 'GET',
      url: '/api/movies',
      headers: { origin: 'https://evil.example' },
    });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(
      (await preflight(t.app, 'https://evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });

  it('gives absolute poster addresses the partner’s pages can load', async () => {
    const admin = await signedInAdmin(t.app);
    const movie = (await postMovie(t.app, admin.headers, { title: 'Shared' }, { data: poster() })).json();
    expect(movie.posterUrl).toMatch(/^https:\/\/api\.cinema\.test\/api\/posters\/[0-9a-f-]{36}$/);
    expect(movie.posterSrcSet).toBe(`${movie.posterUrl}?w=160 160w, ${movie.posterUrl} 200w`);
    const image = await t.app.inject({ method: 'GET', url: new URL(movie.posterUrl).pathname });
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('sends the customer back to the partner’s success and cancel pages', async () => {
    const show = await createShowtimeFixture(t.app.database.db);
    const dee = await signedInUser(t.app);
    const checkoutOf = async (seat: string) => {
      const held = await t.app.inject({
        method: 'POST',
        url: `/api/showtimes/${show.showtimeId}/hold`,
        headers: dee.headers,
        payload: { seatIds: [seat] },
      });
      return (
        await t.app.inject({
          method: 'POST',
          url: '/api/pay/checkout',
          headers: dee.headers,
          payload: held.json(),
        })
      ).json() as { sessionId: string; url: string };
    };
    const paid = await checkoutOf(show.allSeatIds[0]!);
    expect(paid.url).toBe(`https://api.cinema.test/api/pay/local/${paid.sessionId}`);
    const pay = await t.app.inject({ method: 'POST', url: `/api/pay/local/${paid.sessionId}/pay` });
    expect(pay.headers.location).toBe(`${PARTNER}/checkout/success?session_id=${paid.sessionId}`);
    const cancelled = await checkoutOf(show.allSeatIds[1]!);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/pay/local/${cancelled.sessionId}/cancel`,
    });
    expect(cancel.headers.location).toBe(`${PARTNER}/checkout/cancel`);
  });

  it('refuses CORS_ORIGINS that are not origins, naming the variable', async () => {
    const { loadConfig, ConfigError } = await import('../config.ts');
    expect(() => loadConfig({ CORS_ORIGINS: 'https://ok.example/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  });
});
