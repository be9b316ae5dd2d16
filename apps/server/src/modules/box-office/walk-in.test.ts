import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { StaffOrder } from '@cinema/contract';
import { buildApp } from '../../app.ts';
import { bootstrap } from '../../bootstrap.ts';
import { testConfig } from '../../config.ts';
import { mailOutbox, users } from '../../db/schema/index.ts';
import { createSession } from '../../plugins/auth.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestDatabase,
  engines,
  signedInAdmin,
  signedInUser,
  STRONG_PASSWORD,
  type SignedIn,
  type TestDatabase,
} from '../../test/helpers.ts';
import { createUser } from '../accounts/accounts.service.ts';
import { settleMail } from '../mail/outbox.service.ts';
import { WALK_IN_EMAIL } from './walk-in.ts';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(engines)('the walk-in account on %s', (engine) => {
  let testDb: TestDatabase;
  let app: FastifyInstance;
  let admin: SignedIn;
  let show: ShowtimeFixture;
  const logLines: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    app = await buildApp(testConfig({ DATA_DIR: 'memory://', RATE_LIMIT: 'off', LOG_LEVEL: 'info' }), {
      database: testDb.database,
      logStream: { write: (line) => void logLines.push(line) },
    });
    await app.ready();
    admin = await signedInAdmin(app);
    show = await createShowtimeFixture(app.database.db, { priceCents: 1100, rows: 3, cols: 6 });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const sell = (seatIds: string[], customerEmail?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/admin/box-office/sales',
      headers: admin.headers,
      payload: { showtimeId: show.showtimeId, seatIds, paymentMethod: 'cash', customerEmail },
    });
  const login = (email: string, password = STRONG_PASSWORD) =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  it('is never adopted: an account someone made at the address is locked at start, and the log says so', async () => {
    // As an earlier version allowed: someone registered the address (before any walk-in sale) and signed in.
    const mallory = await createUser(app.database.db, {
      name: 'Mallory',
      email: 'mallory@example.com',
      password: STRONG_PASSWORD,
    });
    await app.database.db.update(users).set({ email: WALK_IN_EMAIL }).where(eq(users.id, mallory.id));
    const session = await createSession(app.database.db, mallory.id);
    expect((await login(WALK_IN_EMAIL)).statusCode).toBe(200);

    logLines.length = 0;
    await bootstrap(app);
    const locked = logLines.map((l) => JSON.parse(l) as { msg: string; level: number; email?: string });
    expect(locked).toContainEqual(
      expect.objectContaining({
        msg: expect.stringMatching(/^walk-in account locked/),
        email: WALK_IN_EMAIL,
      }),
    );

    // Mallory is out: no session, no password.
    expect(
      (await app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(session) })).statusCode,
    ).toBe(401);
    expect((await login(WALK_IN_EMAIL)).statusCode).toBe(401);
    const [row] = await app.database.db.select().from(users).where(eq(users.email, WALK_IN_EMAIL));
    expect(row).toMatchObject({ id: mallory.id, passwordHash: null, role: 'USER' });

    // A walk-in's tickets go to the locked account, which nobody can reach; a second start says nothing more.
    const sale = await sell([show.seatIds[1]![0]!]);
    expect(sale.statusCode, sale.body).toBe(200);
    expect((sale.json() as StaffOrder).customer).toEqual({ email: null, name: null });
    logLines.length = 0;
    await bootstrap(app);
    expect(logLines.filter((l) => l.includes('walk-in account locked'))).toEqual([]);
  });

  it('cannot be registered, signed in to, reset or taken over by a change of email', async () => {
    for (const email of [WALK_IN_EMAIL, ' Walk-In@Box-Office.INVALID ']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Mallory', email, password: STRONG_PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'email_reserved' });
    }
    // A customer cannot move their account onto the address either.
    const mallory = await signedInUser(app, { name: 'Mallory' });
    const move = await app.inject({
      method: 'PUT',
      url: '/api/user/profile',
      headers: mallory.headers,
      payload: { name: 'Mallory', email: WALK_IN_EMAIL, currentPassword: STRONG_PASSWORD },
    });
    expect(move.statusCode, move.body).toBe(400);
    expect(move.json()).toMatchObject({ code: 'email_reserved' });

    // The walk-in account holds tickets: still nobody signs in or gets a reset link.
    expect((await sell([show.seatIds[0]![0]!])).statusCode).toBe(200);
    expect((await login(WALK_IN_EMAIL)).statusCode).toBe(401);
    const forgot = await app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: WALK_IN_EMAIL },
    });
    expect(forgot.statusCode).toBe(202);
    await settleMail();
    const toWalkIn = await app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, WALK_IN_EMAIL));
    expect(toWalkIn).toEqual([]);
  });

  it('locks an account at the address before the first counter sale uses it, even without a restart', async () => {
    // Another cinema's database, where nothing was sold at the counter yet and no start locked anything.
    const otherDb = await createTestDatabase(engine);
    const fresh = await buildApp(testConfig({ DATA_DIR: 'memory://', RATE_LIMIT: 'off' }), {
      database: otherDb.database,
    });
    await fresh.ready();
    try {
      const admin = await signedInAdmin(fresh);
      const show = await createShowtimeFixture(fresh.database.db, { priceCents: 900, rows: 1, cols: 4 });
      const mallory = await signedInUser(fresh, { name: 'Mallory', email: 'w@box-office.invalid' });
      await fresh.database.db.update(users).set({ email: WALK_IN_EMAIL }).where(eq(users.id, mallory.id));
      const sale = await fresh.inject({
        method: 'POST',
        url: '/api/admin/box-office/sales',
        headers: admin.headers,
        payload: { showtimeId: show.showtimeId, seatIds: [show.seatIds[0]![0]!], paymentMethod: 'card' },
      });
      expect(sale.statusCode, sale.body).toBe(200);
      const ref = (sale.json() as StaffOrder).ref;
      // Mallory's token no longer opens anything, and the order is in nobody's My Orders.
      const orders = await fresh.inject({ method: 'GET', url: '/api/me/orders', headers: mallory.headers });
      expect(orders.statusCode).toBe(401);
      const pdf = await fresh.inject({
        method: 'GET',
        url: `/api/me/orders/${ref}/tickets.pdf`,
        headers: mallory.headers,
      });
      expect(pdf.statusCode).toBe(401);
    } finally {
      await fresh.close();
      await otherDb.drop();
    }
  });
});
