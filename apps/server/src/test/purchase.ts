import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { SignedIn } from './helpers.ts';

/** Holds the seats for the customer (201 expected); returns the booking ids. */
export async function holdSeats(app: FastifyInstance, who: SignedIn, showtimeId: string, seatIds: string[]) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/showtimes/${showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { bookingIds: string[] }).bookingIds;
}

/** Checks out holds (200 expected), with ticket types or a promo code in `more`; the order's session and reference. */
export async function checkOut(app: FastifyInstance, who: SignedIn, bookingIds: string[], more: object = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/pay/checkout',
    headers: who.headers,
    payload: { bookingIds, ...more },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sessionId: string; orderRef: string };
}

/** Checks out holds and pays with the local provider, as the customer's browser does; the order's reference. */
export async function payForHolds(app: FastifyInstance, who: SignedIn, bookingIds: string[]) {
  const { sessionId } = await checkOut(app, who, bookingIds);
  const pay = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
  expect(pay.statusCode).toBe(303);
  expect(pay.headers.location).toBe(`/checkout/success?session_id=${sessionId}`);
  const lookup = await app.inject({
    method: 'GET',
    url: `/api/pay/lookup?session_id=${sessionId}`,
    headers: who.headers,
  });
  return { sessionId, bookingIds, orderRef: (lookup.json() as { orderRef: string }).orderRef };
}

/** Holds and pays for seats with the local provider. */
export async function buySeats(app: FastifyInstance, who: SignedIn, showtimeId: string, seatIds: string[]) {
  return payForHolds(app, who, await holdSeats(app, who, showtimeId, seatIds));
}
