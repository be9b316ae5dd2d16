import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { languageOf, translateMessage } from './i18n.ts';
import { createTestApp, engines, type TestApp } from './test/helpers.ts';
import { serverRoot } from './paths.ts';

describe('the language of a request', () => {
  it('is the best-weighted language we speak, else English', () => {
    expect(languageOf(undefined)).toBe('en');
    expect(languageOf('es-ES,es;q=0.9')).toBe('es');
    expect(languageOf('fr-FR,de;q=0.5,es;q=0.8')).toBe('es');
    expect(languageOf('de-AT')).toBe('de');
    expect(languageOf('fr, ja;q=0.5')).toBe('en');
    expect(languageOf('*')).toBe('en');
  });

  it('finds a message with values and answers it in that language', () => {
    expect(translateMessage('Showtime not found', 'de')).toBe('Vorstellung nicht gefunden');
    expect(
      translateMessage(
        'You can hold at most 10 seats at a time (you hold 9). Pay for or cancel some first.',
        'es',
      ),
    ).toBe('Puedes reservar como máximo 10 asientos a la vez (tienes 9). Paga o cancela algunos primero.');
    expect(translateMessage('Too many failed sign-in attempts. Try again in 1 minute.', 'de')).toBe(
      'Zu viele fehlgeschlagene Anmeldeversuche. Versuche es in 1 Minute erneut.',
    );
    expect(translateMessage('Too many failed sign-in attempts. Try again in 15 minutes.', 'es')).toBe(
      'Demasiados intentos fallidos de inicio de sesión. Vuelve a intentarlo en 15 minutos.',
    );
    expect(translateMessage('Showtime not found', 'en')).toBe('Showtime not found');
    expect(translateMessage('A message nobody wrote down', 'es')).toBe('A message nobody wrote down');
  });
});

describe('the server catalogues', () => {
  const dir = path.join(serverRoot, 'src/locales');
  const flat = (o: object, prefix = ''): Record<string, string> =>
    Object.fromEntries(
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object'
          ? Object.entries(flat(v as object, `${prefix}${k}.`))
          : [[`${prefix}${k}`, String(v)]],
      ),
    );
  const read = (language: string) =>
    flat(JSON.parse(readFileSync(path.join(dir, language, 'server.json'), 'utf8')) as object);
  const english = read('en');

  it.each(readdirSync(dir).filter((l) => l !== 'en'))(
    '%s has every English key, and only those',
    (language) => {
      const other = read(language);
      expect(Object.keys(other).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        const values = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(values(other[key]!), `${language} ${key}`).toEqual(values(text));
      }
    },
  );
});

describe.each(engines)('messages in the client language on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off' });
  });
  afterAll(() => t.close());

  const login = (language?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: language ? { 'accept-language': language } : {},
      payload: { email: 'nobody@example.com', password: 'Wrong#password1' },
    });

  it('answers an error in Spanish to Accept-Language: es, same status and code', async () => {
    const res = await login('es-ES,es;q=0.9,en;q=0.8');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Credenciales no válidas', code: 'invalid_credentials' });
  });

  it('keeps the English text without Accept-Language', async () => {
    const res = await login();
    expect(res.json()).toEqual({ error: 'Invalid credentials', code: 'invalid_credentials' });
  });

  it('translates an unknown route and a message with values', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/nothing',
      headers: { 'accept-language': 'de' },
    });
    expect(res.json()).toEqual({ error: 'Keine Route für GET /api/nothing', code: 'not_found' });
  });
});
