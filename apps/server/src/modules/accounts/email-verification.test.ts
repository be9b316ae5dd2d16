import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AuthResponse, GuestOrder, Order, StaffOrder, User } from '@cinema/contract';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  newestMail,
  signedInAdmin,
  STRONG_PASSWORD,
  uniqueEmail,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

const NEW_PASSWORD = 'Matinee#2027';

describe.each(engines)('verified emails and guest orders on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  let seat = 0;

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', PUBLIC_URL: 'https://cinema.test' });
    app = t.app;
    admin = await signedInAdmin(app);
    show = await createShowtimeFixture(app.database.db, { priceCents: 1250, rows: 4, cols: 10 });
  });
  afterAll(() => t.close());

  const nextSeat = () => {
    const id = show.seatIds[Math.floor(seat / 10)]![seat % 10]!;
    seat++;
    return id;
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function register(email: string, language = 'en') {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'accept-language': language },
      payload: { name: 'Vera', email, password: STRONG_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AuthResponse;
  }

  const lastMail = (to: string, kind: string) => newestMail(app, to, kind);

  async function verificationToken(to: string) {
    const mail = await lastMail(to, 'email_verification');
    expect(mail, `a verification email to ${to}`).toBeDefined();
    const link = /https:\/\/cinema\.test\/verify-email\?token=([\w%-]+)/.exec(mail!.text);
    expect(link, mail!.text).not.toBeNull();
    expect(mail!.html).toContain(`href="https://cinema.test/verify-email?token=${link![1]}"`);
    return decodeURIComponent(link![1]!);
  }

  const verify = (token: string) =>
    app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
  const me = async (token: string) =>
    (await app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).json() as User;
  const myOrders = async (token: string) =>
    (
      (await app.inject({ method: 'GET', url: '/api/me/orders', headers: bearer(token) })).json() as {
        orders: Order[];
      }
    ).orders.map((o) => o.ref);
  const sellTo = async (customerEmail: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/box-office/sales',
      headers: admin.headers,
      payload: { showtimeId: show.showtimeId, seatIds: [nextSeat()], paymentMethod: 'cash', customerEmail },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as StaffOrder;
  };

  it('sends a counter sale to an unverified email as a guest order, which the account claims once verified', async () => {
    const email = uniqueEmail('vera');
    const vera = await register(email, 'de');
    expect(vera.user.emailVerified).toBe(false);
    // Registering is not held up, and the link comes in the customer's language.
    const mail = await lastMail(email, 'email_verification');
    expect(mail?.subject).toBe('Bestätige deine E-Mail-Adresse');
    const token = await verificationToken(email);

    // Sold at the counter to Vera's (unverified) email: not in her account, but emailed with a guest link.
    const sale = await sellTo(email.toUpperCase());
    expect(await myOrders(vera.token)).toEqual([]);
    const confirmation = await lastMail(email.toUpperCase(), 'order_confirmation');
    const guestLink = /https:\/\/cinema\.test\/guest-order\?token=([\w%-]+)/.exec(confirmation!.text);
    expect(guestLink, confirmation!.text).not.toBeNull();
    expect(confirmation!.text).not.toContain('https://cinema.test/tickets');
    const guestToken = decodeURIComponent(guestLink![1]!);

    // The link shows the order, its tickets and their PDF, to whoever holds it, without signing in.
    const guest = await app.inject({
      method: 'GET',
      url: `/api/guest-order?token=${encodeURIComponent(guestToken)}`,
    });
    expect(guest.statusCode, guest.body).toBe(200);
    const shown = guest.json() as GuestOrder;
    expect(shown.order).toMatchObject({ ref: sale.ref, status: 'paid', totalCents: 1250 });
    expect(shown.claimed).toBe(false);
    expect(shown.tickets.map((x) => x.bookingId)).toEqual(sale.lines.map((l) => l.bookingId));
    const pdf = await app.inject({
      method: 'GET',
      url: `/api/guest-order/tickets.pdf?token=${encodeURIComponent(guestToken)}`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // The real token with its last character changed (never to itself: one token in 64 ends in "A").
    const altered = `${guestToken.slice(0, -1)}${guestToken.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['x'.repeat(43), altered]) {
      const res = await app.inject({ method: 'GET', url: `/api/guest-order?token=${bad}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    expect((await app.inject({ method: 'GET', url: '/api/guest-order' })).statusCode).toBe(400);

    // Vera opens the verification link: her email is verified and the guest order joins her account.
    const done = await verify(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ ok: true, email, claimedOrders: 1 });
    expect((await me(vera.token)).emailVerified).toBe(true);
    expect(await myOrders(vera.token)).toEqual([sale.ref]);
    // The link keeps working, and no longer asks her to verify an address she has verified.
    const claimed = await app.inject({
      method: 'GET',
      url: `/api/guest-order?token=${encodeURIComponent(guestToken)}`,
    });
    expect(claimed.json()).toMatchObject({ order: { ref: sale.ref }, claimed: true });
    const tickets = await app.inject({ method: 'GET', url: '/api/me/tickets', headers: bearer(vera.token) });
    expect((tickets.json() as { tickets: { bookingId: string }[] }).tickets.map((x) => x.bookingId)).toEqual(
      sale.lines.map((l) => l.bookingId),
    );
    // Once only.
    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_verification_link' });

    // Now the counter sells straight into her account, and the email points at My Tickets.
    const later = await sellTo(email);
    expect((await myOrders(vera.token)).sort()).toEqual([sale.ref, later.ref].sort());
    const laterMail = await lastMail(email, 'order_confirmation');
    expect(laterMail!.subject).toContain(later.ref);
    expect(laterMail!.text).toContain('https://cinema.test/tickets');
    expect(laterMail!.text).not.toContain('guest-order');
  });

  it('does not give a counter sale to whoever registered the email first', async () => {
    const email = uniqueEmail('victim');
    const mallory = await register(email);
    const sale = await sellTo(email);
    // Mallory never opens a link sent to that address: she never sees the order.
    expect(await myOrders(mallory.token)).toEqual([]);
    const pdf = await app.inject({
      method: 'GET',
      url: `/api/me/orders/${sale.ref}/tickets.pdf`,
      headers: bearer(mallory.token),
    });
    expect(pdf.statusCode).toBe(404);
  });

  it('sends the link again on request, and a used link ends the others', async () => {
    const email = uniqueEmail('resend');
    const who = await register(email);
    const first = await verificationToken(email);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/verify-email/resend',
      headers: bearer(who.token),
    });
    expect(res.statusCode).toBe(202);
    const second = await verificationToken(email);
    expect(second).not.toBe(first);
    expect((await verify(second)).statusCode).toBe(200);
    expect((await verify(first)).json()).toMatchObject({ code: 'invalid_verification_link' });
    // Verified: nothing more is sent.
    const before = await lastMail(email, 'email_verification');
    await app.inject({ method: 'POST', url: '/api/auth/verify-email/resend', headers: bearer(who.token) });
    expect((await lastMail(email, 'email_verification'))!.id).toBe(before!.id);
    expect((await app.inject({ method: 'POST', url: '/api/auth/verify-email/resend' })).statusCode).toBe(401);
    expect((await verify('')).statusCode).toBe(400);
  });

  it('ends verification links when the email or password changes; a new email is unverified and gets its own', async () => {
    const email = uniqueEmail('mover');
    const who = await register(email);
    const oldLink = await verificationToken(email);
    const moved = uniqueEmail('moved');
    const change = await app.inject({
      method: 'PUT',
      url: '/api/user/profile',
      headers: bearer(who.token),
      payload: { name: 'Vera', email: moved, currentPassword: STRONG_PASSWORD },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect((change.json() as User).emailVerified).toBe(false);
    expect((await verify(oldLink)).json()).toMatchObject({ code: 'invalid_verification_link' });

    const newLink = await verificationToken(moved);
    const password = await app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: bearer(who.token),
      payload: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(password.statusCode, password.body).toBe(200);
    expect((await verify(newLink)).json()).toMatchObject({ code: 'invalid_verification_link' });
    expect((await me(who.token)).emailVerified).toBe(false);
  });
});
