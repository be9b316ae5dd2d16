import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, engines, signedInUser, type SignedIn, type TestApp } from './helpers.ts';
import { ROUTES, type RouteSpec } from './reliability/route-table.ts';
import { createWorld, type World } from './reliability/world.ts';

// DESIGN §6.1: on every route that needs a user, the sign-in check runs before the body is validated: a visitor gets
// 401 and a customer on an admin route 403, whatever the body. Per-user limits are counted after authentication, so
// an anonymous flood never locks out a signed-in admin.

const urlOf = (route: RouteSpec, w: World) =>
  route.path.replace(':id', route.ids?.(w)[0] ?? '00000000-0000-4000-8000-000000000000');

const bodies: { what: string; payload?: string; contentType?: string }[] = [
  { what: 'an empty object', payload: '{}', contentType: 'application/json' },
  { what: 'nonsense JSON', payload: '{"seatIds": 7, "bookingId": ["x"]}', contentType: 'application/json' },
  { what: 'no body at all' },
];

describe.each(engines)('the sign-in check comes first on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    w = await createWorld(app);
  });
  afterAll(() => t.close());

  const guarded = ROUTES.filter((r) => r.access === 'customer' || r.access === 'admin');

  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: 401 for a visitor, whatever the body',
    async (_, route) => {
      for (const body of bodies) {
        const res = await app.inject({
          method: route.method,
          url: urlOf(route, w),
          payload: body.payload,
          headers: body.contentType ? { 'content-type': body.contentType } : {},
        });
        expect(res.statusCode, `${body.what}: ${res.body}`).toBe(401);
        expect(res.json()).toEqual({ error: 'Not signed in', code: 'unauthorized' });
      }
    },
  );

  it.each(guarded.filter((r) => r.access === 'admin').map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: 403 for a customer, whatever the body',
    async (_, route) => {
      for (const body of bodies) {
        const res = await app.inject({
          method: route.method,
          url: urlOf(route, w),
          payload: body.payload,
          headers: { ...w.bob.headers, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
        });
        expect(res.statusCode, `${body.what}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden' });
      }
    },
  );
});

describe.each(engines)('per-user limits on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let w: World;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(engine, { SWEEP_SECONDS: '3600' });
    app = t.app;
    w = await createWorld(app);
    admin = await signedInUser(app, { role: 'ADMIN' });
  });
  afterAll(() => t.close());

  const venue = '192.0.2.50';
  const scan = (headers: Record<string, string>, bookingId: string) =>
    app.inject({
      method: 'POST',
      url: '/api/admin/scan',
      headers,
      // The world's show is tomorrow: admitted ahead of its entry window, as staff may.
      payload: { bookingId, force: true },
      remoteAddress: venue,
    });

  it('lets the admin scan after 400 anonymous scans from the venue’s own address', async () => {
    for (let i = 0; i < 400; i++) expect((await scan({}, w.paidBookingId)).statusCode).toBe(401);
    const res = await scan(admin.headers, w.paidBookingId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true });
  });

  it('counts a user’s holds against their own budget, not their network’s', async () => {
    const [cara, dev] = [await signedInUser(app), await signedInUser(app)];
    const tryHold = (who: SignedIn) =>
      app.inject({
        method: 'POST',
        url: `/api/showtimes/${w.show.showtimeId}/hold`,
        headers: who.headers,
        payload: { seatIds: ['not-a-seat'] },
        remoteAddress: venue,
      });
    // 60 a minute per user: the 61st of one customer is refused, the next customer on the same network is not.
    for (let i = 0; i < 60; i++) expect((await tryHold(cara)).statusCode).toBe(400);
    expect((await tryHold(cara)).statusCode).toBe(429);
    expect((await tryHold(dev)).statusCode).toBe(400);
  });
});
