import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@cinema/contract';
import { layoutProblems, MAX_HALL_SEATS, type LayoutRow, type SeatType } from '@cinema/contract';
import { catalogueEntryOf } from './i18n.ts';
import { postMovie } from './test/catalogue.ts';
import { createTestApp, engines, signedInAdmin, type SignedIn, type TestApp } from './test/helpers.ts';

/** Every message a zod schema was given (`min(1, 'Choose a seat')`, `refine(…, { message })`) under `roots`. */
function schemaMessages(roots: unknown[]): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(visit);
    if (!('_zod' in value)) return Object.values(value).forEach(visit);
    // A schema: its own message, then everything its definition holds (checks, shape, items, inner schemas).
    const def = (value as { _zod: { def: Record<string, unknown> } })._zod.def;
    const message = typeof def.error === 'function' ? (def.error as () => unknown)() : undefined;
    if (typeof message === 'string') found.add(message);
    Object.entries(def).forEach(([key, inner]) => key !== 'error' && visit(inner));
  };
  roots.forEach(visit);
  return found;
}

const seat = (type: SeatType = 'STANDARD', pairId?: string) => ({ kind: 'SEAT' as const, type, pairId });
/** A layout breaking each rule of `layoutProblems` once. */
const badLayouts: LayoutRow[][] = [
  [
    {
      label: 'A',
      cells: [seat(), seat('SOFA'), seat('STANDARD', 'x'), seat('COMPANION'), seat('SOFA', 'p')],
    },
    { label: 'a', cells: [seat()] },
  ],
  [{ label: 'A', cells: [{ kind: 'GAP' }] }],
  Array.from({ length: Math.ceil((MAX_HALL_SEATS + 1) / 60) }, (_, r) => ({
    label: String(r),
    cells: Array.from({ length: 60 }, () => seat()),
  })),
];

describe('validation texts of the contract', () => {
  it('are each in the catalogue, so staff and customers read them in their language', () => {
    const messages = schemaMessages(Object.values(contract));
    const problems = badLayouts.flatMap(layoutProblems);
    expect(new Set(problems.map((p) => p.rule)).size).toBe(7);
    const missing = [...messages, ...problems.map((p) => p.message)].filter((m) => !catalogueEntryOf(m));
    expect(missing).toEqual([]);
    // The walk finds the schemas' messages: the staff forms' ones too (halls, prices, showtimes, box office).
    expect(messages).toContain('Price must be whole cents');
    expect(messages).toContain('Row label is too long');
    expect(messages.size).toBeGreaterThan(80);
  });
});

describe.each(engines)('staff validation texts in the client language on %s', (engine) => {
  let t: TestApp;
  let admin: SignedIn;
  let movieId: string;
  let hallId: string;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await signedInAdmin(t.app);
    movieId = (await postMovie(t.app, admin.headers, { title: 'Dune' })).json<{ id: string }>().id;
    hallId = (
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/rooms',
        headers: admin.headers,
        payload: { name: 'Saal 1', rows: 2, cols: 3 },
      })
    ).json<{ id: string }>().id;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, language?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...admin.headers, ...(language && { 'accept-language': language }) },
      payload,
    });
  const errorOf = async (url: string, payload: object, language?: string) => {
    const res = await post(url, payload, language);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('bad_request');
    return res.json<{ error: string }>().error;
  };

  it('says what is wrong with a hall in German and Spanish, field first', async () => {
    const hall = {
      name: 'Saal 2',
      layout: { rows: [{ label: 'A', cells: [{ kind: 'SEAT', type: 'SOFA' }] }] },
    };
    expect(await errorOf('/api/admin/halls', hall, 'de')).toBe(
      'layout.rows.0.cells.0: Ein Sofaplatz in Reihe A hat kein Gegenstück',
    );
    expect(await errorOf('/api/admin/halls', hall, 'es-ES,es;q=0.9')).toBe(
      'layout.rows.0.cells.0: Una butaca de sofá de la fila A no tiene pareja',
    );
    expect(await errorOf('/api/admin/halls', hall)).toBe(
      'layout.rows.0.cells.0: A sofa seat in row A has no pair',
    );
    expect(await errorOf('/api/admin/rooms', { name: ' ', rows: 2, cols: 3 }, 'de')).toBe(
      'name: Der Name fehlt',
    );
  });

  it('says what is wrong with a price card, the schema’s words and zod’s own', async () => {
    const card = { name: 'Abend', weekdays: [], from: '18:00', to: '24:00', prices: [] };
    expect(await errorOf('/api/admin/price-cards', card, 'de')).toBe('weekdays: Wähle mindestens einen Tag');
    expect(await errorOf('/api/admin/price-cards', { ...card, weekdays: [1] }, 'es')).toBe(
      'prices: Una tarifa necesita un precio',
    );
    // A field without a message of its own: zod's default text, said by zod in that language.
    expect(await errorOf('/api/admin/price-cards', { ...card, weekdays: [9] }, 'de')).toBe(
      'weekdays.0: Zu groß: erwartet, dass number <=7 ist',
    );
    expect(await errorOf('/api/admin/price-cards', { ...card, weekdays: [9] })).toBe(
      'weekdays.0: Too big: expected number to be <=7',
    );
  });

  it('says what is wrong with a showtime in German and Spanish, English unchanged', async () => {
    const showtime = {
      movieId,
      auditoriumId: hallId,
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      priceCents: 12.5,
    };
    expect(await errorOf('/api/admin/showtimes', showtime, 'de')).toBe(
      'priceCents: Der Preis muss aus ganzen Cent bestehen',
    );
    expect(await errorOf('/api/admin/showtimes', showtime, 'es')).toBe(
      'priceCents: El precio debe ser en céntimos enteros',
    );
    expect(await errorOf('/api/admin/showtimes', showtime)).toBe('priceCents: Price must be whole cents');
    // A field of the wrong type: "received string" needs the input, which the validator keeps.
    const textPrice = { ...showtime, priceCents: '12' };
    expect(await errorOf('/api/admin/showtimes', textPrice, 'de')).toBe(
      'priceCents: Ungültige Eingabe: erwartet Zahl, erhalten string',
    );
    expect(await errorOf('/api/admin/showtimes', textPrice)).toBe(
      'priceCents: Invalid input: expected number, received string',
    );
    const batch = {
      movieId,
      auditoriumIds: [hallId],
      from: '2027-01-01',
      to: '2027-01-31',
      times: ['20:00'],
    };
    expect(await errorOf('/api/admin/showtimes/batch', { ...batch, weekdays: [] }, 'es')).toBe(
      'weekdays: Elige al menos un día de la semana',
    );
    expect(
      await errorOf('/api/admin/showtimes/batch', { ...batch, weekdays: [5], to: '2027-12-31' }, 'de'),
    ).toBe('to: Eine Serie umfasst höchstens 92 Tage');
  });

  it('says what is wrong with a movie form (multipart) in German', async () => {
    const headers = { ...admin.headers, 'accept-language': 'de' };
    const res = await postMovie(t.app, headers, { title: 'Dune', durationMinutes: '90.5' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'durationMinutes: Die Dauer muss aus ganzen Minuten bestehen',
      code: 'bad_request',
    });
  });
});
