import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@cinema/contract';
import { eq } from 'drizzle-orm';
import { auditLog, halls, movies } from '../../db/schema/index.ts';
import { recordAudit } from './audit.service.ts';
import { createShowtimeFixture, type ShowtimeFixture } from '../../test/fixtures.ts';
import { createTestApp, engines, signedInAdmin, type SignedIn, type TestApp } from '../../test/helpers.ts';

// Every staff action on money, seats or roles is audited: who, when, what, before and after, in the same transaction
// as the change (a change that fails leaves no entry).

describe.each(engines)('audit log (%s)', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let other: SignedIn;
  let show: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    other = await signedInAdmin(t.app);
    show = await createShowtimeFixture(t.app.database.db);
  });
  afterAll(() => t.close());

  const audit = async (query = '', who: SignedIn = admin) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/audit${query}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: AuditEntry[]; next: string | null }>();
  };

  it('records who created and deleted a showtime, with what it was, newest first', async () => {
    const startsAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/showtimes',
      headers: admin.headers,
      payload: { movieId: show.movieId, auditoriumId: show.hallId, startsAt, priceCents: 1250 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/showtimes/${id}`,
      headers: other.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const db = t.app.database.db;
    const [{ title }] = (await db
      .select({ title: movies.title })
      .from(movies)
      .where(eq(movies.id, show.movieId))) as [{ title: string }];
    const [{ name }] = (await db
      .select({ name: halls.name })
      .from(halls)
      .where(eq(halls.id, show.hallId))) as [{ name: string }];
    const { entries } = await audit('?action=showtime');
    expect(entries.slice(0, 2)).toMatchObject([
      { actor: other.email, action: 'showtime.delete', subjectType: 'showtime', subjectId: id },
      { actor: admin.email, action: 'showtime.create', subjectType: 'showtime', subjectId: id },
    ]);
    // Named, so the log reads without looking ids up: the movie and hall may be gone by the time someone reads it.
    expect(entries[0]!.before).toMatchObject({
      startsAt,
      movie: title,
      auditorium: name,
      priceCents: 1250,
      endsAt: expect.any(String),
    });
    expect(entries[1]!.after).toMatchObject({
      priceCents: 1250,
      movie: title,
      auditorium: name,
      endsAt: expect.any(String),
    });
  });

  it('records a hall layout edit with the hall as it was and as it became', async () => {
    const rows = [
      {
        label: 'A',
        cells: [
          { kind: 'SEAT', type: 'STANDARD' },
          { kind: 'SEAT', type: 'STANDARD' },
        ],
      },
      { label: 'B', cells: [{ kind: 'SEAT', type: 'STANDARD' }] },
    ];
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/halls',
      headers: admin.headers,
      payload: { name: 'Audit Hall', layout: { rows } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const hallId = created.json<{ id: string }>().id;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/halls/${hallId}/layout`,
      headers: admin.headers,
      payload: { name: 'Audit Hall 2', rows: rows.slice(0, 1) },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [entry] = (await audit('?action=hall.layout')).entries;
    expect(entry).toMatchObject({
      subjectId: hallId,
      before: { name: 'Audit Hall', rows: 2, seats: 3 },
      after: { name: 'Audit Hall 2', rows: 1, seats: 2, removed: 1 },
    });
  });

  it('records price and promo changes, and filters by action and by actor', async () => {
    const type = await t.app.inject({
      method: 'POST',
      url: '/api/admin/ticket-types',
      headers: admin.headers,
      payload: { name: 'Student' },
    });
    expect(type.statusCode, type.body).toBe(201);
    const typeId = type.json<{ id: string }>().id;
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/ticket-types/${typeId}`,
      headers: other.headers,
      payload: { name: 'Students' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const promo = await t.app.inject({
      method: 'POST',
      url: '/api/admin/promo-codes',
      headers: admin.headers,
      payload: { code: 'audit10', percentOff: 10, maxUses: 5 },
    });
    expect(promo.statusCode, promo.body).toBe(201);

    const rename = (await audit('?action=ticket_type.update')).entries;
    expect(rename).toHaveLength(1);
    expect(rename[0]).toMatchObject({
      actor: other.email,
      before: { name: 'Student' },
      after: { name: 'Students' },
    });
    const byOther = (await audit(`?actor=${encodeURIComponent(other.email.toUpperCase())}`)).entries;
    expect(byOther.map((e) => e.action)).toEqual(['ticket_type.update', 'showtime.delete']);
    expect((await audit('?action=promo')).entries).toMatchObject([
      { action: 'promo.create', actor: admin.email, after: { code: 'audit10', percentOff: 10, maxUses: 5 } },
    ]);
  });

  it('writes nothing for a change that was refused', async () => {
    const before = (await audit()).entries.length;
    const clash = await t.app.inject({
      method: 'POST',
      url: '/api/admin/ticket-types',
      headers: admin.headers,
      payload: { name: 'STUDENTS' },
    });
    expect(clash.statusCode).toBe(409);
    const missing = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/showtimes/00000000-0000-4000-8000-000000000000',
      headers: admin.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect((await audit()).entries.length).toBe(before);
  });

  it('pages by the last entry seen, so new entries do not shift a page', async () => {
    const actor = { actorId: admin.id, actorEmail: admin.email, subjectType: 'test' };
    await t.app.database.db
      .insert(auditLog)
      .values(
        Array.from({ length: 60 }, (_, i) => ({ ...actor, action: 'test.page', subjectId: String(i) })),
      );
    const first = await audit('?action=test.page');
    expect(first.entries).toHaveLength(50);
    expect(first.next).toEqual(expect.any(String));
    await t.app.database.db.insert(auditLog).values({ ...actor, action: 'test.page', subjectId: 'late' });
    const second = await audit(`?action=test.page&before=${encodeURIComponent(first.next!)}`);
    expect(second.entries).toHaveLength(10);
    expect(second.next).toBeNull();
    const ids = new Set([...first.entries, ...second.entries].map((e) => e.subjectId));
    expect(ids.size).toBe(60);
    expect(ids.has('late')).toBe(false);
  });

  it('keeps an entry whose text is not well formed (a lone surrogate becomes U+FFFD), and names refuse it', async () => {
    await recordAudit(t.app.database.db, admin, {
      action: 'test.text',
      subjectType: 'test',
      after: { name: 'Studio \ud800 5' },
    });
    expect((await audit('?action=test.text')).entries[0]!.after).toEqual({ name: 'Studio \ufffd 5' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/rooms',
      headers: admin.headers,
      payload: { name: 'Hall \udfff', rows: 2, cols: 2 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Name is not valid text');
  });

  it('is for admins only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/audit' });
    expect(res.statusCode).toBe(401);
  });
});
