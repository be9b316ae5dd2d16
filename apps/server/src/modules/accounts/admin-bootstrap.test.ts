import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordSchema } from '@cinema/contract';
import { bootstrap } from '../../bootstrap.ts';
import { ConfigError, loadConfig, testConfig } from '../../config.ts';
import { users } from '../../db/schema/index.ts';
import {
  createTestApp,
  engines,
  json,
  signedInUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../test/helpers.ts';
import { startServerProcess } from '../../test/server-process.ts';
import { createUser } from './accounts.service.ts';
import { DEFAULT_ADMIN_EMAIL, ensureAdmin, generatePassword } from './admin-bootstrap.ts';

const ADMIN_PASSWORD = 'Projector#42';

const login = (t: TestApp, email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const me = (t: TestApp, token: string) =>
  t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${token}` } });

describe.each(engines)('ensureAdmin on %s', (engine) => {
  describe('one database over several starts', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(engine, { RATE_LIMIT: 'off' });
    });
    afterAll(() => t.close());
    const db = () => t.app.database.db;

    let generated = '';
    it('creates admin@localhost with a random password, shown once, on a database without an admin', async () => {
      const result = await ensureAdmin(db(), {});
      expect(result).not.toBeNull();
      generated = result!.generatedPassword!;
      expect(PasswordSchema.safeParse(generated).success).toBe(true);
      expect(result!.message).toBe(`Admin login: admin@localhost / ${generated} (shown once)`);
      const res = await login(t, DEFAULT_ADMIN_EMAIL, generated);
      expect(res.statusCode).toBe(200);
      expect(json(res).user).toMatchObject({ email: DEFAULT_ADMIN_EMAIL, role: 'ADMIN' });
    });

    it('does nothing at the next start: an admin exists and its password stays', async () => {
      expect(await ensureAdmin(db(), {})).toBeNull();
      expect((await login(t, DEFAULT_ADMIN_EMAIL, generated)).statusCode).toBe(200);
    });

    it('creates the ADMIN_EMAIL account with ADMIN_PASSWORD, without printing the password', async () => {
      const email = uniqueEmail('boss');
      const result = await ensureAdmin(db(), { adminEmail: email, adminPassword: ADMIN_PASSWORD });
      expect(result).toEqual({ email, message: `Admin login: ${email} (password from ADMIN_PASSWORD)` });
      const res = await login(t, email, ADMIN_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(json(res).user.role).toBe('ADMIN');
    });

    it('promotes an existing customer and sets the password, ending the old sessions', async () => {
      const u = await signedInUser(t.app);
      const result = await ensureAdmin(db(), {
        adminEmail: u.email.toUpperCase(),
        adminPassword: ADMIN_PASSWORD,
      });
      expect(result?.message).toBe(`Admin login: ${u.email} (password from ADMIN_PASSWORD)`);
      expect((await me(t, u.token)).statusCode).toBe(401);
      expect((await login(t, u.email, STRONG_PASSWORD)).statusCode).toBe(401);
      const res = await login(t, u.email, ADMIN_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(json(res).user.role).toBe('ADMIN');

      // The next start with the same settings keeps the admin signed in.
      const token = json(res).token as string;
      await ensureAdmin(db(), { adminEmail: u.email, adminPassword: ADMIN_PASSWORD });
      expect(json(await me(t, token))).toMatchObject({ email: u.email, role: 'ADMIN' });
    });

    it('with ADMIN_EMAIL alone, refuses to promote a customer account: its holder keeps no admin token', async () => {
      // An attacker registers the address the cinema is about to configure, and keeps their token.
      const attacker = await signedInUser(t.app, { email: uniqueEmail('manager') });
      await expect(ensureAdmin(db(), { adminEmail: attacker.email })).rejects.toThrow(ConfigError);
      await expect(ensureAdmin(db(), { adminEmail: attacker.email })).rejects.toThrow(
        /ADMIN_EMAIL=.* is an existing customer account\. Set ADMIN_PASSWORD/,
      );
      expect(json(await me(t, attacker.token)).role).toBe('USER');
      const adminRoute = await t.app.inject({
        method: 'GET',
        url: '/api/admin/movies',
        headers: attacker.headers,
      });
      expect(adminRoute.statusCode).toBe(403);
    });

    it('with ADMIN_EMAIL alone for an account that is admin already, keeps it and its password', async () => {
      const u = await signedInUser(t.app, { role: 'ADMIN' });
      const result = await ensureAdmin(db(), { adminEmail: u.email });
      expect(result).toEqual({ email: u.email, message: `Admin login: ${u.email} (its existing password)` });
      expect(json(await me(t, u.token)).role).toBe('ADMIN');
      expect((await login(t, u.email, STRONG_PASSWORD)).statusCode).toBe(200);
    });

    it('promotes a customer with ADMIN_PASSWORD even when it is their own password, and signs them out', async () => {
      const u = await signedInUser(t.app, { password: ADMIN_PASSWORD });
      await ensureAdmin(db(), { adminEmail: u.email, adminPassword: ADMIN_PASSWORD });
      expect((await me(t, u.token)).statusCode).toBe(401);
      expect(json(await login(t, u.email, ADMIN_PASSWORD)).user.role).toBe('ADMIN');
    });

    it('with ADMIN_EMAIL alone for a new account, creates it with a password shown once', async () => {
      const email = uniqueEmail('new-boss');
      const result = await ensureAdmin(db(), { adminEmail: email });
      expect(result!.message).toBe(`Admin login: ${email} / ${result!.generatedPassword} (shown once)`);
      expect(json(await login(t, email, result!.generatedPassword!)).user.role).toBe('ADMIN');
    });
  });

  it('promotes a customer who registered as admin@localhost when there is no admin, with a new password', async () => {
    const t = await createTestApp(engine);
    try {
      await createUser(t.app.database.db, {
        name: 'Squatter',
        email: DEFAULT_ADMIN_EMAIL,
        password: STRONG_PASSWORD,
      });
      const result = await ensureAdmin(t.app.database.db, {});
      expect((await login(t, DEFAULT_ADMIN_EMAIL, STRONG_PASSWORD)).statusCode).toBe(401);
      expect(json(await login(t, DEFAULT_ADMIN_EMAIL, result!.generatedPassword!)).user.role).toBe('ADMIN');
    } finally {
      await t.close();
    }
  });

  it('creates exactly one admin when several server processes start at once', async () => {
    const t = await createTestApp(engine);
    try {
      // On PostgreSQL, a lock on the users table held elsewhere makes every start wait, then all go at once.
      const blocker = t.url ? new pg.Client({ connectionString: t.url }) : null;
      if (blocker) {
        await blocker.connect();
        await blocker.query('begin');
        await blocker.query('lock table users in access exclusive mode');
      }
      const starts = Promise.all(Array.from({ length: 6 }, () => ensureAdmin(t.app.database.db, {})));
      if (blocker) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await blocker.query('commit');
        await blocker.end();
      }
      const results = await starts;
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      const admins = await t.app.database.db.select().from(users).where(eq(users.role, 'ADMIN'));
      expect(admins).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('prints the admin login among the start-up messages', async () => {
    const t = await createTestApp(engine);
    try {
      const report = await bootstrap(t.app);
      expect(report.messages).toContainEqual(
        expect.stringMatching(/^Admin login: admin@localhost \/ \S+ \(shown once\)$/),
      );
      expect((await bootstrap(t.app)).messages.some((m) => m.startsWith('Admin login'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('admin configuration', () => {
  it('stops the start on a weak ADMIN_PASSWORD, naming the variable', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'admin' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'admin' })).toThrow(
      /ADMIN_PASSWORD/,
    );
  });

  it('accepts admin@localhost as ADMIN_EMAIL and normalizes its case', () => {
    const config = testConfig({ ADMIN_EMAIL: ' Admin@LocalHost ', ADMIN_PASSWORD });
    expect(config.adminEmail).toBe('admin@localhost');
  });

  it('generates different, copyable passwords that meet the policy', () => {
    const passwords = Array.from({ length: 50 }, generatePassword);
    expect(new Set(passwords).size).toBe(50);
    for (const p of passwords) {
      expect(PasswordSchema.safeParse(p).success).toBe(true);
      // Starts with a letter and holds nothing a shell would mangle when pasted unquoted.
      expect(p).toMatch(/^[A-Za-z][A-Za-z0-9%+\-.@_]{19}$/);
    }
  });
});

describe('the real server with ADMIN_EMAIL naming a customer account', () => {
  it('refuses to start, saying why in one sentence, and the customer stays a customer', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-admin-email-'));
    try {
      const first = await startServerProcess({ DATA_DIR: dataDir });
      const email = 'manager@cinema.test';
      const registered = await fetch(`${first.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Mallory', email, password: STRONG_PASSWORD }),
      });
      expect(registered.status).toBe(201);
      const { token } = (await registered.json()) as { token: string };
      await first.stop();

      const refused = await startServerProcess({ DATA_DIR: dataDir, ADMIN_EMAIL: email }).then(
        async (server) => {
          await server.stop();
          return null;
        },
        (err: Error) => err.message,
      );
      expect(refused).toMatch(/exited during start \(1\)/);
      expect(refused).toContain(`ADMIN_EMAIL=${email} is an existing customer account.`);
      expect(refused).not.toMatch(/\n\s+at /); // a sentence, not a stack trace

      const again = await startServerProcess({ DATA_DIR: dataDir });
      try {
        const res = await fetch(`${again.url}/api/admin/movies`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(403);
      } finally {
        await again.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
