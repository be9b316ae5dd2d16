import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { settleMail } from '../modules/mail/outbox.service.ts';
import { loggableUrl } from '../plugins/security.ts';
import { createShowtimeFixture } from './fixtures.ts';
import {
  createTestDatabase,
  engines,
  newestMail,
  signedInAdmin,
  signedInUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestDatabase,
} from './helpers.ts';

describe('URLs as logged', () => {
  it('cut checkout session ids to a prefix and link tokens whole', () => {
    const id = randomUUID();
    expect(loggableUrl(`/api/pay/local/${id}/pay`)).toBe(`/api/pay/local/${id.slice(0, 8)}…/pay`);
    expect(loggableUrl(`/checkout/success?session_id=${id}`)).toBe(
      `/checkout/success?session_id=${id.slice(0, 8)}…`,
    );
    const token = randomBytes(32).toString('base64url');
    expect(loggableUrl(`/reset-password?token=${token}`)).toBe('/reset-password?token=[redacted]');
    expect(loggableUrl(`/x?a=1&inviteToken=${token}&b=2`)).toBe('/x?a=1&inviteToken=[redacted]&b=2');
    expect(loggableUrl(`/x%3Ftoken%3D${token}`)).toBe('/x%3Ftoken%3D[redacted]');
    expect(loggableUrl(`/api/invites/${token}/accept`)).toBe('/api/invites/[redacted]/accept');
    expect(loggableUrl('/api/movies?page=2')).toBe('/api/movies?page=2');
    expect(loggableUrl(`/api/admin/showtimes/${id}/booked`)).toBe(`/api/admin/showtimes/${id}/booked`);
  });
});

describe.each(engines)('the server log on %s', (engine) => {
  const lines: string[] = [];
  let testDb: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    app = await buildApp(
      testConfig({
        DATA_DIR: 'memory://',
        RATE_LIMIT: 'off',
        LOG_LEVEL: 'trace',
        PUBLIC_URL: 'https://cinema.test',
      }),
      { database: testDb.database, logStream: { write: (line) => void lines.push(line) } },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  async function linkToken(to: string, kind: string, page: string) {
    const mail = await newestMail(app, to, kind);
    const found = new RegExp(`https://cinema\\.test/${page}\\?token=([\\w-]+)`).exec(mail?.text ?? '');
    expect(found, `${kind} to ${to}`).not.toBeNull();
    return found![1]!;
  }

  it('never holds a reset, verification or guest-order token, nor a whole checkout id', async () => {
    const secrets: string[] = [];
    const get = (url: string) => app.inject({ method: 'GET', url });

    // Password reset: the emailed link opened (the web page's address), then used.
    const ivy = await signedInUser(app, { name: 'Ivy' });
    await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: ivy.email } });
    const reset = await linkToken(ivy.email, 'password_reset', 'reset-password');
    secrets.push(reset);
    await get(`/reset-password?token=${reset}`);
    const used = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: reset, newPassword: 'Matinee#2027' },
    });
    expect(used.statusCode).toBe(200);
    expect(lines.join('\n')).not.toContain(reset);

    // Email verification: registered, the link opened and used.
    const email = uniqueEmail('logged');
    await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Lou', email, password: STRONG_PASSWORD },
    });
    const verify = await linkToken(email, 'email_verification', 'verify-email');
    secrets.push(verify);
    await get(`/verify-email?token=${verify}`);
    await app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token: verify } });

    // A guest order: sold at the counter to an address no verified account has, its link and PDF opened.
    const admin = await signedInAdmin(app);
    const show = await createShowtimeFixture(app.database.db, { priceCents: 1000, rows: 1, cols: 4 });
    const guestEmail = uniqueEmail('guest');
    const sale = await app.inject({
      method: 'POST',
      url: '/api/admin/box-office/sales',
      headers: admin.headers,
      payload: {
        showtimeId: show.showtimeId,
        seatIds: [show.seatIds[0]![0]!],
        paymentMethod: 'cash',
        customerEmail: guestEmail,
      },
    });
    expect(sale.statusCode, sale.body).toBe(200);
    const guest = await linkToken(guestEmail, 'order_confirmation', 'guest-order');
    secrets.push(guest);
    await get(`/guest-order?token=${guest}`);
    expect((await get(`/api/guest-order?token=${guest}`)).statusCode).toBe(200);
    expect((await get(`/api/guest-order/tickets.pdf?token=${guest}`)).statusCode).toBe(200);

    // Checkout ids: the hosted page and the lookup after it.
    const checkout = randomUUID();
    secrets.push(checkout.slice(8));
    await get(`/api/pay/local/${checkout}`);
    await get(`/api/pay/lookup?session_id=${checkout}`);
    await get(`/checkout/success?session_id=${checkout}`);

    // Whatever else writes a URL into a line (an error message, a plugin): masked on the way out.
    const stray = randomBytes(32).toString('base64url');
    secrets.push(stray);
    app.log.warn(`could not send https://cinema.test/reset-password?token=${stray}`);

    await settleMail();
    expect(lines.length).toBeGreaterThan(20);
    const all = lines.join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(all).toContain('/reset-password?token=[redacted]');
    expect(all).toContain('/api/guest-order?token=[redacted]');
    expect(all).toContain(`/api/pay/local/${checkout.slice(0, 8)}…`);
  });
});
