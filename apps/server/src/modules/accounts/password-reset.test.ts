import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mailOutbox, passwordResets } from '../../db/schema/index.ts';
import { createSession } from '../../plugins/auth.ts';
import {
  createTestApp,
  engines,
  STRONG_PASSWORD,
  signedInUser,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.ts';
import { startTestSmtp, type TestSmtp } from '../../test/smtp.ts';
import { settleMail } from '../mail/outbox.service.ts';

const NEW_PASSWORD = 'Matinee#2027';

const forgot = (app: FastifyInstance, email: string) =>
  app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
const reset = (app: FastifyInstance, token: string, newPassword = NEW_PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, newPassword } });
const login = (app: FastifyInstance, email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const me = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}` } });

describe.each(engines)('forgot and reset password on %s', (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      PUBLIC_URL: 'https://cinema.test',
      SMTP_URL: smtp.url,
    });
    app = t.app;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Asks for a link and returns the token from the email that arrived. */
  async function emailedToken(email: string): Promise<string> {
    const before = smtp.received.length;
    const res = await forgot(app, email);
    expect(res.statusCode).toBe(202);
    // Other mail may arrive meanwhile (a verification link after a change of email): the reset link is the one.
    let mail = smtp.received.slice(before).find((m) => m.subject === 'Reset your password');
    for (let n = before + 1; !mail; n++) {
      mail = (await smtp.waitFor(n)).slice(before).find((m) => m.subject === 'Reset your password');
    }
    expect(mail.to).toMatchObject({ text: email.toLowerCase() });
    const link = /https:\/\/cinema\.test\/reset-password\?token=([\w-]+)/.exec(mail.text ?? '');
    expect(link, mail.text).not.toBeNull();
    expect(mail.html).toContain(`href="https://cinema.test/reset-password?token=${link![1]}"`);
    return decodeURIComponent(link![1]!);
  }

  it('emails a single-use link; using it sets the password and ends every session', async () => {
    const ivy = await signedInUser(app, { name: 'Ivy' });
    const otherDevice = await createSession(app.database.db, ivy.id);
    const token = await emailedToken(ivy.email.toUpperCase());

    const res = await reset(app, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    // Signed out everywhere.
    expect((await me(app, ivy.token)).statusCode).toBe(401);
    expect((await me(app, otherDevice)).statusCode).toBe(401);
    expect((await login(app, ivy.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(app, ivy.email, NEW_PASSWORD)).statusCode).toBe(200);

    // Once only.
    const again = await reset(app, token, 'Another#Pass9');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_reset_link' });
    expect((await login(app, ivy.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = smtp.received.length;
    const known = await signedInUser(app);
    const unknownRes = await forgot(app, uniqueEmail('nobody'));
    const knownRes = await forgot(app, known.email);
    expect(unknownRes.statusCode).toBe(202);
    expect(unknownRes.body).toBe(knownRes.body);
    await settleMail();
    await smtp.waitFor(before + 1);
    expect(smtp.received.slice(before).map((m) => (m.to as { text: string }).text)).toEqual([known.email]);
  });

  it('refuses an expired link, an unknown token and a weak password (which leaves the link usable)', async () => {
    const jon = await signedInUser(app, { name: 'Jon' });
    const token = await emailedToken(jon.email);

    const weak = await reset(app, token, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'weak_password' });
    expect((await me(app, jon.token)).statusCode).toBe(200);

    expect((await reset(app, 'not-a-real-token')).json()).toMatchObject({ code: 'invalid_reset_link' });

    // An hour later the link is dead.
    await app.database.db
      .update(passwordResets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResets.userId, jon.id));
    const expired = await reset(app, token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'invalid_reset_link' });
    expect((await me(app, jon.token)).statusCode).toBe(200);
    expect((await login(app, jon.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('sends at most three links an hour to one account, and a newer link kills the older ones once used', async () => {
    const kim = await signedInUser(app, { name: 'Kim' });
    const first = await emailedToken(kim.email);
    const second = await emailedToken(kim.email);
    await emailedToken(kim.email);
    const res = await forgot(app, kim.email);
    expect(res.statusCode).toBe(202);
    await settleMail();
    const toKim = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, kim.email));
    expect(toKim).toHaveLength(3);

    expect((await reset(app, second)).statusCode).toBe(200);
    expect((await reset(app, first)).json()).toMatchObject({ code: 'invalid_reset_link' });
  });

  it('ends every outstanding reset link when the password or the email changes', async () => {
    const lea = await signedInUser(app, { name: 'Lea' });
    const beforePassword = await emailedToken(lea.email);
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: lea.headers,
      payload: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await reset(app, beforePassword, 'Stolen#Link1');
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ code: 'invalid_reset_link' });
    expect((await login(app, lea.email, NEW_PASSWORD)).statusCode).toBe(200);

    // A link sent to the old address dies with the change of email.
    const toOldAddress = await emailedToken(lea.email);
    const moved = uniqueEmail('lea-new');
    const profile = await app.inject({
      method: 'PUT',
      url: '/api/user/profile',
      headers: lea.headers,
      payload: { name: 'Lea', email: moved, currentPassword: NEW_PASSWORD },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const old = await reset(app, toOldAddress, 'Stolen#Link2');
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ code: 'invalid_reset_link' });
    expect((await login(app, moved, NEW_PASSWORD)).statusCode).toBe(200);
    // A name change alone leaves a link alone.
    const fresh = await emailedToken(moved);
    await app.inject({
      method: 'PUT',
      url: '/api/user/profile',
      headers: lea.headers,
      payload: { name: 'Lea B.', email: moved },
    });
    expect((await reset(app, fresh)).statusCode).toBe(200);
  });
});

describe('forgot password request limit', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('limits requests from one address (429), whatever the email', async () => {
    t = await createTestApp('pglite');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await forgot(t.app, uniqueEmail('probe'))).statusCode);
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
    await settleMail();
  });
});
