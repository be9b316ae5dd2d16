import { STRONG_PASSWORD, uniqueEmail } from '../helpers.ts';
import type { World } from './world.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone; a signed-in customer (or admin); an admin (or, for the door, staff too: the
 * authorization matrix says which); whoever holds the checkout session's
 * unguessable id (the local hosted payment page, like a provider's); the payment provider (signed webhook).
 */
export type Access = 'public' | 'customer' | 'admin' | 'session' | 'signed';

export interface RouteSpec {
  method: HttpMethod;
  /** Fastify's spelling: `/api/movies/:id`. */
  path: string;
  access: Access;
  /** How the body travels; no body when absent. */
  body?: 'json' | 'multipart' | 'form' | 'raw';
  /** A body the route accepts in the world: fuzzing spoils it one field at a time. */
  validBody?: (w: World) => Record<string, unknown>;
  /** The query the route reads. */
  query?: (w: World) => Record<string, string>;
  /** Ids of the world that reach past "not found" for the `:id` segment. */
  ids?: (w: World) => string[];
  /** Answers with HTML pages (the local test checkout) rather than JSON. */
  html?: boolean;
  /** Each answer takes a while (a copy of the whole database): its fuzzing gets more time. */
  slow?: boolean;
}

const future = () => new Date(Date.now() + 400 * 24 * 3600_000 + Math.floor(Math.random() * 1e6) * 60_000);

/** Every route of the API, checked against the OpenAPI document (route-table.test) so none is forgotten. */
/** A plain layout of rows × cols standard seats, as the layout API takes it. */
export const plainRows = (rows: number, cols: number) =>
  Array.from({ length: rows }, (_, r) => ({
    label: String.fromCharCode(65 + r),
    cells: Array.from({ length: cols }, () => ({ kind: 'SEAT', type: 'STANDARD' })),
  }));

export const ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/api/health', access: 'public' },
  { method: 'GET', path: '/api/health/live', access: 'public' },
  { method: 'GET', path: '/api/settings', access: 'public' },
  {
    method: 'POST',
    path: '/api/auth/register',
    access: 'public',
    body: 'json',
    validBody: () => ({ name: 'Rita Register', email: uniqueEmail('fuzz'), password: STRONG_PASSWORD }),
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    body: 'json',
    validBody: (w) => ({ email: w.bob.email, password: STRONG_PASSWORD }),
  },
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    access: 'public',
    body: 'json',
    validBody: (w) => ({ email: w.bob.email }),
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    access: 'public',
    body: 'json',
    validBody: () => ({ token: 'an-unknown-reset-token', newPassword: 'Changed#Pass1' }),
  },
  {
    method: 'POST',
    path: '/api/auth/verify-email',
    access: 'public',
    body: 'json',
    validBody: () => ({ token: 'an-unknown-verification-token' }),
  },
  { method: 'POST', path: '/api/auth/verify-email/resend', access: 'customer' },
  {
    method: 'GET',
    path: '/api/guest-order',
    access: 'public',
    query: () => ({ token: 'an-unknown-guest-token' }),
  },
  {
    method: 'GET',
    path: '/api/guest-order/tickets.pdf',
    access: 'public',
    query: () => ({ token: 'an-unknown-guest-token' }),
  },
  { method: 'GET', path: '/api/gift-cards/:code', access: 'public', ids: () => ['ABCD-EFGH-JKMN-PQRS'] },
  { method: 'GET', path: '/api/admin/gift-cards', access: 'admin', query: () => ({ q: 'example.com' }) },
  {
    method: 'GET',
    path: '/api/admin/gift-cards/liability',
    access: 'admin',
    query: () => ({ date: '2026-01-31' }),
  },
  { method: 'GET', path: '/api/admin/gift-cards/:code', access: 'admin', ids: () => ['ABCD-EFGH-JKMN-PQRS'] },
  {
    method: 'POST',
    path: '/api/admin/gift-cards/:code/void',
    access: 'admin',
    body: 'json',
    ids: () => ['ABCD-EFGH-JKMN-PQRS'],
    validBody: () => ({ reason: 'Fuzzing' }),
  },
  { method: 'POST', path: '/api/auth/logout', access: 'customer' },
  { method: 'GET', path: '/api/user/me', access: 'customer' },
  {
    method: 'PUT',
    path: '/api/user/profile',
    access: 'customer',
    body: 'json',
    validBody: () => ({
      name: 'Carl Changed',
      email: uniqueEmail('profile'),
      currentPassword: STRONG_PASSWORD,
    }),
  },
  {
    method: 'PUT',
    path: '/api/user/password',
    access: 'customer',
    body: 'json',
    validBody: () => ({ currentPassword: STRONG_PASSWORD, newPassword: 'Changed#Pass1' }),
  },
  { method: 'GET', path: '/api/movies', access: 'public' },
  { method: 'GET', path: '/api/movies/:id', access: 'public', ids: (w) => [w.show.movieId, w.posterMovieId] },
  { method: 'GET', path: '/api/posters/:id', access: 'public', ids: (w) => [w.posterId] },
  {
    method: 'GET',
    path: '/api/movies/:id/showtimes',
    access: 'public',
    ids: (w) => [w.show.movieId, w.posterMovieId],
  },
  { method: 'GET', path: '/api/showtimes/:id/seats', access: 'public', ids: (w) => [w.show.showtimeId] },
  {
    method: 'GET',
    path: '/api/schedule',
    access: 'public',
    query: () => ({ date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) }),
  },
  {
    method: 'POST',
    path: '/api/showtimes/:id/hold',
    access: 'customer',
    body: 'json',
    ids: (w) => [w.show.showtimeId],
    validBody: (w) => ({ seatIds: [w.show.allSeatIds[w.show.allSeatIds.length - 1]] }),
  },
  {
    method: 'POST',
    path: '/api/showtimes/:id/waitlist',
    access: 'customer',
    body: 'json',
    validBody: () => ({ count: 2, together: true }),
    ids: (w) => [w.show.showtimeId],
  },
  {
    method: 'DELETE',
    path: '/api/showtimes/:id/waitlist',
    access: 'customer',
    ids: (w) => [w.show.showtimeId],
  },
  { method: 'GET', path: '/api/me/waitlist', access: 'customer' },
  { method: 'GET', path: '/api/admin/waitlist', access: 'admin' },
  {
    method: 'GET',
    path: '/api/admin/showtimes/:id/waitlist',
    access: 'admin',
    ids: (w) => [w.show.showtimeId],
  },
  {
    method: 'POST',
    path: '/api/showtimes/:id/best-available',
    access: 'customer',
    body: 'json',
    validBody: () => ({ count: 2 }),
    ids: (w) => [w.show.showtimeId],
  },
  {
    method: 'POST',
    path: '/api/showtimes/bookings/more-time',
    access: 'customer',
    body: 'json',
    validBody: (w) => ({ bookingIds: [w.heldBookingId] }),
  },
  {
    method: 'DELETE',
    path: '/api/showtimes/bookings/cancel',
    access: 'customer',
    body: 'json',
    validBody: (w) => ({ bookingIds: [w.heldBookingId, w.paidBookingId] }),
  },
  {
    method: 'POST',
    path: '/api/pay/checkout',
    access: 'customer',
    body: 'json',
    validBody: (w) => ({ bookingIds: [w.heldBookingId] }),
  },
  {
    method: 'GET',
    path: '/api/pay/lookup',
    access: 'customer',
    query: (w) => ({ session_id: w.paidSessionId }),
  },
  { method: 'POST', path: '/api/pay/webhook', access: 'signed', body: 'raw' },
  {
    method: 'GET',
    path: '/api/pay/local/:id',
    access: 'session',
    html: true,
    ids: (w) => [w.openSessionId, w.paidSessionId],
  },
  {
    method: 'POST',
    path: '/api/pay/local/:id/pay',
    access: 'session',
    body: 'form',
    html: true,
    ids: (w) => [w.openSessionId, w.paidSessionId],
  },
  {
    method: 'POST',
    path: '/api/pay/local/:id/decline',
    access: 'session',
    body: 'form',
    html: true,
    ids: (w) => [w.openSessionId, w.paidSessionId],
  },
  {
    method: 'GET',
    path: '/api/pay/local/:id/cancel',
    access: 'session',
    html: true,
    ids: (w) => [w.openSessionId, w.paidSessionId],
  },
  {
    method: 'POST',
    path: '/api/pay/local/:id/cancel',
    access: 'session',
    body: 'form',
    html: true,
    ids: (w) => [w.openSessionId, w.paidSessionId],
  },
  { method: 'GET', path: '/api/me/tickets', access: 'customer' },
  { method: 'GET', path: '/api/me/orders', access: 'customer', query: () => ({ page: '1' }) },
  { method: 'GET', path: '/api/me/orders/:ref', access: 'customer' },
  { method: 'GET', path: '/api/me/orders/:ref/tickets.pdf', access: 'customer' },
  { method: 'GET', path: '/api/me/orders/:ref/receipt.pdf', access: 'customer' },
  {
    method: 'POST',
    path: '/api/pay/quote',
    access: 'customer',
    body: 'json',
    validBody: (w) => ({ bookingIds: [w.heldBookingId] }),
  },
  { method: 'GET', path: '/api/showtimes/:id/prices', access: 'public', ids: (w) => [w.show.showtimeId] },
  { method: 'GET', path: '/api/admin/audit', access: 'admin' },
  { method: 'GET', path: '/api/admin/backup', access: 'admin', slow: true },
  {
    method: 'GET',
    path: '/api/admin/reports/sales',
    access: 'admin',
    query: () => ({ from: '2026-01-01', to: '2026-01-31', groupBy: 'movie' }),
  },
  {
    method: 'GET',
    path: '/api/admin/reports/film-hire',
    access: 'admin',
    query: () => ({ week: '2026-03-20' }),
  },
  {
    method: 'GET',
    path: '/api/admin/reports/box-office',
    access: 'admin',
    query: () => ({ week: '2026-03-20' }),
  },
  { method: 'GET', path: '/api/admin/distributors', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/distributors',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: `Fuzz ${Math.random().toString(36).slice(2, 8)}` }),
  },
  {
    method: 'PUT',
    path: '/api/admin/distributors/:id',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: `Fuzz ${Math.random().toString(36).slice(2, 8)}` }),
    ids: (w) => [w.distributorId],
  },
  { method: 'GET', path: '/api/admin/film-hire/terms', access: 'admin' },
  {
    method: 'PUT',
    path: '/api/admin/movies/:id/film-hire',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({
      distributorId: w.distributorId,
      percent: 47.5,
      guaranteeCents: 10_000,
      scale: [{ fromWeek: 2, percent: 40 }],
    }),
    ids: (w) => [w.posterMovieId],
  },
  {
    method: 'DELETE',
    path: '/api/admin/movies/:id/film-hire',
    access: 'admin',
    ids: (w) => [w.posterMovieId],
  },
  { method: 'GET', path: '/api/admin/orders', access: 'admin', query: () => ({ q: 'example', page: '1' }) },
  { method: 'GET', path: '/api/admin/orders/:ref', access: 'admin' },
  { method: 'GET', path: '/api/admin/orders/:ref/receipt.pdf', access: 'admin' },
  { method: 'GET', path: '/api/admin/taxes', access: 'admin' },
  {
    method: 'PUT',
    path: '/api/admin/taxes',
    access: 'admin',
    body: 'json',
    validBody: () => ({ rates: [{ kind: 'TICKET', ratePercent: 7 }] }),
  },
  { method: 'GET', path: '/api/admin/fees', access: 'admin' },
  {
    method: 'PUT',
    path: '/api/admin/fees',
    access: 'admin',
    body: 'json',
    validBody: () => {
      const fee = { perTicketCents: 50, perOrderCents: 0, exemptTicketTypeIds: [], refundable: false };
      return { online: fee, counter: fee };
    },
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:ref/refund',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({ bookingIds: [w.paidBookingId], reason: 'Fuzz' }),
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:ref/exchange',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({ moves: [{ bookingId: w.paidBookingId, seatId: w.show.allSeatIds[0] }] }),
  },
  {
    method: 'POST',
    path: '/api/admin/box-office/sales',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({
      showtimeId: w.show.showtimeId,
      seatIds: [w.show.allSeatIds[w.show.allSeatIds.length - 1]],
      paymentMethod: 'cash',
    }),
  },
  {
    method: 'POST',
    path: '/api/admin/box-office/quote',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({
      showtimeId: w.show.showtimeId,
      seatIds: [w.show.allSeatIds[w.show.allSeatIds.length - 1]],
      paymentMethod: 'cash',
    }),
  },
  { method: 'GET', path: '/api/admin/outbox', access: 'admin', query: () => ({ page: '1' }) },
  { method: 'GET', path: '/api/menu', access: 'public' },
  { method: 'GET', path: '/api/products', access: 'public' },
  { method: 'GET', path: '/api/admin/concessions', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/products',
    access: 'admin',
    body: 'json',
    validBody: () => ({
      name: `Fuzz ${Math.random().toString(36).slice(2, 8)}`,
      category: 'Fuzz',
      priceCents: 300,
    }),
  },
  {
    method: 'PUT',
    path: '/api/admin/products/:id',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: 'Fuzz snack', category: 'Fuzz', priceCents: 300 }),
  },
  {
    method: 'POST',
    path: '/api/admin/products/:id/stock',
    access: 'admin',
    body: 'json',
    validBody: () => ({ stock: 5 }),
  },
  { method: 'DELETE', path: '/api/admin/products/:id', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/product-categories',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: `Fuzz ${Math.random().toString(36).slice(2, 8)}` }),
  },
  {
    method: 'PUT',
    path: '/api/admin/product-categories/:id',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: `Fuzz ${Math.random().toString(36).slice(2, 8)}` }),
  },
  { method: 'DELETE', path: '/api/admin/product-categories/:id', access: 'admin' },
  { method: 'GET', path: '/api/admin/kitchen', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/concession-orders/:ref/status',
    access: 'admin',
    body: 'json',
    validBody: () => ({ status: 'ready' }),
  },
  { method: 'GET', path: '/api/admin/ticket-types', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/ticket-types',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: `Fuzz ${Math.random().toString(36).slice(2, 8)}` }),
  },
  {
    method: 'PUT',
    path: '/api/admin/ticket-types/:id',
    access: 'admin',
    body: 'json',
    validBody: () => ({ active: true }),
  },
  { method: 'DELETE', path: '/api/admin/ticket-types/:id', access: 'admin' },
  { method: 'GET', path: '/api/admin/price-cards', access: 'admin' },
  { method: 'POST', path: '/api/admin/price-cards', access: 'admin', body: 'json' },
  { method: 'PUT', path: '/api/admin/price-cards/:id', access: 'admin', body: 'json' },
  { method: 'DELETE', path: '/api/admin/price-cards/:id', access: 'admin' },
  { method: 'GET', path: '/api/admin/promo-codes', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/promo-codes',
    access: 'admin',
    body: 'json',
    validBody: () => ({ code: `FUZZ${Math.random().toString(36).slice(2, 8)}`, percentOff: 10 }),
  },
  { method: 'DELETE', path: '/api/admin/promo-codes/:id', access: 'admin' },
  { method: 'GET', path: '/api/admin/movies', access: 'admin' },
  { method: 'POST', path: '/api/admin/movies', access: 'admin', body: 'multipart' },
  { method: 'DELETE', path: '/api/admin/movies/:id', access: 'admin', ids: (w) => [w.show.movieId] },
  { method: 'GET', path: '/api/admin/rooms', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/rooms',
    access: 'admin',
    body: 'json',
    validBody: () => ({ name: `Hall ${Math.random().toString(36).slice(2, 8)}`, rows: 2, cols: 3 }),
  },
  {
    method: 'GET',
    path: '/api/admin/showtimes',
    access: 'admin',
    query: (w) => ({ movieId: w.show.movieId }),
  },
  {
    method: 'POST',
    path: '/api/admin/showtimes',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({
      movieId: w.posterMovieId,
      auditoriumId: w.show.hallId,
      startsAt: future().toISOString(),
      priceCents: 1200,
    }),
  },
  {
    method: 'POST',
    path: '/api/admin/showtimes/batch',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({
      movieId: w.posterMovieId,
      auditoriumIds: [w.show.hallId],
      from: future().toISOString().slice(0, 10),
      to: future().toISOString().slice(0, 10),
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      times: ['09:15'],
      priceCents: 1200,
      dryRun: true,
    }),
  },
  {
    method: 'GET',
    path: '/api/admin/showtimes/manage',
    access: 'admin',
    query: (w) => ({ movieId: w.show.movieId, page: '1' }),
  },
  { method: 'GET', path: '/api/admin/halls', access: 'admin' },
  {
    method: 'POST',
    path: '/api/admin/halls',
    access: 'admin',
    body: 'json',
    validBody: () => ({
      name: `Fuzz hall ${Math.random().toString(36).slice(2, 8)}`,
      layout: { rows: plainRows(2, 3) },
    }),
  },
  { method: 'GET', path: '/api/admin/halls/:id/layout', access: 'admin', ids: (w) => [w.show.hallId] },
  {
    method: 'PUT',
    path: '/api/admin/halls/:id/layout',
    access: 'admin',
    body: 'json',
    ids: (w) => [w.show.hallId],
    // The world's own layout again: accepted, and nothing moves.
    validBody: () => ({ rows: plainRows(4, 6) }),
  },
  { method: 'DELETE', path: '/api/admin/showtimes/:id', access: 'admin', ids: (w) => [w.show.showtimeId] },
  {
    method: 'POST',
    path: '/api/admin/showtimes/:id/accessible-release',
    access: 'admin',
    ids: (w) => [w.show.showtimeId],
  },
  {
    method: 'GET',
    path: '/api/admin/showtimes/:id/booked',
    access: 'admin',
    ids: (w) => [w.show.showtimeId],
  },
  {
    method: 'GET',
    path: '/api/admin/showtimes/:id/tickets',
    access: 'admin',
    ids: (w) => [w.show.showtimeId],
  },
  {
    method: 'POST',
    path: '/api/admin/scan',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({ bookingId: w.paidBookingId }),
  },
  {
    method: 'POST',
    path: '/api/admin/scan/undo',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({ bookingId: w.paidBookingId }),
  },
  {
    method: 'POST',
    path: '/api/admin/scan/sync',
    access: 'admin',
    body: 'json',
    validBody: (w) => ({
      showtimeId: w.show.showtimeId,
      deviceLabel: 'Door 1',
      checkIns: [{ bookingId: w.paidBookingId, scannedAt: new Date().toISOString() }],
    }),
  },
  { method: 'GET', path: '/api/admin/scan/showtimes', access: 'admin' },
  {
    method: 'GET',
    path: '/api/admin/scan/showtimes/:id',
    access: 'admin',
    ids: (w) => [w.show.showtimeId],
  },
  { method: 'GET', path: '/api/admin/users', access: 'admin', query: (w) => ({ q: w.bob.email }) },
  {
    method: 'PUT',
    path: '/api/admin/users/:id/role',
    access: 'admin',
    body: 'json',
    ids: (w) => [w.bob.id],
    validBody: () => ({ role: 'USER' }),
  },
];

/** `/api/movies/:id` → `/api/movies/{id}`, as the OpenAPI document spells paths. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The routes the app actually serves, read from its OpenAPI document (hidden routes excluded). */
export function servedRoutes(app: { swagger(): unknown }): { method: HttpMethod; path: string }[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
      .map((m) => ({ method: m.toUpperCase() as HttpMethod, path })),
  );
}
