import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema/index.ts';
import {
  createTestApp,
  engines,
  postgresUrl,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

describe.each(engines)('roles at /admin/users on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
  });
  afterAll(() => t.close());

  const setRole = (id: string, role: unknown, headers = admin.headers) =>
    t.app.inject({ method: 'PUT', url: `/api/admin/users/${id}/role`, headers, payload: { role } });

  it('finds accounts by part of a name or email, and makes one staff (audited as user.role)', async () => {
    const sam = await signedInUser(t.app, { name: 'Samira Doorwell' });
    const found = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?q=doorwell',
      headers: admin.headers,
    });
    expect(found.statusCode).toBe(200);
    expect(found.json().users).toEqual([
      expect.objectContaining({ id: sam.id, name: 'Samira Doorwell', email: sam.email, role: 'USER' }),
    ]);
    const byEmail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?q=${encodeURIComponent(sam.email.toUpperCase())}`,
      headers: admin.headers,
    });
    expect(byEmail.json().users.map((u: { id: string }) => u.id)).toEqual([sam.id]);
    // A search for "%" is a search for the character, not for everyone.
    const percent = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?q=%25',
      headers: admin.headers,
    });
    expect(percent.json().users).toEqual([]);

    const res = await setRole(sam.id, 'STAFF');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: sam.id, role: 'STAFF' });
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.subjectId, sam.id));
    expect(entry).toMatchObject({
      action: 'user.role',
      actorId: admin.id,
      before: { email: sam.email, role: 'USER' },
      after: { email: sam.email, role: 'STAFF' },
    });

    // The new role holds on the very next request of the same session: staff scan, but reach no admin route.
    const scanShowtimes = await t.app.inject({
      method: 'GET',
      url: '/api/admin/scan/showtimes',
      headers: sam.headers,
    });
    expect(scanShowtimes.statusCode).toBe(200);
    const audit = await t.app.inject({ method: 'GET', url: '/api/admin/audit', headers: sam.headers });
    expect(audit.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: sam.headers })).statusCode,
    ).toBe(403);
    expect((await setRole(sam.id, 'ADMIN', sam.headers)).statusCode).toBe(403);
  });

  it('never demotes the last admin', async () => {
    const fresh = await createTestApp(engine);
    try {
      const only = await signedInAdmin(fresh.app);
      const res = await fresh.app.inject({
        method: 'PUT',
        url: `/api/admin/users/${only.id}/role`,
        headers: only.headers,
        payload: { role: 'USER' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'last_admin', error: expect.stringMatching(/last admin/) });
      const [row] = await fresh.database.db.select().from(users).where(eq(users.id, only.id));
      expect(row!.role).toBe('ADMIN');
    } finally {
      await fresh.close();
    }
  });

  it('answers unknown accounts with 404 and unknown roles with 400', async () => {
    const bob = await signedInUser(t.app);
    expect((await setRole('7b0c6a4e-0000-4000-8000-000000000000', 'STAFF')).statusCode).toBe(404);
    for (const bad of ['OWNER', 'admin', '', null, 3]) {
      const res = await setRole(bob.id, bad);
      expect(res.statusCode, String(bad)).toBe(400);
    }
    const longQuery = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?q=${'x'.repeat(101)}`,
      headers: admin.headers,
    });
    expect(longQuery.statusCode).toBe(400);
  });
});

describe.skipIf(!postgresUrl)('last-admin race on real PostgreSQL', () => {
  it('two admins demoting each other at the same moment leave one admin', async () => {
    const t = await createTestApp('postgres', { RATE_LIMIT: 'off' });
    try {
      const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
      for (let round = 0; round < 5; round++) {
        // Only these two are admins of this fresh database in each round.
        await t.database.db.update(users).set({ role: 'USER' }).where(eq(users.role, 'ADMIN'));
        const a = await signedInAdmin(t.app);
        const b = await signedInAdmin(t.app);
        const demote = (by: SignedIn, target: SignedIn) =>
          fetch(`${baseUrl}/api/admin/users/${target.id}/role`, {
            method: 'PUT',
            headers: { ...by.headers, 'content-type': 'application/json' },
            body: JSON.stringify({ role: 'USER' }),
          }).then((r) => r.status);
        const statuses = (await Promise.all([demote(a, b), demote(b, a)])).sort();
        // One demotion wins; the other is refused as the last admin's (409), or, when the winner committed before
        // the loser's request was let in, as no longer an admin's (403). Never both.
        expect(statuses[0]).toBe(200);
        expect([403, 409]).toContain(statuses[1]);
        const admins = await t.database.db.select().from(users).where(eq(users.role, 'ADMIN'));
        expect(admins).toHaveLength(1);
      }
    } finally {
      await t.close();
    }
  });
});
