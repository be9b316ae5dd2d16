import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { languageOf, translateMessage } from './i18n.ts';
import { ConfigError, loadConfig, testConfig } from './config.ts';
import { eq } from 'drizzle-orm';
import { mailOutbox } from './db/schema/index.ts';
import { settleMail } from './modules/mail/outbox.service.ts';
import { createShowtimeFixture } from './test/fixtures.ts';
import { buySeats } from './test/purchase.ts';
import { createTestApp, engines, STRONG_PASSWORD, uniqueEmail, type TestApp } from './test/helpers.ts';
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

describe.each(engines)('emails in the customer language on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, {
      RATE_LIMIT: 'off',
      SWEEP_SECONDS: '3600',
      PUBLIC_URL: 'https://cinema.test',
    });
  });
  afterAll(() => t.close());

  const mailTo = async (to: string, kind: string) => {
    await settleMail();
    const rows = await t.app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
    return rows.filter((m) => m.kind === kind);
  };

  it('writes the password reset in the language the account registered in, whoever asks', async () => {
    const email = uniqueEmail('lucia');
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
      payload: { name: 'Lucía', email, password: STRONG_PASSWORD },
    });
    expect(register.statusCode).toBe(201);
    // Asked without a language (a script, another client): the account's language still holds.
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email },
    });
    expect(forgot.statusCode).toBe(202);
    const [mail] = await mailTo(email, 'password_reset');
    expect(mail!.subject).toBe('Restablece tu contraseña');
    expect(mail!.text).toContain('Hola, Lucía:');
    expect(mail!.text).toContain('El enlace sirve una vez y durante una hora.');
    expect(mail!.html).toContain('<html lang="es">');
    expect(mail!.html).not.toContain('Reset your password');
  });

  it('writes the order confirmation in the language the customer checked out in, money and seats too', async () => {
    const show = await createShowtimeFixture(t.app.database.db, { rows: 3, cols: 6, priceCents: 1250 });
    const email = uniqueEmail('jonas');
    const login = async (language: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'accept-language': language },
        payload: { email, password: STRONG_PASSWORD },
      });
      return res.json() as { token: string; user: { id: string; name: string } };
    };
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Jonas', email, password: STRONG_PASSWORD },
    });
    const { token, user } = await login('de-DE,de;q=0.9,en;q=0.5');
    const jonas = {
      id: user.id,
      email,
      name: user.name,
      token,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'de-DE' },
    };
    const { orderRef } = await buySeats(t.app, jonas, show.showtimeId, [
      show.seatIds[1]![2]!,
      show.seatIds[1]![3]!,
    ]);
    const [mail] = await mailTo(email, 'order_confirmation');
    expect(mail!.subject).toBe(`Deine Tickets: Bestellung ${orderRef}`);
    expect(mail!.text).toContain('Hallo Jonas,');
    expect(mail!.text).toContain('Reihe B, Platz 3');
    expect(mail!.text).toMatch(/Bezahlt insgesamt: 25,00\s\$/);
    expect(mail!.html).toContain('<html lang="de">');
    expect(mail!.text).not.toMatch(/Total paid|Your tickets/);

    // The PDF follows the language of the request that downloads it.
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/me/orders/${orderRef}/tickets.pdf`,
      headers: { ...jonas.headers, 'accept-language': 'es' },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});

describe('CURRENCY', () => {
  it('defaults to USD, takes any ISO 4217 code in any letter case, and stops the start on a bad one', () => {
    expect(testConfig().currency).toBe('USD');
    expect(testConfig({ CURRENCY: 'eur' }).currency).toBe('EUR');
    expect(() => loadConfig({ CURRENCY: 'EURO' })).toThrow(ConfigError);
    expect(() => loadConfig({ CURRENCY: 'XYZ' })).toThrow(
      'CURRENCY: must be an ISO 4217 currency code such as USD, EUR or GBP',
    );
  });
});

describe.each(engines)('a cinema selling in euros on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off', SWEEP_SECONDS: '3600', CURRENCY: 'EUR' });
  });
  afterAll(() => t.close());

  it('says so in the settings, and orders are in euros', async () => {
    const settings = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json()).toMatchObject({ currency: 'EUR' });
    const show = await createShowtimeFixture(t.app.database.db, { rows: 2, cols: 4, priceCents: 900 });
    const email = uniqueEmail('eve');
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Eve', email, password: STRONG_PASSWORD },
    });
    const { token, user } = reg.json() as { token: string; user: { id: string } };
    const eve = { id: user.id, email, name: 'Eve', token, headers: { authorization: `Bearer ${token}` } };
    const { orderRef } = await buySeats(t.app, eve, show.showtimeId, [show.seatIds[0]![1]!]);
    const order = await t.app.inject({
      method: 'GET',
      url: `/api/me/orders/${orderRef}`,
      headers: eve.headers,
    });
    expect(order.json()).toMatchObject({ currency: 'EUR', totalCents: 900 });
    await settleMail();
    const [mail] = await t.app.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mail!.text).toContain('Total paid: €9.00');
  });
});
