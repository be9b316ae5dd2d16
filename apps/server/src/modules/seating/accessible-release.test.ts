import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, seats } from '../../db/schema/index.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import {
  createTestApp,
  engines,
  signedInStaff,
  signedInUser,
  type SignedIn,
  type TestApp,
} from '../../test/helpers.ts';

// Issue 37, DESIGN §7.5: wheelchair spaces and companion seats are kept for those who need them (best available
// leaves them out; a companion seat is held only with its wheelchair space) until ACCESSIBLE_RELEASE_MINUTES before
// the start, until every other seat is taken, or until staff release them for the showtime; then they sell as
// standard seats. One row of five: W C S S S (a wheelchair space, its companion seat, three standard seats).

const HOUR = 3600_000;

/** A showtime in a hall of one row: a wheelchair space, a companion seat and three standard seats. */
async function accessibleRow(app: FastifyInstance, startsInMs: number) {
  const show = await createShowtimeFixture(app.database.db, {
    rows: 1,
    cols: 5,
    startsAt: new Date(Date.now() + startsInMs),
  });
  const [w, c, ...standard] = show.seatIds[0]!;
  await app.database.db.update(seats).set({ type: 'WHEELCHAIR' }).where(eq(seats.id, w!));
  await app.database.db.update(seats).set({ type: 'COMPANION' }).where(eq(seats.id, c!));
  return { show, wheelchair: w!, companion: c!, standard };
}

const hold = (app: FastifyInstance, show: ShowtimeFixture, who: SignedIn, seatIds: string[]) =>
  app.inject({
    method: 'POST',
    url: `/api/showtimes/${show.showtimeId}/hold`,
    headers: who.headers,
    payload: { seatIds },
  });

const bestAvailable = (app: FastifyInstance, show: ShowtimeFixture, who: SignedIn, count: number) =>
  app.inject({
    method: 'POST',
    url: `/api/showtimes/${show.showtimeId}/best-available`,
    headers: who.headers,
    payload: { count },
  });

const release = (app: FastifyInstance, show: ShowtimeFixture | string, who: SignedIn) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/showtimes/${typeof show === 'string' ? show : show.showtimeId}/accessible-release`,
    headers: who.headers,
  });

const seatMap = async (app: FastifyInstance, show: ShowtimeFixture) =>
  (await app.inject({ method: 'GET', url: `/api/showtimes/${show.showtimeId}/seats` })).json();

describe.each(engines)('accessible seats kept, then released, on %s', (engine) => {
  let t: TestApp;
  let staff: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      SWEEP_SECONDS: '3600',
      ACCESSIBLE_RELEASE_MINUTES: '60',
    });
    staff = await signedInStaff(t.app, 'Door Dora');
  });
  afterAll(() => t.close());

  it('keeps them two hours before the start: best available leaves them out, a companion seat alone is refused', async () => {
    const { show, companion, standard } = await accessibleRow(t.app, 2 * HOUR);
    const map = await seatMap(t.app, show);
    expect(Date.parse(map.showtime.accessibleReleaseAt)).toBe(Date.parse(map.showtime.startsAt) - HOUR);
    const cathy = await signedInUser(t.app);
    const four = await bestAvailable(t.app, show, cathy, 4);
    expect(four.statusCode).toBe(409);
    expect((await bestAvailable(t.app, show, cathy, 3)).json().seatIds.sort()).toEqual([...standard].sort());
    const alone = await hold(t.app, show, cathy, [companion]);
    expect(alone.statusCode).toBe(409);
    expect(alone.json().code).toBe('companion_needs_wheelchair');
  });

  it('sells them as standard seats within ACCESSIBLE_RELEASE_MINUTES of the start', async () => {
    const { show, wheelchair, companion } = await accessibleRow(t.app, 30 * 60_000);
    const cathy = await signedInUser(t.app);
    expect((await bestAvailable(t.app, show, cathy, 5)).json().seatIds).toHaveLength(5);
    const alone = await hold(t.app, show, cathy, [companion]);
    expect(alone.statusCode).toBe(201);
    const dan = await signedInUser(t.app);
    expect((await hold(t.app, show, dan, [wheelchair])).statusCode).toBe(201);
  });

  it('sells a companion seat alone once every other seat is held or sold', async () => {
    const { show, companion, wheelchair, standard } = await accessibleRow(t.app, 2 * HOUR);
    const cathy = await signedInUser(t.app);
    const dan = await signedInUser(t.app);
    expect((await hold(t.app, show, cathy, standard.slice(0, 2))).statusCode).toBe(201);
    expect((await hold(t.app, show, cathy, [companion])).json().code).toBe('companion_needs_wheelchair');
    expect((await hold(t.app, show, dan, [standard[2]!])).statusCode).toBe(201);
    // Only the wheelchair space and its companion are left: both sell as standard seats now.
    const eve = await signedInUser(t.app);
    expect((await bestAvailable(t.app, show, eve, 2)).json().seatIds.sort()).toEqual(
      [wheelchair, companion].sort(),
    );
    expect((await hold(t.app, show, eve, [companion])).statusCode).toBe(201);
  });

  it('lets staff release them early for one showtime, once, audited; best available and holds follow', async () => {
    const { show, companion } = await accessibleRow(t.app, 5 * HOUR);
    const other = await accessibleRow(t.app, 5 * HOUR);
    const cathy = await signedInUser(t.app);
    expect((await bestAvailable(t.app, show, cathy, 4)).statusCode).toBe(409);

    const customer = await release(t.app, show, cathy);
    expect(customer.statusCode).toBe(403);
    const first = await release(t.app, show, staff);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ releasedBy: 'staff' });
    const at = first.json().accessibleReleaseAt as string;
    expect(Math.abs(Date.parse(at) - Date.now())).toBeLessThan(60_000);
    // A second release keeps the first time and writes no second audit entry.
    expect((await release(t.app, show, staff)).json()).toEqual({
      accessibleReleaseAt: at,
      releasedBy: 'staff',
    });
    const audits = await t.app.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'showtime.accessible_release'), eq(auditLog.subjectId, show.showtimeId)),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorEmail).toBe(staff.email);
    expect(audits[0]!.after).toMatchObject({ accessibleReleaseAt: at });

    expect(Date.parse((await seatMap(t.app, show)).showtime.accessibleReleaseAt)).toBe(Date.parse(at));
    expect((await bestAvailable(t.app, show, cathy, 4)).json().seatIds).toHaveLength(4);
    const dan = await signedInUser(t.app);
    expect((await hold(t.app, show, dan, [companion])).statusCode).toBe(201);
    // The other showtime keeps its seats.
    expect((await hold(t.app, other.show, dan, [other.companion])).json().code).toBe(
      'companion_needs_wheelchair',
    );
    await t.app.database.db.delete(bookings).where(inArray(bookings.showtimeId, [show.showtimeId]));
  });

  it('answers a showtime released by the clock, a started one and an unknown one', async () => {
    const soon = await accessibleRow(t.app, 30 * 60_000);
    const byClock = await release(t.app, soon.show, staff);
    expect(byClock.statusCode).toBe(200);
    expect(byClock.json().releasedBy).toBe('clock');
    const started = await accessibleRow(t.app, -10 * 60_000);
    const late = await release(t.app, started.show, staff);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('showtime_started');
    const unknown = await release(t.app, '0190a5c4-0000-7000-8000-000000000000', staff);
    expect(unknown.statusCode).toBe(404);
    expect((await release(t.app, 'not-an-id', staff)).statusCode).toBe(400);
  });
});
