import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { languageOf, namingSeats, translateMessage } from './i18n.ts';
import { ConfigError, loadConfig, testConfig } from './config.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookings, mailOutbox } from './db/schema/index.ts';
import { settleMail } from './modules/mail/outbox.service.ts';
import { createShowtimeFixture } from './test/fixtures.ts';
import { buySeats, holdSeats } from './test/purchase.ts';
import {
  createTestApp,
  engines,
  signedInUser,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from './test/helpers.ts';
import { serverRoot } from './paths.ts';
import { renderUnavailableCheckoutPage } from './modules/payments/local-checkout.page.ts';

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

  it('says what a weak password lacks in German, each rule from the catalogue', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'accept-language': 'de' },
      payload: { name: 'Jonas', email: 'weak@example.com', password: 'abcdefgh1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Das Passwort muss einen Großbuchstaben enthalten und ein Sonderzeichen enthalten.',
      code: 'weak_password',
    });
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

  it('says what is wrong with a body or a URL the framework refuses in the client’s language, English as it was', async () => {
    const post = (language: string, payload: string, contentType = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'accept-language': language, 'content-type': contentType },
        payload,
      });
    const notJson = await post('de', '{"email": ');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({
      error: "Der Inhalt ist kein gültiges JSON, obwohl der Content-Type 'application/json' ist",
      code: 'bad_request',
    });
    expect((await post('es', '')).json()).toEqual({
      error: "El cuerpo no puede estar vacío cuando el content-type es 'application/json'",
      code: 'bad_request',
    });
    const large = await post('de', JSON.stringify({ email: 'x'.repeat(1024 * 1024) }));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ error: 'Der Inhalt der Anfrage ist zu groß', code: 'payload_too_large' });
    const media = await post('es', 'email=a', 'text/csv');
    expect(media.statusCode).toBe(415);
    expect(media.json()).toEqual({ error: 'Tipo de medio no admitido', code: 'unsupported_media_type' });
    expect((await post('en', '{"email": ')).json()).toEqual({
      error: "Body is not valid JSON but content-type is set to 'application/json'",
      code: 'bad_request',
    });
    const badUrl = await t.app.inject({
      method: 'GET',
      url: '/api/showtimes/%E0%A4%A',
      headers: { 'accept-language': 'de' },
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({
      error: 'Die Adresse ist ungültig (fehlerhafte Prozent-Kodierung)',
      code: 'bad_request',
    });
  });

  it('shows the test checkout’s page for an unknown session in the visitor’s language', async () => {
    const page = (language?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/pay/local/not-a-session',
        headers: language ? { 'accept-language': language } : {},
      });
    const german = await page('de-DE,de;q=0.9');
    expect(german.statusCode).toBe(404);
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('<h1>Bezahlvorgang nicht gefunden</h1>');
    expect(german.body).toContain('Zurück zu den Filmen');
    expect(german.body).not.toContain('Checkout not found');
    expect((await page('es')).body).toContain('<h1>Pago no encontrado</h1>');
    expect((await page()).body).toContain('<h1>Checkout not found</h1>');
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

describe.each(engines)('seat names inside messages on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine, { RATE_LIMIT: 'off' });
  });
  afterAll(() => t.close());

  it('names the seats of an expired hold in the language of the message, English as it was', async () => {
    const show = await createShowtimeFixture(t.app.database.db);
    const customer = await signedInUser(t.app);
    const ids = await holdSeats(t.app, customer, show.showtimeId, [show.seatIds[2]![6]!]);
    await t.app.database.db
      .update(bookings)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(inArray(bookings.id, ids));
    const checkout = (language?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: { ...customer.headers, ...(language && { 'accept-language': language }) },
        payload: { bookingIds: ids },
      });
    const german = await checkout('de');
    expect(german.statusCode).toBe(409);
    expect(german.json()).toMatchObject({
      code: 'hold_expired',
      error:
        'Deine Reservierung ist abgelaufen oder wurde storniert (Reihe C, Platz 7). Bitte halte die Plätze erneut.',
    });
    expect((await checkout('es')).json().error).toBe(
      'Tu reserva ha caducado o se canceló (Fila C, asiento 7). Vuelve a reservar los asientos.',
    );
    expect((await checkout()).json().error).toBe(
      'Your hold has expired or was cancelled (Row C Seat 7). Please hold the seats again.',
    );
  });

  it('names the kind of seat best available could not find in the language of the message', async () => {
    const show = await createShowtimeFixture(t.app.database.db);
    const customer = await signedInUser(t.app);
    const ask = (language?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/showtimes/${show.showtimeId}/best-available`,
        headers: { ...customer.headers, ...(language && { 'accept-language': language }) },
        payload: { count: 2, type: 'WHEELCHAIR' },
      });
    const german = await ask('de');
    expect(german.statusCode).toBe(409);
    expect(german.json()).toEqual({
      error: 'Für diese Vorstellung gibt es keine 2 zusammenhängenden Plätze der Art Rollstuhlplatz mehr',
      code: 'no_seats_together',
    });
    expect((await ask('es')).json().error).toBe(
      'No quedan 2 asientos juntos de tipo silla de ruedas para esta sesión',
    );
    expect((await ask()).json().error).toBe(
      'There are no 2 wheelchair spaces together left for this showtime',
    );
  });

  it('names the seats of a staff message in the language of the message', () => {
    const seats = [
      { row: 2, number: 4 },
      { row: 3, number: 1, rowLabel: 'VIP' },
    ];
    const say = namingSeats('used_refund', seats);
    expect(say('en')).toBe('Already used at the door: Row B Seat 4, Row VIP Seat 1. Refund anyway?');
    expect(say('de')).toBe(
      'Bereits am Einlass benutzt: Reihe B, Platz 4, Reihe VIP, Platz 1. Trotzdem erstatten?',
    );
    expect(namingSeats('never_paid', seats)('es')).toBe(
      'Nunca se pagaron: Fila B, asiento 4, Fila VIP, asiento 1',
    );
  });
});

describe('the test checkout’s page while the database is away', () => {
  it('is in the visitor’s language, English as it was', () => {
    expect(renderUnavailableCheckoutPage(5, 'es')).toContain('<h1>Pago no disponible por un momento</h1>');
    const german = renderUnavailableCheckoutPage(5, 'de');
    expect(german).toContain('Bitte lade diese Seite in 5 Sekunden neu');
    expect(german).not.toMatch(/Checkout|Nothing was charged/);
    expect(renderUnavailableCheckoutPage(5, 'en')).toContain(
      'Nothing was charged. Please reload this page in 5 seconds: your seats stay held until the time shown on it.',
    );
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
    const [mail] = await t.app.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, 'order_confirmation')));
    expect(mail!.text).toContain('Total paid: €9.00');
  });
});

describe('error texts the server writes', () => {
  // Every fixed message passed to the error helpers (badRequest, conflict, …, new AppError) has its catalogue entry,
  // so a Spanish or German client never reads it in English. Messages with values are checked where they are tested.
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sources(path.join(dir, entry.name))
        : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
  const STAFF_ONLY = new Set([
    'Empty webhook body',
    'Metrics are off (METRICS=on or METRICS_TOKEN)',
    'The metrics need the metrics token',
  ]);

  it('are in the catalogue', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources(path.join(serverRoot, 'src'))) {
      const code = readFileSync(file, 'utf8');
      const calls =
        /(?:badRequest|unauthorized|forbidden|notFound|conflict)\(\s*'([^'\n]+)'|new AppError\(\s*\d+,\s*'\w+',\s*'([^'\n]+)'/g;
      for (const m of code.matchAll(calls)) {
        const message = (m[1] ?? m[2])!;
        checked++;
        if (!STAFF_ONLY.has(message) && translateMessage(message, 'de') === message)
          missing.push(`${path.relative(serverRoot, file)}: ${message}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });
});
