import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { loginFailures, sessions, users } from '../../db/schema/index.ts';
import {
  createTestApp,
  engines,
  json,
  signedInUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.ts';
import { ACCOUNT_RATE_LIMITS } from './accounts.routes.ts';
import { LOGIN_LOCK_FAILURES } from './accounts.service.ts';
import { removeStaleAccountsData } from './housekeeping.ts';

const NEW_PASSWORD = 'Matinee!2027';

describe.each(engines)('accounts API on %s (RATE_LIMIT=off)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off' });
  });
  afterAll(() => t.close());

  const post = (
    url: string,
    payload: unknown,
    headers: Record<string, string> = {},
    remoteAddress?: string,
  ) => t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress });
  const register = (body: unknown) => post('/api/auth/register', body);
  const login = (email: string, password: string, remoteAddress?: string) =>
    post('/api/auth/login', { email, password }, {}, remoteAddress);
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}` } });
  const put = (url: string, token: string | null, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url,
      payload: payload as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  describe('POST /api/auth/register', () => {
    it('creates a customer account and signs it in', async () => {
      const email = uniqueEmail('reg');
      const res = await register({ name: 'Rita Register', email, password: STRONG_PASSWORD });
      expect(res.statusCode).toBe(201);
      const body = json(res);
      expect(body).toEqual({
        user: { id: expect.any(String), name: 'Rita Register', email, role: 'USER', emailVerified: false },
        token: expect.any(String),
      });
      const who = await me(body.token);
      expect(who.statusCode).toBe(200);
      expect(json(who)).toEqual(body.user);
    });

    it('trims and lower-cases the email and trims the name', async () => {
      const email = uniqueEmail('Trim.Me');
      const res = await register({
        name: '  Tom Trim ',
        email: `  ${email.toUpperCase()}  `,
        password: STRONG_PASSWORD,
      });
      expect(res.statusCode).toBe(201);
      expect(json(res).user).toMatchObject({ name: 'Tom Trim', email: email.toLowerCase() });
      expect((await login(` ${email.toUpperCase()} `, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses an email already registered in another letter case (409)', async () => {
      const email = uniqueEmail('dup');
      expect((await register({ name: 'First', email, password: STRONG_PASSWORD })).statusCode).toBe(201);
      const res = await register({ name: 'Second', email: email.toUpperCase(), password: STRONG_PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({ error: 'Email is already registered', code: 'email_taken' });
    });

    it.each([
      ['too short', 'Ab1!xyz', 'at least 8 characters'],
      ['too long (73 characters)', `Aa1!${'x'.repeat(69)}`, 'at most 72 characters'],
      ['without an uppercase letter', 'popcorn#2026', 'an uppercase letter'],
      ['without a lowercase letter', 'POPCORN#2026', 'a lowercase letter'],
      ['without a number', 'Popcorn#Time', 'a number'],
      ['without a symbol', 'Popcorn2026', 'a symbol'],
    ])('refuses a password %s, saying what is missing (400)', async (_label, password, missing) => {
      const email = uniqueEmail('weak');
      const res = await register({ name: 'Wanda Weak', email, password });
      expect(res.statusCode).toBe(400);
      const body = json(res);
      expect(body.code).toBe('weak_password');
      expect(body.error).toMatch(/^Password must /);
      expect(body.error).toContain(missing);
      // Nothing was created: the same email can still register with a strong password.
      expect((await register({ name: 'Wanda Weak', email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    });

    it('names everything a password lacks in one message', async () => {
      const res = await register({ name: 'Ann', email: uniqueEmail(), password: 'abc' });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({
        error:
          'Password must be at least 8 characters, contain an uppercase letter, contain a number and contain a symbol.',
        code: 'weak_password',
      });
    });

    it('accepts passwords of exactly 8 and exactly 72 characters', async () => {
      for (const password of ['Ab1!cdef', `Aa1!${'x'.repeat(68)}`]) {
        const res = await register({ name: 'Edge', email: uniqueEmail('edge'), password });
        expect(res.statusCode).toBe(201);
      }
    });

    it.each([
      ['a body that is not JSON', '{"name": "Al", "email":', 'application/json', 400],
      ['no body at all', undefined, undefined, 400],
      ['missing fields', '{}', 'application/json', 400],
      ['wrong types', JSON.stringify({ name: 7, email: ['x'], password: true }), 'application/json', 400],
      [
        'an invalid email',
        JSON.stringify({ name: 'Al', email: 'not-an-email', password: STRONG_PASSWORD }),
        'application/json',
        400,
      ],
      ['a text body', 'name=Al', 'text/plain', 400],
      ['an XML body', '<user/>', 'application/xml', 415],
    ])('answers %s with a JSON error', async (_label, payload, contentType, status) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload,
        headers: contentType ? { 'content-type': contentType } : {},
      });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(json(res)).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    });

    it('lets exactly one of several simultaneous registrations of one email through; the rest get 409', async () => {
      const email = uniqueEmail('race');
      const variants = [
        email,
        email.toUpperCase(),
        ` ${email} `,
        email,
        email.toUpperCase(),
        email,
        email,
        email,
      ];
      // On PostgreSQL, a lock on the users table held elsewhere makes every insert wait, then all go at once.
      const blocker = t.url ? new pg.Client({ connectionString: t.url }) : null;
      if (blocker) {
        await blocker.connect();
        await blocker.query('begin');
        await blocker.query('lock table users in access exclusive mode');
      }
      const pending = Promise.all(
        variants.map((e, i) => register({ name: `Racer ${i}`, email: e, password: STRONG_PASSWORD })),
      );
      if (blocker) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await blocker.query('commit');
        await blocker.end();
      }
      const results = await pending;
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, ...Array(variants.length - 1).fill(409)]);
      for (const r of results.filter((r) => r.statusCode === 409)) {
        expect(json(r)).toEqual({ error: 'Email is already registered', code: 'email_taken' });
      }
      const rows = await t.database.db.select().from(users).where(eq(users.email, email));
      expect(rows).toHaveLength(1);
    });

    it('shows the account routes in the API docs', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      const paths = Object.keys(json(res).paths);
      for (const path of [
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/logout',
        '/api/user/me',
        '/api/user/profile',
        '/api/user/password',
      ]) {
        expect(paths).toContain(path);
      }
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with the email in any letter case and returns the user and a working token', async () => {
      const u = await signedInUser(t.app);
      const res = await login(`  ${u.email.toUpperCase()}`, STRONG_PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = json(res);
      expect(body).toEqual({
        user: { id: u.id, name: u.name, email: u.email, role: 'USER', emailVerified: false },
        token: expect.any(String),
      });
      expect(body.token).not.toBe(u.token);
      expect((await me(body.token)).statusCode).toBe(200);
    });

    it('tells an admin their role', async () => {
      const admin = await signedInUser(t.app, { role: 'ADMIN' });
      const res = await login(admin.email, STRONG_PASSWORD);
      expect(json(res).user.role).toBe('ADMIN');
    });

    it('says only "Invalid credentials" for a wrong password and for an unknown email', async () => {
      const u = await signedInUser(t.app);
      const wrong = await login(u.email, 'Wrong#Pass1');
      const unknown = await login(uniqueEmail('nobody'), STRONG_PASSWORD);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(json(wrong)).toEqual({ error: 'Invalid credentials', code: 'invalid_credentials' });
      expect(json(unknown)).toEqual(json(wrong));
    });

    it('answers malformed sign-ins with 400 and a JSON error', async () => {
      for (const payload of [
        {},
        { email: 'a@b.co' },
        { email: 5, password: STRONG_PASSWORD },
        { email: '', password: '' },
      ]) {
        const res = await post('/api/auth/login', payload);
        expect(res.statusCode).toBe(400);
        expect(json(res).error).toEqual(expect.any(String));
      }
      const notJson = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: '{oops',
        headers: { 'content-type': 'application/json' },
      });
      expect(notJson.statusCode).toBe(400);
      expect(json(notJson)).toMatchObject({ error: expect.any(String), code: 'bad_request' });
    });

    it(`locks an email from one address after ${LOGIN_LOCK_FAILURES} failures, even with RATE_LIMIT=off`, async () => {
      const u = await signedInUser(t.app);
      const address = '203.0.113.7';
      for (let i = 0; i < LOGIN_LOCK_FAILURES; i++) {
        expect((await login(u.email, `Wrong#Pass${i}`, address)).statusCode).toBe(401);
      }
      // Even the right password is refused now.
      const locked = await login(u.email.toUpperCase(), STRONG_PASSWORD, address);
      expect(locked.statusCode).toBe(429);
      expect(json(locked)).toEqual({
        error: 'Too many failed sign-in attempts. Try again in 15 minutes.',
        code: 'too_many_requests',
      });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

      // The account itself is not locked for other addresses.
      expect((await login(u.email, STRONG_PASSWORD, '198.51.100.9')).statusCode).toBe(200);

      // Fifteen minutes later the lock has lifted.
      await t.database.db
        .update(loginFailures)
        .set({ at: sql`${loginFailures.at} - interval '16 minutes'` })
        .where(and(eq(loginFailures.email, u.email), eq(loginFailures.ip, address)));
      expect((await login(u.email, STRONG_PASSWORD, address)).statusCode).toBe(200);
    });

    it('forgets earlier failures after a successful sign-in', async () => {
      const u = await signedInUser(t.app);
      const address = '203.0.113.8';
      const failTimes = (n: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => login(u.email, `Wrong#${i}xx`, address)));
      expect((await failTimes(LOGIN_LOCK_FAILURES - 1)).every((r) => r.statusCode === 401)).toBe(true);
      expect((await login(u.email, STRONG_PASSWORD, address)).statusCode).toBe(200);
      expect((await failTimes(LOGIN_LOCK_FAILURES - 1)).every((r) => r.statusCode === 401)).toBe(true);
      expect((await login(u.email, STRONG_PASSWORD, address)).statusCode).toBe(200);
    });

    it('counts failures for unknown emails too', async () => {
      const email = uniqueEmail('ghost');
      const address = '203.0.113.9';
      for (let i = 0; i < LOGIN_LOCK_FAILURES; i++) {
        expect((await login(email, STRONG_PASSWORD, address)).statusCode).toBe(401);
      }
      expect((await login(email, STRONG_PASSWORD, address)).statusCode).toBe(429);
    });

    it.runIf(engine === 'postgres')(
      'keeps the lock in the database, shared by every server process',
      async () => {
        const u = await signedInUser(t.app);
        const address = '203.0.113.10';
        for (let i = 0; i < LOGIN_LOCK_FAILURES; i++) {
          expect((await login(u.email, `Wrong#Pass${i}`, address)).statusCode).toBe(401);
        }
        // A second server process on the same database.
        const other = await buildApp(testConfig({ DATA_DIR: 'memory://', RATE_LIMIT: 'off' }), {
          database: await openDatabase({ databaseUrl: t.url!, dataDir: 'memory://', poolSize: 2 }),
        });
        try {
          const res = await other.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: u.email, password: STRONG_PASSWORD },
            remoteAddress: address,
          });
          expect(res.statusCode).toBe(429);
        } finally {
          await other.close();
        }
      },
    );
  });

  describe('POST /api/auth/logout', () => {
    it('ends the session: the token stops working, other sessions keep working', async () => {
      const u = await signedInUser(t.app);
      const second = json(await login(u.email, STRONG_PASSWORD)).token as string;
      const res = await post('/api/auth/logout', undefined, u.headers);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const after = await me(u.token);
      expect(after.statusCode).toBe(401);
      expect(json(after)).toMatchObject({ error: expect.any(String), code: 'unauthorized' });
      expect((await post('/api/auth/logout', undefined, u.headers)).statusCode).toBe(401);
      expect((await me(second)).statusCode).toBe(200);
    });

    it('needs a token (401)', async () => {
      const res = await post('/api/auth/logout', undefined);
      expect(res.statusCode).toBe(401);
      expect(json(res).error).toEqual(expect.any(String));
    });
  });

  describe('GET /api/user/me', () => {
    it('returns the signed-in user', async () => {
      const u = await signedInUser(t.app, { name: 'Mia Me' });
      const res = await me(u.token);
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({
        id: u.id,
        name: 'Mia Me',
        email: u.email,
        role: 'USER',
        emailVerified: false,
      });
    });

    it('is 401 without a token or with an unknown one', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/api/user/me' });
      expect(none.statusCode).toBe(401);
      expect(json(none)).toEqual({ error: 'Not signed in', code: 'unauthorized' });
      expect((await me('not-a-real-token')).statusCode).toBe(401);
    });
  });

  describe('PUT /api/user/profile', () => {
    it('changes the name and the email (trimmed, lower-cased); the new email signs in', async () => {
      const u = await signedInUser(t.app);
      const email = uniqueEmail('moved');
      const res = await put('/api/user/profile', u.token, {
        name: ' Nora New ',
        email: ` ${email.toUpperCase()} `,
        currentPassword: STRONG_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ id: u.id, name: 'Nora New', email, role: 'USER', emailVerified: false });
      expect(json(await me(u.token))).toMatchObject({ name: 'Nora New', email });
      expect((await login(email, STRONG_PASSWORD)).statusCode).toBe(200);
      expect((await login(u.email, STRONG_PASSWORD)).statusCode).toBe(401);
    });

    it('keeps the own email when only the name changes', async () => {
      const u = await signedInUser(t.app);
      const res = await put('/api/user/profile', u.token, { name: 'Only Name', email: u.email });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toMatchObject({ name: 'Only Name', email: u.email });
    });

    it("refuses another account's email in any letter case (409), once the password matched", async () => {
      const u = await signedInUser(t.app);
      const other = await signedInUser(t.app);
      const res = await put('/api/user/profile', u.token, {
        name: 'Thief',
        email: other.email.toUpperCase(),
        currentPassword: STRONG_PASSWORD,
      });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({ error: 'Email is already registered', code: 'email_taken' });
      expect(json(await me(u.token)).email).toBe(u.email);
    });

    it('needs the current password for a new email, and says nothing about whose email it is before', async () => {
      const u = await signedInUser(t.app);
      const other = await signedInUser(t.app);
      const free = uniqueEmail('free');
      for (const currentPassword of [undefined, 'Wrong#Password1']) {
        const taken = await put('/api/user/profile', u.token, {
          name: 'X',
          email: other.email,
          currentPassword,
        });
        const open = await put('/api/user/profile', u.token, { name: 'X', email: free, currentPassword });
        expect(taken.statusCode).toBe(400);
        expect(json(taken)).toEqual(json(open));
        expect(json(taken).code).toBe('wrong_password');
      }
      expect(json(await me(u.token)).email).toBe(u.email);
      // A stolen token cannot guess the password: the sign-in failure lock counts these attempts too.
      for (let i = 0; i < 8; i++) {
        await put('/api/user/profile', u.token, {
          name: 'X',
          email: free,
          currentPassword: `Guess#${i}aaaa`,
        });
      }
      const locked = await put('/api/user/profile', u.token, {
        name: 'X',
        email: free,
        currentPassword: STRONG_PASSWORD,
      });
      expect(locked.statusCode).toBe(429);
    });

    it('refuses invalid input (400) and visitors (401)', async () => {
      const u = await signedInUser(t.app);
      for (const payload of [
        { name: '', email: u.email },
        { name: 'X', email: 'nope' },
        { name: 'X' },
        { name: 3, email: u.email },
      ]) {
        const res = await put('/api/user/profile', u.token, payload);
        expect(res.statusCode).toBe(400);
        expect(json(res)).toMatchObject({ error: expect.any(String), code: 'bad_request' });
      }
      expect((await put('/api/user/profile', null, { name: 'X', email: uniqueEmail() })).statusCode).toBe(
        401,
      );
    });
  });

  describe('PUT /api/user/password', () => {
    it('changes the password and ends every other session; the current one keeps working', async () => {
      const u = await signedInUser(t.app);
      const other = json(await login(u.email, STRONG_PASSWORD)).token as string;
      const res = await put('/api/user/password', u.token, {
        currentPassword: STRONG_PASSWORD,
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ ok: true });
      expect((await me(u.token)).statusCode).toBe(200);
      expect((await me(other)).statusCode).toBe(401);
      expect((await login(u.email, STRONG_PASSWORD)).statusCode).toBe(401);
      expect((await login(u.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a wrong current password (400 wrong_password) and changes nothing', async () => {
      const u = await signedInUser(t.app);
      const res = await put('/api/user/password', u.token, {
        currentPassword: 'Wrong#Pass1',
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({ error: 'Current password is incorrect', code: 'wrong_password' });
      expect((await login(u.email, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a weak new password, saying what is missing', async () => {
      const u = await signedInUser(t.app);
      const res = await put('/api/user/password', u.token, {
        currentPassword: STRONG_PASSWORD,
        newPassword: 'password',
      });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({
        error: 'Password must contain an uppercase letter, contain a number and contain a symbol.',
        code: 'weak_password',
      });
      expect((await login(u.email, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('locks password guessing through a stolen token like sign-in', async () => {
      const u = await signedInUser(t.app);
      for (let i = 0; i < LOGIN_LOCK_FAILURES; i++) {
        const r = await put('/api/user/password', u.token, {
          currentPassword: `Guess#${i}aa`,
          newPassword: NEW_PASSWORD,
        });
        expect(r.statusCode).toBe(400);
      }
      const res = await put('/api/user/password', u.token, {
        currentPassword: STRONG_PASSWORD,
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(429);
      expect(json(res).error).toMatch(/^Too many failed sign-in attempts/);
    });

    it('refuses malformed bodies (400) and visitors (401)', async () => {
      const u = await signedInUser(t.app);
      for (const payload of [
        {},
        { currentPassword: STRONG_PASSWORD },
        { currentPassword: 1, newPassword: NEW_PASSWORD },
      ]) {
        const res = await put('/api/user/password', u.token, payload);
        expect(res.statusCode).toBe(400);
        expect(json(res)).toMatchObject({ error: expect.any(String), code: 'bad_request' });
      }
      const visitor = await put('/api/user/password', null, {
        currentPassword: STRONG_PASSWORD,
        newPassword: NEW_PASSWORD,
      });
      expect(visitor.statusCode).toBe(401);
    });
  });

  it('lifts the per-address request limits with RATE_LIMIT=off', async () => {
    const results = await Promise.all(
      Array.from({ length: ACCOUNT_RATE_LIMITS.register.max + 5 }, () =>
        post('/api/auth/register', {}, {}, '192.0.2.50'),
      ),
    );
    expect(results.map((r) => r.statusCode)).not.toContain(429);
  });
});

describe.each(engines)('account request limits on %s (RATE_LIMIT=on)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  it.each([
    ['/api/auth/register', ACCOUNT_RATE_LIMITS.register.max],
    ['/api/auth/login', ACCOUNT_RATE_LIMITS.login.max],
  ])('limits %s per address', async (url, max) => {
    const send = (remoteAddress: string) => t.app.inject({ method: 'POST', url, payload: {}, remoteAddress });
    for (let i = 0; i < max; i++) expect((await send('192.0.2.1')).statusCode).toBe(400);
    const limited = await send('192.0.2.1');
    expect(limited.statusCode).toBe(429);
    expect(json(limited)).toMatchObject({ error: expect.any(String), code: 'too_many_requests' });
    expect((await send('192.0.2.2')).statusCode).toBe(400);
  });

  it('keeps the login lock with limits on as well', async () => {
    const u = await signedInUser(t.app);
    for (let i = 0; i < LOGIN_LOCK_FAILURES; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: u.email, password: `Nope#${i}aaa` },
        remoteAddress: '192.0.2.77',
      });
      expect(r.statusCode).toBe(401);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: STRONG_PASSWORD },
      remoteAddress: '192.0.2.77',
    });
    expect(res.statusCode).toBe(429);
  });
});

describe.each(engines)('housekeeping of account data on %s', (engine) => {
  it('removes expired sessions and login failures past the lock window, and keeps what still counts', async () => {
    const t = await createTestApp(engine);
    try {
      const db = t.app.database.db;
      const live = await signedInUser(t.app);
      const stale = await signedInUser(t.app);
      await db
        .update(sessions)
        .set({ expiresAt: sql`now() - interval '1 minute'` })
        .where(eq(sessions.userId, stale.id));
      await db.insert(loginFailures).values([
        {
          email: 'old@example.com',
          ip: '192.0.2.1',
          at: sql`now() - interval '16 minutes'` as unknown as Date,
        },
        { email: 'recent@example.com', ip: '192.0.2.1' },
      ]);
      expect(await removeStaleAccountsData(db)).toEqual({ sessions: 1, loginFailures: 1 });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/user/me', headers: live.headers })).statusCode,
      ).toBe(200);
      const left = await db.select({ email: loginFailures.email }).from(loginFailures);
      expect(left.map((f) => f.email)).toEqual(['recent@example.com']);
      expect(await removeStaleAccountsData(db)).toEqual({ sessions: 0, loginFailures: 0 });
    } finally {
      await t.close();
    }
  });
});
