import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { encodePng } from '../../modules/demo/png.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../fixtures.ts';
import { signedInUser, type SignedIn } from '../helpers.ts';

/** A small cinema with something at stake for every route: a poster, holds, an open checkout and a paid ticket. */
export interface World {
  admin: SignedIn;
  /** Sam works the door (role STAFF). */
  staff: SignedIn;
  /** Alice owns every booking and session below. */
  alice: SignedIn;
  /** Bob is another customer, with nothing of his own. */
  bob: SignedIn;
  show: ShowtimeFixture;
  posterId: string;
  posterMovieId: string;
  /** A distributor movies can be hired from. */
  distributorId: string;
  /** Alice's live hold, no checkout started. */
  heldBookingId: string;
  /** Alice's hold inside an open local checkout session. */
  openBookingId: string;
  openSessionId: string;
  /** Alice's paid (CONFIRMED) ticket and its session. */
  paidBookingId: string;
  paidSessionId: string;
}

function ok(res: LightMyRequestResponse, status: number, what: string) {
  if (res.statusCode !== status)
    throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
  return res;
}

/** A tiny valid PNG: posters are checked by content. */
export const tinyPng = () => encodePng(2, 3, new Uint8Array(2 * 3 * 3).fill(200));

/** A multipart/form-data body by hand, so tests can also send broken ones. */
export function multipart(
  parts: { name: string; value: string | Buffer; filename?: string; type?: string }[],
  boundary = '----cinema-test-boundary',
): { payload: Buffer; headers: { 'content-type': string } } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.type ? `\r\nContent-Type: ${p.type}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function holdOver(app: FastifyInstance, who: SignedIn, showtimeId: string, seatIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/showtimes/${showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
  });
  return (ok(res, 201, 'hold').json() as { bookingIds: string[] }).bookingIds;
}

async function checkoutOver(app: FastifyInstance, who: SignedIn, bookingIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/pay/checkout',
    headers: who.headers,
    payload: { bookingIds },
  });
  return (ok(res, 200, 'checkout').json() as { sessionId: string }).sessionId;
}

/** Builds the world over HTTP where a customer would (holds, checkout, payment), directly where staff set up. */
export async function createWorld(app: FastifyInstance): Promise<World> {
  const admin = await signedInUser(app, { role: 'ADMIN', name: 'Ada Admin' });
  const staff = await signedInUser(app, { role: 'STAFF', name: 'Sam Staff' });
  const alice = await signedInUser(app, { name: 'Alice Owner' });
  const bob = await signedInUser(app, { name: 'Bob Other' });
  const show = await createShowtimeFixture(app.database.db, { rows: 4, cols: 6 });

  const form = multipart([
    { name: 'title', value: 'Poster Movie' },
    { name: 'durationMinutes', value: '90' },
    { name: 'poster', value: tinyPng(), filename: 'p.png', type: 'image/png' },
  ]);
  const movie = ok(
    await app.inject({
      method: 'POST',
      url: '/api/admin/movies',
      headers: { ...admin.headers, ...form.headers },
      payload: form.payload,
    }),
    201,
    'create movie',
  ).json() as { id: string; posterUrl: string };

  const [heldBookingId] = await holdOver(app, alice, show.showtimeId, [show.seatIds[0]![0]!]);
  const [openBookingId] = await holdOver(app, alice, show.showtimeId, [show.seatIds[0]![1]!]);
  const openSessionId = await checkoutOver(app, alice, [openBookingId!]);
  const [paidBookingId] = await holdOver(app, alice, show.showtimeId, [show.seatIds[0]![2]!]);
  const paidSessionId = await checkoutOver(app, alice, [paidBookingId!]);
  ok(await app.inject({ method: 'POST', url: `/api/pay/local/${paidSessionId}/pay` }), 303, 'local payment');
  const distributor = ok(
    await app.inject({
      method: 'POST',
      url: '/api/admin/distributors',
      headers: admin.headers,
      payload: { name: 'World Pictures' },
    }),
    201,
    'add distributor',
  ).json() as { id: string };

  return {
    admin,
    staff,
    alice,
    bob,
    show,
    posterId: movie.posterUrl.split('/').pop()!,
    posterMovieId: movie.id,
    distributorId: distributor.id,
    heldBookingId: heldBookingId!,
    openBookingId: openBookingId!,
    openSessionId,
    paidBookingId: paidBookingId!,
    paidSessionId,
  };
}
