import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { ensureDefaultHalls } from './halls.service.ts';

describe.each(engines)('halls on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let customer: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    customer = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const listHalls = () => t.app.inject({ method: 'GET', url: '/api/admin/rooms', headers: admin.headers });

  it('creates the default halls with their seats on an empty database, and only once', async () => {
    expect((await listHalls()).json()).toEqual([]);
    const created = await ensureDefaultHalls(t.database.db);
    // Real layouts: aisles, a premium block, a sofa row, wheelchair spaces with companions, house seats.
    expect(created.map(({ name, rows, cols, seatCount }) => ({ name, rows, cols, seatCount }))).toEqual([
      { name: 'Hall 1', rows: 8, cols: 14, seatCount: 96 },
      { name: 'Hall 2', rows: 10, cols: 15, seatCount: 138 },
      { name: 'Hall 3', rows: 12, cols: 20, seatCount: 214 },
    ]);
    expect(await ensureDefaultHalls(t.database.db)).toEqual([]);

    const res = await listHalls();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);

    const seats = await t.database.db.query.seats.findMany({
      where: (s, { eq }) => eq(s.hallId, created[0]!.id),
    });
    expect(seats).toHaveLength(96);
    const kinds = (type: string) => seats.filter((s) => s.type === type).length;
    expect({
      wheelchair: kinds('WHEELCHAIR'),
      companion: kinds('COMPANION'),
      sofa: kinds('SOFA'),
      premium: kinds('PREMIUM'),
      blocked: seats.filter((s) => s.blocked).length,
    }).toEqual({ wheelchair: 2, companion: 2, sofa: 12, premium: 18, blocked: 4 });
  });

  it('adds a hall with all its seats, row by row', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/rooms',
      headers: admin.headers,
      payload: { name: '  Studio 4 ', rows: 3, cols: 5 },
    });
    expect(res.statusCode).toBe(201);
    const hall = res.json();
    expect(hall).toMatchObject({ id: expect.any(String), name: 'Studio 4', rows: 3, cols: 5, seatCount: 15 });
    expect(hall.seats).toHaveLength(15);
    expect(hall.seats[0]).toMatchObject({ row: 1, number: 1 });
    expect(hall.seats[14]).toMatchObject({ row: 3, number: 5 });
    const positions = new Set(hall.seats.map((s: { row: number; number: number }) => `${s.row}-${s.number}`));
    expect(positions.size).toBe(15);
    expect((await listHalls()).json().map((h: { name: string }) => h.name)).toContain('Studio 4');
  });

  it('refuses a second hall with the same name (409)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/rooms',
      headers: admin.headers,
      payload: { name: 'Hall 1', rows: 2, cols: 2 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'A hall named "Hall 1" already exists', code: 'conflict' });
  });

  it.each([
    [{ name: '', rows: 2, cols: 2 }],
    [{ name: 'Tiny', rows: 0, cols: 2 }],
    [{ name: 'Huge', rows: 2, cols: 500 }],
    [{ name: 'Half', rows: 2.5, cols: 2 }],
    [{ rows: 2, cols: 2 }],
  ])('answers a bad hall %j with 400', async (payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/rooms',
      headers: admin.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.any(String), code: 'bad_request' });
  });

  it('keeps halls to admins: 401 for visitors, 403 for customers', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const payload = method === 'POST' ? { name: 'Sneaky', rows: 1, cols: 1 } : undefined;
      const visitor = await t.app.inject({ method, url: '/api/admin/rooms', payload });
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json()).toMatchObject({ code: 'unauthorized' });
      const user = await t.app.inject({
        method,
        url: '/api/admin/rooms',
        headers: customer.headers,
        payload,
      });
      expect(user.statusCode).toBe(403);
      expect(user.json()).toMatchObject({ code: 'forbidden' });
    }
    expect((await listHalls()).json().map((h: { name: string }) => h.name)).not.toContain('Sneaky');
  });
});
