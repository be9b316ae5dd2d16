import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { eq } from 'drizzle-orm';
import { SOCKET_EVENTS, type StaffOrder } from '@cinema/contract';
import {
  bookings,
  orders,
  orderRefunds,
  priceCards,
  productCategories,
  products,
  promoCodes,
  ticketTypes,
  users,
} from '../db/schema/index.ts';
import { createSession } from '../plugins/auth.ts';
import { createShowtimeFixture } from './fixtures.ts';
import {
  createTestApp,
  engines,
  signedInUser,
  STRONG_PASSWORD,
  type Engine,
  uniqueEmail,
  type SignedIn,
  type TestApp,
} from './helpers.ts';
import { plainRows, ROUTES } from './reliability/route-table.ts';
import { createWorld, multipart, tinyPng, type World } from './reliability/world.ts';

/** Visitor (no token), the owner of the bookings (Alice), another customer (Bob), door staff (Sam), an admin. */
type Role = 'visitor' | 'owner' | 'other' | 'staff' | 'admin';

interface Case {
  /** `METHOD /path` exactly as in the route table. */
  route: string;
  /** The status each role gets; the owner's requests target her own things, the others' target hers too. */
  expect: Record<Role, number>;
  /** Where one engine answers otherwise (the embedded engine's backup). */
  expectOn?: Partial<Record<Engine, Partial<Record<Role, number>>>>;
  /** The request one role sends (headers carry the role's fresh token). */
  request: (role: Role, ctx: CaseContext) => Promise<InjectOptions> | InjectOptions;
  /** More that must hold after the role's answer. */
  check?: (role: Role, res: LightMyRequestResponse, ctx: CaseContext) => Promise<void> | void;
}

interface CaseContext {
  app: FastifyInstance;
  w: World;
  headers: Record<string, string>;
  /** A seat nobody holds yet (each call gives another). */
  freeSeat(): string;
}

const allRoles = (status: number): Record<Role, number> => ({
  visitor: status,
  owner: status,
  other: status,
  staff: status,
  admin: status,
});
const signedIn = (status: number): Record<Role, number> => ({
  visitor: 401,
  owner: status,
  other: status,
  staff: status,
  admin: status,
});
/** Admins only: staff cannot reach the catalogue, prices, refunds or roles (DESIGN §6.5). */
const adminOnly = (status: number): Record<Role, number> => ({
  visitor: 401,
  owner: 403,
  other: 403,
  staff: 403,
  admin: status,
});
/** The door (and the counter): staff and admins. */
const staffToo = (status: number): Record<Role, number> => ({
  visitor: 401,
  owner: 403,
  other: 403,
  staff: status,
  admin: status,
});

/** The thing the last request acted on, for its case's check. */
let lastTarget = '';

/** A paid ticket of Alice's on a free seat, checked in now by the world's staff member when `checkedIn`. */
async function paidTicket(ctx: CaseContext, checkedIn = false): Promise<string> {
  const [row] = await ctx.app.database.db
    .insert(bookings)
    .values({
      showtimeId: ctx.w.show.showtimeId,
      seatId: ctx.freeSeat(),
      userId: ctx.w.alice.id,
      status: 'CONFIRMED',
      priceCents: 1000,
      confirmedAt: new Date(),
      ...(checkedIn && { checkedInAt: new Date(), checkedInBy: ctx.w.staff.id, checkedInDevice: 'Door 1' }),
    })
    .returning({ id: bookings.id });
  return row!.id;
}

const json = (body: unknown) => ({ payload: body as InjectOptions['payload'] });

/** The order reference of a checkout session. */
const refOf = async (app: FastifyInstance, sessionId: string) =>
  (await app.database.db.select({ ref: orders.ref }).from(orders).where(eq(orders.id, sessionId)))[0]!.ref!;

/** A ticket type of its own, for a request that changes or deletes one. */
const newTicketType = async (app: FastifyInstance) =>
  (
    await app.database.db
      .insert(ticketTypes)
      .values({ name: `Matrix type ${randomUUID().slice(0, 8)}` })
      .returning({ id: ticketTypes.id })
  )[0]!.id;

const cardBody = async (app: FastifyInstance) => ({
  name: `Matrix card ${randomUUID().slice(0, 8)}`,
  weekdays: [6, 7],
  from: '18:00',
  to: '23:00',
  prices: [{ ticketTypeId: await newTicketType(app), seatType: 'STANDARD', priceCents: 1500 }],
});

/** Fresh headers for someone: the matrix logs out and changes passwords, which end older sessions. */
async function as(app: FastifyInstance, who: SignedIn) {
  return { authorization: `Bearer ${await createSession(app.database.db, who.id)}` };
}

async function newMovie(app: FastifyInstance, w: World): Promise<string> {
  const form = multipart([{ name: 'title', value: `Doomed ${randomUUID().slice(0, 6)}` }]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/movies',
    headers: { ...(await as(app, w.admin)), ...form.headers },
    payload: form.payload,
  });
  return (res.json() as { id: string }).id;
}

/**
 * A ticket sold at the counter (by the world's admin) for a showtime of its own (the world's seats are few), for a
 * request that refunds or moves one; `spare` is the other seat of that showtime.
 */
async function counterSale({ app, w }: CaseContext): Promise<StaffOrder & { spare: string }> {
  const f = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2 });
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/box-office/sales',
    headers: await as(app, w.admin),
    payload: { showtimeId: f.showtimeId, seatIds: [f.allSeatIds[0]], paymentMethod: 'card' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...(res.json() as StaffOrder), spare: f.allSeatIds[1]! };
}

/** A product (in its own category) written straight into the database. */
async function newProduct(app: FastifyInstance): Promise<string> {
  const [category] = await app.database.db
    .insert(productCategories)
    .values({ name: `Matrix ${randomUUID()}` })
    .returning({ id: productCategories.id });
  const [row] = await app.database.db
    .insert(products)
    .values({ categoryId: category!.id, name: 'Matrix snack', priceCents: 300 })
    .returning({ id: products.id });
  return row!.id;
}

/** An order of Alice's with food only, paid (the local provider): its reference, for the kitchen. */
async function foodOrder({ app, w }: CaseContext): Promise<string> {
  const started = await app.inject({
    method: 'POST',
    url: '/api/pay/checkout',
    headers: await as(app, w.alice),
    payload: { bookingIds: [], products: [{ productId: await newProduct(app), quantity: 1 }] },
  });
  expect(started.statusCode, started.body).toBe(200);
  const { sessionId, orderRef } = started.json() as { sessionId: string; orderRef: string };
  expect((await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` })).statusCode).toBe(303);
  return orderRef;
}

async function newCategory(app: FastifyInstance): Promise<string> {
  const [row] = await app.database.db
    .insert(productCategories)
    .values({ name: `Matrix ${randomUUID()}` })
    .returning({ id: productCategories.id });
  return row!.id;
}

const CASES: Case[] = [
  { route: 'GET /api/health', expect: allRoles(200), request: () => ({ method: 'GET', url: '/api/health' }) },
  {
    route: 'GET /api/health/live',
    expect: allRoles(200),
    request: () => ({ method: 'GET', url: '/api/health/live' }),
  },
  {
    route: 'GET /api/settings',
    expect: allRoles(200),
    request: () => ({ method: 'GET', url: '/api/settings' }),
  },
  {
    route: 'POST /api/auth/register',
    expect: allRoles(201),
    request: () => ({
      method: 'POST',
      url: '/api/auth/register',
      ...json({ name: 'New Person', email: uniqueEmail('matrix'), password: STRONG_PASSWORD }),
    }),
    check: (_role, res) => expect((res.json() as { user: { role: string } }).user.role).toBe('USER'),
  },
  {
    route: 'POST /api/auth/login',
    expect: allRoles(200),
    request: (_role, { w }) => ({
      method: 'POST',
      url: '/api/auth/login',
      ...json({ email: w.bob.email, password: STRONG_PASSWORD }),
    }),
  },
  {
    route: 'POST /api/auth/forgot-password',
    expect: allRoles(202),
    request: (_role, { w }) => ({
      method: 'POST',
      url: '/api/auth/forgot-password',
      ...json({ email: w.bob.email }),
    }),
  },
  {
    // Anyone may try a reset link; an unknown one is refused the same for everybody.
    route: 'POST /api/auth/reset-password',
    expect: allRoles(400),
    request: () => ({
      method: 'POST',
      url: '/api/auth/reset-password',
      ...json({ token: 'an-unknown-reset-token', newPassword: 'Changed#Pass1' }),
    }),
  },
  {
    // Anyone may open a verification link (any device, signed in or not); an unknown one is refused alike.
    route: 'POST /api/auth/verify-email',
    expect: allRoles(400),
    request: () => ({
      method: 'POST',
      url: '/api/auth/verify-email',
      ...json({ token: 'an-unknown-verification-token' }),
    }),
  },
  {
    route: 'POST /api/auth/verify-email/resend',
    expect: signedIn(202),
    request: () => ({ method: 'POST', url: '/api/auth/verify-email/resend' }),
  },
  {
    // A guest order's link is its own key: nobody reaches an order without its token, whoever they are.
    route: 'GET /api/guest-order',
    expect: allRoles(404),
    request: () => ({ method: 'GET', url: '/api/guest-order?token=an-unknown-guest-token' }),
  },
  {
    route: 'GET /api/guest-order/tickets.pdf',
    expect: allRoles(404),
    request: () => ({ method: 'GET', url: '/api/guest-order/tickets.pdf?token=an-unknown-guest-token' }),
  },
  {
    route: 'POST /api/auth/logout',
    expect: signedIn(204),
    request: () => ({ method: 'POST', url: '/api/auth/logout' }),
  },
  {
    route: 'GET /api/user/me',
    expect: signedIn(200),
    request: () => ({ method: 'GET', url: '/api/user/me' }),
    check: (role, res, { w }) => {
      if (role === 'visitor') return;
      const me = { owner: w.alice, other: w.bob, staff: w.staff, admin: w.admin }[role];
      expect((res.json() as { email: string }).email).toBe(me.email);
    },
  },
  {
    route: 'PUT /api/user/profile',
    expect: signedIn(200),
    request: (role, { w }) => {
      const me =
        role === 'visitor' ? w.alice : { owner: w.alice, other: w.bob, staff: w.staff, admin: w.admin }[role];
      return { method: 'PUT', url: '/api/user/profile', ...json({ name: me.name, email: me.email }) };
    },
  },
  {
    route: 'PUT /api/user/password',
    expect: signedIn(200),
    // The same password again: allowed, and nobody's password changes for the rest of the matrix.
    request: () => ({
      method: 'PUT',
      url: '/api/user/password',
      ...json({ currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD }),
    }),
  },
  { route: 'GET /api/movies', expect: allRoles(200), request: () => ({ method: 'GET', url: '/api/movies' }) },
  {
    route: 'GET /api/movies/:id',
    expect: allRoles(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/movies/${w.show.movieId}` }),
  },
  {
    route: 'GET /api/posters/:id',
    expect: allRoles(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/posters/${w.posterId}` }),
  },
  {
    route: 'GET /api/schedule',
    expect: allRoles(200),
    request: () => ({ method: 'GET', url: '/api/schedule' }),
  },
  {
    route: 'GET /api/movies/:id/showtimes',
    expect: allRoles(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/movies/${w.show.movieId}/showtimes` }),
  },
  {
    route: 'GET /api/showtimes/:id/seats',
    expect: allRoles(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/showtimes/${w.show.showtimeId}/seats` }),
    check: (role, res, { w }) => {
      const seats = (
        res.json() as { seats: { id: string; status: string; heldByMe?: boolean; bookingId?: string }[] }
      ).seats;
      const held = seats.find((s) => s.id === w.show.seatIds[0]![0])!;
      expect(held.status).toBe('HELD');
      // Only the holder sees her hold as hers, with its booking id; nobody ever sees a paid seat's booking id.
      if (role === 'owner') expect(held).toMatchObject({ heldByMe: true, bookingId: w.heldBookingId });
      else {
        expect(held.heldByMe ?? false).toBe(false);
        expect(held.bookingId).toBeUndefined();
      }
      expect(res.body).not.toContain(w.paidBookingId);
    },
  },
  {
    route: 'POST /api/showtimes/:id/hold',
    expect: signedIn(201),
    request: (_r, { w, freeSeat }) => ({
      method: 'POST',
      url: `/api/showtimes/${w.show.showtimeId}/hold`,
      ...json({ seatIds: [freeSeat()] }),
    }),
  },
  {
    route: 'POST /api/showtimes/:id/best-available',
    expect: signedIn(200),
    request: (_r, { w }) => ({
      method: 'POST',
      url: `/api/showtimes/${w.show.showtimeId}/best-available`,
      ...json({ count: 2 }),
    }),
  },
  {
    route: 'POST /api/showtimes/:id/waitlist',
    expect: signedIn(201),
    // A showtime of its own per request: joining offers its free seat at once, which the world's seats must keep.
    request: async (_r, { app }) => {
      const f = await createShowtimeFixture(app.database.db, { rows: 1, cols: 1 });
      return { method: 'POST', url: `/api/showtimes/${f.showtimeId}/waitlist`, ...json({ count: 1 }) };
    },
  },
  {
    route: 'DELETE /api/showtimes/:id/waitlist',
    expect: signedIn(200),
    request: (_r, { w }) => ({ method: 'DELETE', url: `/api/showtimes/${w.show.showtimeId}/waitlist` }),
  },
  {
    route: 'GET /api/me/waitlist',
    expect: signedIn(200),
    request: () => ({ method: 'GET', url: '/api/me/waitlist' }),
  },
  {
    route: 'GET /api/admin/waitlist',
    expect: staffToo(200),
    request: () => ({ method: 'GET', url: '/api/admin/waitlist' }),
  },
  {
    route: 'GET /api/admin/showtimes/:id/waitlist',
    expect: staffToo(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/admin/showtimes/${w.show.showtimeId}/waitlist` }),
  },
  {
    route: 'POST /api/showtimes/bookings/more-time',
    // Someone else's hold is answered as one that is not live: nobody extends another's hold.
    expect: { visitor: 401, owner: 200, other: 409, staff: 409, admin: 409 },
    request: (_r, { w }) => ({
      method: 'POST',
      url: '/api/showtimes/bookings/more-time',
      ...json({ bookingIds: [w.openBookingId] }),
    }),
  },
  {
    route: 'DELETE /api/showtimes/bookings/cancel',
    expect: signedIn(200),
    request: (_r, { w }) => ({
      method: 'DELETE',
      url: '/api/showtimes/bookings/cancel',
      ...json({ bookingIds: [w.heldBookingId, w.paidBookingId] }),
    }),
    check: async (role, res, { app, w }) => {
      if (role === 'visitor') return;
      // Only the owner's own hold is cancelled; a paid ticket never is, by anyone.
      expect(res.json()).toEqual({ ok: true, cancelled: role === 'owner' ? 1 : 0 });
      const tickets = await app.inject({
        method: 'GET',
        url: '/api/me/tickets',
        headers: await as(app, w.alice),
      });
      expect(tickets.body).toContain(w.paidBookingId);
    },
  },
  {
    route: 'POST /api/pay/checkout',
    // Someone else's booking is answered as one that does not exist (DESIGN §6.1).
    expect: { visitor: 401, owner: 200, other: 404, staff: 404, admin: 404 },
    request: (_r, { w }) => ({
      method: 'POST',
      url: '/api/pay/checkout',
      ...json({ bookingIds: [w.openBookingId] }),
    }),
  },
  {
    route: 'GET /api/pay/lookup',
    expect: { visitor: 401, owner: 200, other: 404, staff: 404, admin: 404 },
    request: (_r, { w }) => ({ method: 'GET', url: `/api/pay/lookup?session_id=${w.paidSessionId}` }),
    check: (role, res, { w }) => {
      if (role === 'owner') expect(res.body).toContain(w.paidBookingId);
      else expect(res.body).not.toContain(w.paidBookingId);
    },
  },
  {
    route: 'POST /api/pay/webhook',
    // Only the provider can sign; a bearer token changes nothing.
    expect: allRoles(400),
    request: () => ({
      method: 'POST',
      url: '/api/pay/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{"type":"checkout.session.completed"}',
    }),
  },
  {
    route: 'GET /api/pay/local/:id',
    // The hosted page is opened by the session's unguessable id, as a provider's is; tokens make no difference.
    expect: allRoles(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/pay/local/${w.openSessionId}` }),
    check: (_role, res, { w }) => expect(res.body).not.toContain(w.alice.email),
  },
  {
    route: 'POST /api/pay/local/:id/pay',
    expect: allRoles(404),
    request: () => ({ method: 'POST', url: `/api/pay/local/${randomUUID()}/pay` }),
  },
  {
    route: 'POST /api/pay/local/:id/decline',
    expect: allRoles(404),
    request: () => ({ method: 'POST', url: `/api/pay/local/${randomUUID()}/decline` }),
  },
  {
    route: 'GET /api/pay/local/:id/cancel',
    expect: allRoles(404),
    request: () => ({ method: 'GET', url: `/api/pay/local/${randomUUID()}/cancel` }),
  },
  {
    route: 'POST /api/pay/local/:id/cancel',
    expect: allRoles(404),
    request: () => ({ method: 'POST', url: `/api/pay/local/${randomUUID()}/cancel` }),
  },
  {
    route: 'GET /api/me/tickets',
    expect: signedIn(200),
    request: () => ({ method: 'GET', url: '/api/me/tickets' }),
    check: (role, res, { w }) => {
      if (role === 'owner') expect(res.body).toContain(w.paidBookingId);
      else expect(res.body).not.toContain(w.paidBookingId);
    },
  },
  {
    route: 'GET /api/me/orders',
    expect: signedIn(200),
    request: () => ({ method: 'GET', url: '/api/me/orders' }),
    check: async (role, res, { app, w }) => {
      const ref = await refOf(app, w.paidSessionId);
      if (role === 'owner') expect(res.body).toContain(ref);
      else expect(res.body).not.toContain(ref);
    },
  },
  {
    route: 'GET /api/me/orders/:ref',
    expect: { visitor: 401, owner: 200, other: 404, staff: 404, admin: 404 },
    request: async (_r, { app, w }) => ({
      method: 'GET',
      url: `/api/me/orders/${await refOf(app, w.paidSessionId)}`,
    }),
  },
  {
    route: 'GET /api/me/orders/:ref/tickets.pdf',
    expect: { visitor: 401, owner: 200, other: 404, staff: 404, admin: 404 },
    request: async (_r, { app, w }) => ({
      method: 'GET',
      url: `/api/me/orders/${await refOf(app, w.paidSessionId)}/tickets.pdf`,
    }),
    check: (role, res) => {
      if (role === 'owner') expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    },
  },
  {
    route: 'GET /api/me/orders/:ref/receipt.pdf',
    expect: { visitor: 401, owner: 200, other: 404, staff: 404, admin: 404 },
    request: async (_r, { app, w }) => ({
      method: 'GET',
      url: `/api/me/orders/${await refOf(app, w.paidSessionId)}/receipt.pdf`,
    }),
    check: (role, res) => {
      if (role === 'owner') expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    },
  },
  {
    route: 'POST /api/pay/quote',
    expect: { visitor: 401, owner: 200, other: 404, staff: 404, admin: 404 },
    request: (_r, { w }) => ({
      method: 'POST',
      url: '/api/pay/quote',
      ...json({ bookingIds: [w.openBookingId] }),
    }),
  },
  {
    route: 'GET /api/showtimes/:id/prices',
    expect: allRoles(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/showtimes/${w.show.showtimeId}/prices` }),
  },
  {
    route: 'GET /api/admin/backup',
    expect: adminOnly(200),
    // PostgreSQL is backed up with pg_dump: the server says so.
    expectOn: { postgres: { admin: 409 } },
    request: () => ({ method: 'GET', url: '/api/admin/backup' }),
  },
  {
    route: 'GET /api/admin/audit',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/audit' }),
  },
  {
    route: 'GET /api/admin/reports/film-hire',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/reports/film-hire?week=2026-03-20' }),
  },
  {
    route: 'GET /api/admin/reports/box-office',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/reports/box-office?week=2026-03-20' }),
  },
  {
    route: 'GET /api/admin/distributors',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/distributors' }),
  },
  {
    route: 'POST /api/admin/distributors',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/distributors',
      ...json({ name: `Matrix ${randomUUID().slice(0, 8)}` }),
    }),
  },
  {
    route: 'PUT /api/admin/distributors/:id',
    expect: adminOnly(200),
    request: (_r, { w }) => ({
      method: 'PUT',
      url: `/api/admin/distributors/${w.distributorId}`,
      ...json({ name: `Matrix ${randomUUID().slice(0, 8)}` }),
    }),
  },
  {
    route: 'GET /api/admin/film-hire/terms',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/film-hire/terms' }),
  },
  {
    route: 'PUT /api/admin/movies/:id/film-hire',
    expect: adminOnly(200),
    request: (_r, { w }) => ({
      method: 'PUT',
      url: `/api/admin/movies/${w.posterMovieId}/film-hire`,
      ...json({ distributorId: w.distributorId, percent: 50 }),
    }),
  },
  {
    // Terms set first, so the admin's removal finds some.
    route: 'DELETE /api/admin/movies/:id/film-hire',
    expect: adminOnly(200),
    request: async (_r, { app, w }) => {
      await app.inject({
        method: 'PUT',
        url: `/api/admin/movies/${w.posterMovieId}/film-hire`,
        headers: w.admin.headers,
        payload: { distributorId: w.distributorId, percent: 50 },
      });
      return { method: 'DELETE', url: `/api/admin/movies/${w.posterMovieId}/film-hire` };
    },
  },
  {
    route: 'GET /api/admin/reports/sales',
    expect: adminOnly(200),
    request: () => ({
      method: 'GET',
      url: '/api/admin/reports/sales?from=2026-01-01&to=2026-01-31&groupBy=day',
    }),
  },
  {
    // A balance lookup needs no sign-in: the code is the key (an unknown one is 404 to everyone).
    route: 'GET /api/gift-cards/:code',
    expect: allRoles(404),
    request: () => ({ method: 'GET', url: '/api/gift-cards/ABCD-EFGH-JKMN-PQRS' }),
  },
  {
    route: 'GET /api/admin/gift-cards',
    expect: staffToo(200),
    request: () => ({ method: 'GET', url: '/api/admin/gift-cards?q=example.com' }),
  },
  {
    route: 'GET /api/admin/gift-cards/:code',
    expect: staffToo(404),
    request: () => ({ method: 'GET', url: '/api/admin/gift-cards/ABCD-EFGH-JKMN-PQRS' }),
  },
  {
    route: 'GET /api/admin/gift-cards/liability',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/gift-cards/liability?date=2026-01-31' }),
  },
  {
    route: 'POST /api/admin/gift-cards/:code/void',
    expect: adminOnly(404),
    request: () => ({ method: 'POST', url: '/api/admin/gift-cards/ABCD-EFGH-JKMN-PQRS/void', ...json({}) }),
  },
  {
    route: 'GET /api/admin/orders',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/orders?q=example.com' }),
  },
  {
    route: 'GET /api/admin/orders/:ref',
    expect: adminOnly(200),
    request: async (_r, { app, w }) => ({
      method: 'GET',
      url: `/api/admin/orders/${await refOf(app, w.paidSessionId)}`,
    }),
  },
  {
    route: 'GET /api/admin/orders/:ref/receipt.pdf',
    expect: staffToo(200),
    request: async (_r, { app, w }) => ({
      method: 'GET',
      url: `/api/admin/orders/${await refOf(app, w.paidSessionId)}/receipt.pdf`,
    }),
    check: (role, res) => {
      if (role === 'admin' || role === 'staff')
        expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    },
  },
  {
    route: 'GET /api/admin/taxes',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/taxes' }),
  },
  {
    route: 'PUT /api/admin/taxes',
    expect: adminOnly(200),
    // 0% for tickets: what a cinema without rates charges anyway, so the matrix's other prices stay as they are.
    request: () => ({
      method: 'PUT',
      url: '/api/admin/taxes',
      ...json({ rates: [{ kind: 'TICKET', ratePercent: 0 }] }),
    }),
  },
  {
    route: 'GET /api/admin/fees',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/fees' }),
  },
  {
    route: 'PUT /api/admin/fees',
    expect: adminOnly(200),
    request: () => {
      const none = { perTicketCents: 0, perOrderCents: 0, exemptTicketTypeIds: [], refundable: false };
      return { method: 'PUT', url: '/api/admin/fees', ...json({ online: none, counter: none }) };
    },
  },
  {
    route: 'POST /api/admin/orders/:ref/refund',
    expect: adminOnly(200),
    request: async (_r, ctx) => ({
      method: 'POST',
      url: `/api/admin/orders/${(await counterSale(ctx)).ref}/refund`,
      ...json({ reason: 'Matrix' }),
    }),
    check: async (role, _res, { app }) => {
      if (role === 'admin') return;
      // A refused refund refunded nothing.
      const refunds = await app.database.db
        .select()
        .from(orderRefunds)
        .where(eq(orderRefunds.reason, 'Matrix'));
      expect(refunds.length).toBeLessThanOrEqual(1);
    },
  },
  {
    route: 'POST /api/admin/orders/:ref/exchange',
    expect: adminOnly(200),
    request: async (_r, ctx) => {
      const order = await counterSale(ctx);
      return {
        method: 'POST',
        url: `/api/admin/orders/${order.ref}/exchange`,
        ...json({ moves: [{ bookingId: order.lines[0]!.bookingId, seatId: order.spare }] }),
      };
    },
  },
  {
    route: 'POST /api/admin/box-office/sales',
    expect: staffToo(200),
    request: async (_r, { app }) => {
      const f = await createShowtimeFixture(app.database.db, { rows: 1, cols: 1 });
      return {
        method: 'POST',
        url: '/api/admin/box-office/sales',
        ...json({ showtimeId: f.showtimeId, seatIds: f.allSeatIds, paymentMethod: 'cash' }),
      };
    },
  },
  {
    route: 'POST /api/admin/box-office/quote',
    expect: staffToo(200),
    request: async (_r, { app }) => {
      const f = await createShowtimeFixture(app.database.db, { rows: 1, cols: 1 });
      return {
        method: 'POST',
        url: '/api/admin/box-office/quote',
        ...json({ showtimeId: f.showtimeId, seatIds: f.allSeatIds, paymentMethod: 'cash' }),
      };
    },
  },
  {
    route: 'GET /api/admin/outbox',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/outbox' }),
  },
  { route: 'GET /api/menu', expect: allRoles(200), request: () => ({ method: 'GET', url: '/api/menu' }) },
  {
    route: 'GET /api/products',
    expect: allRoles(200),
    request: () => ({ method: 'GET', url: '/api/products' }),
  },
  {
    route: 'GET /api/admin/concessions',
    expect: staffToo(200),
    request: () => ({ method: 'GET', url: '/api/admin/concessions' }),
  },
  {
    route: 'POST /api/admin/products',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/products',
      ...json({ name: `Matrix ${randomUUID().slice(0, 8)}`, category: 'Matrix', priceCents: 300 }),
    }),
  },
  {
    route: 'PUT /api/admin/products/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'PUT',
      url: `/api/admin/products/${await newProduct(app)}`,
      ...json({ name: 'Matrix snack', category: 'Matrix', priceCents: 350 }),
    }),
  },
  {
    route: 'POST /api/admin/products/:id/stock',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'POST',
      url: `/api/admin/products/${await newProduct(app)}/stock`,
      ...json({ stock: 7 }),
    }),
  },
  {
    route: 'DELETE /api/admin/products/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'DELETE',
      url: `/api/admin/products/${await newProduct(app)}`,
    }),
  },
  {
    route: 'POST /api/admin/product-categories',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/product-categories',
      ...json({ name: `Matrix ${randomUUID().slice(0, 8)}` }),
    }),
  },
  {
    route: 'PUT /api/admin/product-categories/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'PUT',
      url: `/api/admin/product-categories/${await newCategory(app)}`,
      ...json({ name: `Matrix ${randomUUID().slice(0, 8)}` }),
    }),
  },
  {
    route: 'DELETE /api/admin/product-categories/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'DELETE',
      url: `/api/admin/product-categories/${await newCategory(app)}`,
    }),
  },
  {
    route: 'GET /api/admin/kitchen',
    expect: staffToo(200),
    request: () => ({ method: 'GET', url: '/api/admin/kitchen' }),
  },
  {
    route: 'POST /api/admin/concession-orders/:ref/status',
    expect: staffToo(200),
    request: async (_r, ctx) => ({
      method: 'POST',
      url: `/api/admin/concession-orders/${await foodOrder(ctx)}/status`,
      ...json({ status: 'collected' }),
    }),
  },
  {
    route: 'GET /api/admin/ticket-types',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/ticket-types' }),
  },
  {
    route: 'POST /api/admin/ticket-types',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/ticket-types',
      ...json({ name: `Matrix ${randomUUID().slice(0, 8)}` }),
    }),
  },
  {
    route: 'PUT /api/admin/ticket-types/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'PUT',
      url: `/api/admin/ticket-types/${await newTicketType(app)}`,
      ...json({ active: false }),
    }),
  },
  {
    route: 'DELETE /api/admin/ticket-types/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => ({
      method: 'DELETE',
      url: `/api/admin/ticket-types/${await newTicketType(app)}`,
    }),
  },
  {
    route: 'GET /api/admin/price-cards',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/price-cards' }),
  },
  {
    route: 'POST /api/admin/price-cards',
    expect: adminOnly(201),
    request: async (_r, { app }) => ({
      method: 'POST',
      url: '/api/admin/price-cards',
      ...json(await cardBody(app)),
    }),
  },
  {
    route: 'PUT /api/admin/price-cards/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => {
      const [card] = await app.database.db
        .insert(priceCards)
        .values({
          name: `Matrix card ${randomUUID().slice(0, 8)}`,
          weekdays: [1],
          startsAt: '10:00',
          endsAt: '12:00',
        })
        .returning({ id: priceCards.id });
      return { method: 'PUT', url: `/api/admin/price-cards/${card!.id}`, ...json(await cardBody(app)) };
    },
  },
  {
    route: 'DELETE /api/admin/price-cards/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => {
      const [card] = await app.database.db
        .insert(priceCards)
        .values({
          name: `Matrix card ${randomUUID().slice(0, 8)}`,
          weekdays: [1],
          startsAt: '10:00',
          endsAt: '12:00',
        })
        .returning({ id: priceCards.id });
      return { method: 'DELETE', url: `/api/admin/price-cards/${card!.id}` };
    },
  },
  {
    route: 'GET /api/admin/promo-codes',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/promo-codes' }),
  },
  {
    route: 'POST /api/admin/promo-codes',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/promo-codes',
      ...json({ code: `MATRIX${randomUUID().slice(0, 6)}`, percentOff: 10 }),
    }),
  },
  {
    route: 'DELETE /api/admin/promo-codes/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => {
      const [promo] = await app.database.db
        .insert(promoCodes)
        .values({ code: `DEL${randomUUID().slice(0, 6)}`, percentOff: 5 })
        .returning({ id: promoCodes.id });
      return { method: 'DELETE', url: `/api/admin/promo-codes/${promo!.id}` };
    },
  },
  {
    route: 'GET /api/admin/movies',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/movies' }),
  },
  {
    route: 'POST /api/admin/movies',
    expect: adminOnly(201),
    request: () => {
      const form = multipart([
        { name: 'title', value: `Matrix ${randomUUID().slice(0, 6)}` },
        { name: 'poster', value: tinyPng(), filename: 'p.png', type: 'image/png' },
      ]);
      return { method: 'POST', url: '/api/admin/movies', headers: form.headers, payload: form.payload };
    },
  },
  {
    route: 'DELETE /api/admin/movies/:id',
    expect: adminOnly(200),
    request: async (_r, { app, w }) => ({
      method: 'DELETE',
      url: `/api/admin/movies/${await newMovie(app, w)}`,
    }),
  },
  {
    route: 'GET /api/admin/rooms',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/rooms' }),
  },
  {
    route: 'POST /api/admin/rooms',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/rooms',
      ...json({ name: `Matrix hall ${randomUUID().slice(0, 6)}`, rows: 2, cols: 2 }),
    }),
  },
  {
    route: 'GET /api/admin/showtimes',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/showtimes' }),
  },
  {
    route: 'POST /api/admin/showtimes/batch',
    expect: adminOnly(201),
    request: async (_r, { app, w }) => {
      const day = new Date(Date.now() + (30 + Math.random() * 690) * 24 * 3600_000)
        .toISOString()
        .slice(0, 10);
      return {
        method: 'POST',
        url: '/api/admin/showtimes/batch',
        ...json({
          movieId: await newMovie(app, w),
          auditoriumIds: [w.show.hallId],
          from: day,
          to: day,
          weekdays: [1, 2, 3, 4, 5, 6, 7],
          times: ['08:05'],
          priceCents: 1200,
        }),
      };
    },
  },
  {
    route: 'POST /api/admin/showtimes',
    expect: adminOnly(201),
    request: async (_r, { app, w }) => ({
      method: 'POST',
      url: '/api/admin/showtimes',
      ...json({
        movieId: await newMovie(app, w),
        auditoriumId: w.show.hallId,
        startsAt: new Date(Date.now() + (30 + Math.random() * 690) * 24 * 3600_000).toISOString(),
        priceCents: 1200,
      }),
    }),
  },
  {
    route: 'GET /api/admin/showtimes/manage',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/showtimes/manage' }),
  },
  {
    route: 'GET /api/admin/halls',
    expect: adminOnly(200),
    request: () => ({ method: 'GET', url: '/api/admin/halls' }),
  },
  {
    route: 'POST /api/admin/halls',
    expect: adminOnly(201),
    request: () => ({
      method: 'POST',
      url: '/api/admin/halls',
      ...json({ name: `Matrix hall ${randomUUID().slice(0, 8)}`, layout: { rows: plainRows(2, 2) } }),
    }),
  },
  {
    route: 'GET /api/admin/halls/:id/layout',
    expect: adminOnly(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/admin/halls/${w.show.hallId}/layout` }),
  },
  {
    route: 'PUT /api/admin/halls/:id/layout',
    expect: adminOnly(200),
    // The hall's own layout again: nothing moves for the rest of the matrix.
    request: (_r, { w }) => ({
      method: 'PUT',
      url: `/api/admin/halls/${w.show.hallId}/layout`,
      ...json({ rows: plainRows(4, 6) }),
    }),
  },
  {
    route: 'DELETE /api/admin/showtimes/:id',
    expect: adminOnly(200),
    request: async (_r, { app }) => {
      const doomed = await createShowtimeFixture(app.database.db, { rows: 1, cols: 1 });
      return { method: 'DELETE', url: `/api/admin/showtimes/${doomed.showtimeId}` };
    },
  },
  {
    route: 'POST /api/admin/showtimes/:id/accessible-release',
    expect: staffToo(200),
    request: async (_r, { app }) => {
      const show = await createShowtimeFixture(app.database.db, { rows: 1, cols: 2 });
      return { method: 'POST', url: `/api/admin/showtimes/${show.showtimeId}/accessible-release` };
    },
  },
  {
    route: 'GET /api/admin/showtimes/:id/booked',
    expect: staffToo(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/admin/showtimes/${w.show.showtimeId}/booked` }),
    check: (role, res, { w }) => {
      // The buyers' emails: admins and door staff only.
      if (role === 'admin' || role === 'staff') expect(res.body).toContain(w.alice.email);
      else expect(res.body).not.toContain(w.alice.email);
    },
  },
  {
    route: 'GET /api/admin/showtimes/:id/tickets',
    expect: adminOnly(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/admin/showtimes/${w.show.showtimeId}/tickets` }),
  },
  {
    route: 'POST /api/admin/scan',
    expect: staffToo(200),
    request: (_r, { w }) => ({
      method: 'POST',
      url: '/api/admin/scan',
      // The world's show is tomorrow: admitted ahead of its entry window, as staff may.
      ...json({ bookingId: w.paidBookingId, force: true }),
    }),
    check: (role, res, { w }) => {
      if (role !== 'admin' && role !== 'staff') expect(res.body).not.toContain(w.alice.email);
    },
  },
  {
    route: 'POST /api/admin/scan/undo',
    expect: staffToo(200),
    request: async (_r, ctx) => {
      lastTarget = await paidTicket(ctx, true);
      return { method: 'POST', url: '/api/admin/scan/undo', ...json({ bookingId: lastTarget }) };
    },
    check: async (role, res, { app }) => {
      const [row] = await app.database.db
        .select({ at: bookings.checkedInAt })
        .from(bookings)
        .where(eq(bookings.id, lastTarget));
      // Undone by staff and admins; refused callers leave the check-in as it was.
      if (res.statusCode === 200) expect(row!.at, role).toBeNull();
      else expect(row!.at, role).toBeInstanceOf(Date);
    },
  },
  {
    route: 'POST /api/admin/scan/sync',
    expect: staffToo(200),
    request: async (role, ctx) => ({
      method: 'POST',
      url: '/api/admin/scan/sync',
      ...json({
        showtimeId: ctx.w.show.showtimeId,
        deviceLabel: 'Door 2',
        checkIns: [
          {
            // Refused callers never reach the ticket: they need no seat of their own.
            bookingId: role === 'staff' || role === 'admin' ? await paidTicket(ctx) : randomUUID(),
            scannedAt: new Date().toISOString(),
            force: true,
          },
        ],
      }),
    }),
    check: (role, res) => {
      if (res.statusCode === 200)
        expect((res.json() as { results: { result: string }[] }).results[0]!.result, role).toBe('checked_in');
    },
  },
  {
    route: 'GET /api/admin/scan/showtimes',
    expect: staffToo(200),
    request: () => ({ method: 'GET', url: '/api/admin/scan/showtimes' }),
  },
  {
    route: 'GET /api/admin/scan/showtimes/:id',
    expect: staffToo(200),
    request: (_r, { w }) => ({ method: 'GET', url: `/api/admin/scan/showtimes/${w.show.showtimeId}` }),
    check: (role, res, { w }) => {
      if (role !== 'admin' && role !== 'staff') expect(res.body).not.toContain(w.alice.name);
    },
  },
  {
    route: 'GET /api/admin/users',
    expect: adminOnly(200),
    request: (_r, { w }) => ({
      method: 'GET',
      url: `/api/admin/users?q=${encodeURIComponent(w.alice.email)}`,
    }),
  },
  {
    route: 'PUT /api/admin/users/:id/role',
    expect: adminOnly(200),
    request: async (_r, { app }) => {
      lastTarget = (await signedInUser(app, { name: 'Role Target' })).id;
      return { method: 'PUT', url: `/api/admin/users/${lastTarget}/role`, ...json({ role: 'ADMIN' }) };
    },
    check: async (role, _res, { app }) => {
      const [row] = await app.database.db
        .select({ role: users.role })
        .from(users)
        .where(eq(users.id, lastTarget));
      expect(row!.role, role).toBe(role === 'admin' ? 'ADMIN' : 'USER');
    },
  },
];

describe.each(engines)('authorization matrix on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let w: World;
  let free: string[];

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    w = await createWorld(app);
    free = w.show.allSeatIds.slice(6);
  });
  afterAll(() => t.close());

  const tokenOf = async (role: Role): Promise<Record<string, string>> => {
    if (role === 'visitor') return {};
    const who: SignedIn = { owner: w.alice, other: w.bob, staff: w.staff, admin: w.admin }[role];
    // A fresh session per request: logout and password change end sessions and must not end the next test's.
    return { authorization: `Bearer ${await createSession(app.database.db, who.id)}` };
  };

  it('has a case for every route of the route table', () => {
    expect(CASES.map((c) => c.route).sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  for (const c of CASES) {
    it(`${c.route}: visitor ${c.expect.visitor}, owner ${c.expect.owner}, other customer ${c.expect.other}, staff ${c.expect.staff}, admin ${c.expect.admin}`, async () => {
      // Strangers first, then staff and the admin, the owner last: her own action may use up what the others must not touch.
      for (const role of ['visitor', 'other', 'staff', 'admin', 'owner'] as const) {
        const headers = await tokenOf(role);
        const ctx: CaseContext = { app, w, headers, freeSeat: () => free.shift()! };
        const req = await c.request(role, ctx);
        const res = await app.inject({ ...req, headers: { ...(req.headers as object), ...headers } });
        expect(res.statusCode, `${role}: ${res.body.slice(0, 300)}`).toBe(
          c.expectOn?.[engine]?.[role] ?? c.expect[role],
        );
        const html = String(res.headers['content-type']).startsWith('text/html');
        if (res.statusCode >= 400 && !html) expect(res.json()).toMatchObject({ error: expect.any(String) });
        // Whatever a non-admin is told, it never carries the owner's email unless it is the owner herself.
        if (role === 'visitor' || role === 'other') expect(res.body).not.toContain(w.alice.email);
        await c.check?.(role, res, ctx);
      }
    });
  }

  it('sends sockets seat changes as {id, status} only: no buyer, booking or user ids', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const sockets: Socket[] = [];
    const received: unknown[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const socket = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], forceNew: true });
        sockets.push(socket);
        socket.onAny((event: string, ...args: unknown[]) => received.push({ event, args }));
        const ack = await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.joinShowtime, w.show.showtimeId);
        expect(ack).toEqual({ ok: true });
      }
      // Alice holds, pays; Bob holds and cancels: every kind of change goes out.
      const seat = free.shift()!;
      const hold = await app.inject({
        method: 'POST',
        url: `/api/showtimes/${w.show.showtimeId}/hold`,
        headers: await as(app, w.alice),
        payload: { seatIds: [seat] },
      });
      const bookingIds = (hold.json() as { bookingIds: string[] }).bookingIds;
      const checkout = await app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: await as(app, w.alice),
        payload: { bookingIds },
      });
      const { sessionId } = checkout.json() as { sessionId: string };
      expect((await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` })).statusCode).toBe(
        303,
      );
      const bobHold = await app.inject({
        method: 'POST',
        url: `/api/showtimes/${w.show.showtimeId}/hold`,
        headers: await as(app, w.bob),
        payload: { seatIds: [free.shift()!] },
      });
      await app.inject({
        method: 'DELETE',
        url: '/api/showtimes/bookings/cancel',
        headers: await as(app, w.bob),
        payload: bobHold.json(),
      });

      await expect.poll(() => received.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2 * 4);
      for (const message of received as { event: string; args: unknown[] }[]) {
        expect(message.event).toBe(SOCKET_EVENTS.seatsUpdate);
        const [update] = message.args as [{ showtimeId: string; seats: Record<string, unknown>[] }];
        expect(Object.keys(update).sort()).toEqual(['seats', 'showtimeId']);
        for (const s of update.seats) expect(Object.keys(s).sort()).toEqual(['id', 'status']);
      }
      const everything = JSON.stringify(received);
      for (const secret of [w.alice.email, w.bob.email, w.alice.id, w.bob.id, ...bookingIds, sessionId]) {
        expect(everything).not.toContain(secret);
      }
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });
});
