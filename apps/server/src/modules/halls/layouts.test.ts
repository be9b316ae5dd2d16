import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { HallLayoutResponse, LayoutRow, SeatMap } from '@cinema/contract';
import { bookings, movies, seats, showtimes } from '../../db/schema/index.ts';
import {
  createTestApp,
  engines,
  signedInAdmin,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';
import { drawRow } from './demo-halls.ts';

// DESIGN §6.2: halls with layouts (aisles, seat types, sofas, wheelchair spaces, blocked seats), the seat map that
// shows them, the hold rules the server keeps, layout edits that never move a seat someone holds or bought.

/** A small hall: an aisle, a wheelchair space with its companion, a premium block, house seats and a sofa row. */
const LAYOUT: LayoutRow[] = [
  drawRow('A', 'wcss.ssss'),
  drawRow('B', 'ssss.ssss'),
  drawRow('C', 'sppp.ppXs'),
  drawRow('D', '====.===='),
];

const layoutOf = (rows: LayoutRow[]) => rows.map((r) => ({ label: r.label, cells: r.cells }));
const strip = (layout: HallLayoutResponse) =>
  layout.rows.map((r) => ({
    label: r.label,
    cells: r.cells.map((c) => (c.kind === 'SEAT' ? { ...c, id: undefined, number: undefined } : c)),
  }));

describe.each(engines)('hall layouts on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: SignedIn;
  let hall: HallLayoutResponse;
  let showtimeId: string;

  const seatMap = async (who?: SignedIn) =>
    (
      await app.inject({ method: 'GET', url: `/api/showtimes/${showtimeId}/seats`, headers: who?.headers })
    ).json() as SeatMap;
  /** A seat of the showtime's map by its row label and number. */
  const seat = async (label: string, number: number) =>
    (await seatMap()).seats.find((s) => s.rowLabel === label && s.number === number)!;
  const hold = (who: SignedIn, seatIds: string[]) =>
    app.inject({
      method: 'POST',
      url: `/api/showtimes/${showtimeId}/hold`,
      headers: who.headers,
      payload: { seatIds },
    });

  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600' });
    app = t.app;
    admin = await signedInAdmin(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/halls',
      headers: admin.headers,
      payload: { name: 'Layout Hall', layout: { rows: layoutOf(LAYOUT) } },
    });
    expect(res.statusCode, res.body).toBe(201);
    hall = res.json();
    const [movie] = await app.database.db
      .insert(movies)
      .values({ title: 'Layout Movie', durationMinutes: 90 })
      .returning();
    const startsAt = new Date(Date.now() + 48 * 3600_000);
    const [show] = await app.database.db
      .insert(showtimes)
      .values({
        movieId: movie!.id,
        hallId: hall.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 105 * 60_000),
        priceCents: 1000,
      })
      .returning();
    showtimeId = show!.id;
  });
  afterAll(() => t.close());

  it('stores a layout and gives it back as drawn, numbering seats only (gaps are not counted)', async () => {
    expect(hall).toMatchObject({ name: 'Layout Hall', cols: 9, seatCount: 32 });
    const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
    expect(plain(strip(hall))).toEqual(plain(layoutOf(LAYOUT)));
    const rowA = hall.rows[0]!.cells;
    expect(rowA.map((c) => (c.kind === 'SEAT' ? c.number : '.'))).toEqual([1, 2, 3, 4, '.', 5, 6, 7, 8]);
    const got = await app.inject({
      method: 'GET',
      url: `/api/admin/halls/${hall.id}/layout`,
      headers: admin.headers,
    });
    expect(got.json()).toEqual(hall);
    const list = (
      await app.inject({ method: 'GET', url: '/api/admin/rooms', headers: admin.headers })
    ).json();
    expect(list).toContainEqual({ id: hall.id, name: 'Layout Hall', rows: 4, cols: 9, seatCount: 32 });
  });

  it.each([
    [
      'half a sofa',
      [drawRow('A', 'ss'), { label: 'B', cells: [{ kind: 'SEAT', type: 'SOFA', pairId: 'x' }] }],
      /Sofa "x" must be two seats side by side/,
    ],
    [
      'a companion away from any wheelchair space',
      [drawRow('A', 'c.w')],
      /must be next to a wheelchair space/,
    ],
    ['a row label used twice', [drawRow('A', 'ss'), drawRow('A', 'ss')], /Row label "A" is used twice/],
    ['no seat at all', [{ label: 'A', cells: [{ kind: 'GAP' }] }], /at least one seat/],
  ])('refuses a layout with %s (400, saying where)', async (_what, rows, message) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/halls',
      headers: admin.headers,
      payload: { name: `Bad ${Math.random()}`, layout: { rows } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('draws the hall in the seat map: grid, types, columns, row labels, sofa pairs, blocked seats, the rule in force', async () => {
    const map = await seatMap();
    expect(map.layout).toEqual({
      cols: 9,
      rows: [{ label: 'A' }, { label: 'B' }, { label: 'C' }, { label: 'D' }],
    });
    expect(map.rules).toEqual({ singleSeatGap: 'warn' });
    const a1 = map.seats.find((s) => s.rowLabel === 'A' && s.number === 1)!;
    expect(a1).toMatchObject({ row: 1, number: 1, col: 0, type: 'WHEELCHAIR', status: 'AVAILABLE' });
    expect(map.seats.find((s) => s.rowLabel === 'A' && s.number === 5)).toMatchObject({
      col: 5,
      type: 'STANDARD',
    });
    expect(map.seats.find((s) => s.rowLabel === 'C' && s.number === 7)).toMatchObject({
      type: 'PREMIUM',
      status: 'BLOCKED',
    });
    const sofa = map.seats.filter((s) => s.rowLabel === 'D');
    expect(sofa.every((s) => s.type === 'SOFA' && s.pairId)).toBe(true);
    expect(new Set(sofa.map((s) => s.pairId)).size).toBe(4);
  });

  it('keeps the seat rules: blocked seats, half a sofa, a companion seat alone are refused; whole ones held', async () => {
    const cara = await signedInUser(app);
    const [a1, a2, c7, d1, d2, d3, d4] = await Promise.all([
      seat('A', 1),
      seat('A', 2),
      seat('C', 7),
      seat('D', 1),
      seat('D', 2),
      seat('D', 3),
      seat('D', 4),
    ]);
    const blocked = await hold(cara, [c7!.id]);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toEqual({
      error: 'Some seats are not for sale online',
      code: 'seat_blocked',
      seatIds: [c7!.id],
    });
    const half = await hold(cara, [d1!.id]);
    expect(half.json()).toEqual({
      error: 'A sofa is sold whole: hold both of its seats together',
      code: 'sofa_pair',
      seatIds: [d1!.id],
    });
    const companion = await hold(cara, [a2!.id]);
    expect(companion.json()).toMatchObject({ code: 'companion_needs_wheelchair', seatIds: [a2!.id] });
    const nothing = await app.database.db.select().from(bookings).where(eq(bookings.userId, cara.id));
    expect(nothing).toEqual([]);

    expect((await hold(cara, [a1!.id, a2!.id])).statusCode).toBe(201);
    expect((await hold(cara, [d1!.id, d2!.id])).statusCode).toBe(201);
    // A half whose partner the customer already holds makes the sofa whole... but D3's partner is D4: refused.
    expect((await hold(cara, [d3!.id])).json().code).toBe('sofa_pair');
    const dan = await signedInUser(app);
    expect((await hold(dan, [d3!.id, d4!.id])).statusCode).toBe(201);
  });

  it('gives an old client nothing it could pick wrongly: a blocked seat is BLOCKED, never AVAILABLE', async () => {
    const statuses = new Set(
      (await seatMap()).seats.filter((s) => s.rowLabel === 'C' && s.number === 7).map((s) => s.status),
    );
    expect(statuses).toEqual(new Set(['BLOCKED']));
  });

  it('refuses an edit that moves, retypes or removes a seat held or sold for a coming show, naming it; allows the rest', async () => {
    const before = await seat('B', 1);
    const eve = await signedInUser(app);
    const held = await hold(eve, [before!.id]);
    expect(held.statusCode).toBe(201);

    // Row B gets a gap in front: its seats move one column to the right.
    const moved = layoutOf(LAYOUT).map((r) => (r.label === 'B' ? drawRow('B', '.ssss.ssss') : r));
    const refused = await app.inject({
      method: 'PUT',
      url: `/api/admin/halls/${hall.id}/layout`,
      headers: admin.headers,
      payload: { rows: moved },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'seats_at_stake',
      seats: [{ id: before!.id, rowLabel: 'B', number: 1 }],
    });
    expect(refused.json().error).toContain('B1');
    expect((await seat('B', 1))!.col).toBe(0);

    // Blocking other seats, retyping free ones and renaming a row label are fine.
    const edited = layoutOf(LAYOUT).map((r) => (r.label === 'B' ? drawRow('B', 'sspp.xsss') : r));
    const ok = await app.inject({
      method: 'PUT',
      url: `/api/admin/halls/${hall.id}/layout`,
      headers: admin.headers,
      payload: { rows: edited, name: 'Layout Hall 2' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Layout Hall 2', seatCount: 32 });
    expect(await seat('B', 3)).toMatchObject({ type: 'PREMIUM' });
    expect(await seat('B', 5)).toMatchObject({ status: 'BLOCKED' });
    expect(await seat('B', 1)).toMatchObject({ id: before!.id, status: 'HELD' });
  });

  it('retires a removed seat that has bookings in its past instead of deleting it', async () => {
    const b8 = await seat('B', 8);
    await app.database.db.insert(bookings).values({
      showtimeId,
      seatId: b8!.id,
      userId: admin.id,
      status: 'EXPIRED',
      expiresAt: sql`now() - interval '1 hour'`,
      priceCents: 1000,
    });
    const shorter = layoutOf(LAYOUT).map((r) => (r.label === 'B' ? drawRow('B', 'sspp.xss') : r));
    const res = await app.inject({
      method: 'PUT',
      url: `/api/admin/halls/${hall.id}/layout`,
      headers: admin.headers,
      payload: { rows: shorter },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().seatCount).toBe(31);
    const [kept] = await app.database.db.select().from(seats).where(eq(seats.id, b8!.id));
    expect(kept!.retiredAt).not.toBeNull();
    expect((await seatMap()).seats.find((s) => s.id === b8!.id)).toBeUndefined();
    const refused = await hold(await signedInUser(app), [b8!.id]);
    expect(refused.statusCode).toBe(400);
  });

  it('finds the best seats together, never a wheelchair space unasked, and holds them on request', async () => {
    const fay = await signedInUser(app);
    const find = (payload: object) =>
      app.inject({
        method: 'POST',
        url: `/api/showtimes/${showtimeId}/best-available`,
        headers: fay.headers,
        payload,
      });
    const two = await find({ count: 2 });
    expect(two.statusCode).toBe(200);
    const map = await seatMap();
    const chosen = two.json().seatIds.map((id: string) => map.seats.find((s) => s.id === id)!);
    expect(chosen).toHaveLength(2);
    expect(new Set(chosen.map((s: { row: number }) => s.row)).size).toBe(1);
    expect(Math.abs(chosen[0].col - chosen[1].col)).toBe(1);
    expect(
      chosen.every(
        (s: { type: string; status: string }) =>
          s.status === 'AVAILABLE' && !['WHEELCHAIR', 'COMPANION'].includes(s.type),
      ),
    ).toBe(true);

    const held = await find({ count: 2, hold: true });
    expect(held.json()).toMatchObject({
      seatIds: expect.any(Array),
      hold: { bookingIds: expect.any(Array), expiresAt: expect.any(String) },
    });
    expect(
      (await seatMap(fay)).seats
        .filter((s) => s.heldByMe)
        .map((s) => s.id)
        .sort(),
    ).toEqual([...held.json().seatIds].sort());
    // Nine people cannot sit in one row of eight: the fewest blocks, each without a gap.
    const nine = (await find({ count: 9 })).json().seatIds as string[];
    expect(nine).toHaveLength(9);
    // The wheelchair space and its companion are someone else's already.
    const none = await find({ count: 2, type: 'WHEELCHAIR' });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'no_seats_together' });
    expect((await find({ count: 2, type: 'COMPANION' })).statusCode).toBe(400);
  });
});

describe.each(engines)('the single-seat gap rule enforced on %s', (engine) => {
  let t: TestApp;
  let showtimeId: string;
  let row: { id: string; number: number }[];
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SEAT_GAP_RULE: 'enforce' });
    const admin = await signedInAdmin(t.app);
    const hall = (
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/halls',
        headers: admin.headers,
        payload: { name: 'Gap Hall', layout: { rows: [drawRow('A', 'ssssss')] } },
      })
    ).json();
    const [movie] = await t.app.database.db.insert(movies).values({ title: 'Gap Movie' }).returning();
    const startsAt = new Date(Date.now() + 48 * 3600_000);
    const [show] = await t.app.database.db
      .insert(showtimes)
      .values({
        movieId: movie!.id,
        hallId: hall.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 3 * 3600_000),
        priceCents: 1000,
      })
      .returning();
    showtimeId = show!.id;
    row = hall.rows[0].cells.map((c: { id: string; number: number }) => ({ id: c.id, number: c.number }));
  });
  afterAll(() => t.close());

  it('refuses a selection that strands one seat, naming it and offering the nearest that does not', async () => {
    const gus = await signedInUser(t.app);
    const map = (
      await t.app.inject({ method: 'GET', url: `/api/showtimes/${showtimeId}/seats` })
    ).json() as SeatMap;
    expect(map.rules).toEqual({ singleSeatGap: 'enforce' });
    // Seats 2 and 3 of six would leave seat 1 alone at the row's end.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/showtimes/${showtimeId}/hold`,
      headers: gus.headers,
      payload: { seatIds: [row[1]!.id, row[2]!.id] },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'single_seat_gap',
      seatIds: [row[0]!.id],
      alternative: [row[0]!.id, row[1]!.id],
    });
    expect(res.json().error).toContain('Row A, Seat 1');
    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/showtimes/${showtimeId}/hold`,
      headers: gus.headers,
      payload: { seatIds: [row[0]!.id, row[1]!.id] },
    });
    expect(ok.statusCode).toBe(201);
  });
});
