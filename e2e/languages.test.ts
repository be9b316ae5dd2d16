import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  followRequests,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
} from './support/browser.ts';
import { scheduleShowtime, type ScheduledShowtime } from './support/flows.ts';
import { leftoverFinder, pageTexts, texts } from './support/languages.ts';
import { registerUser, startServer, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/languages.test.ts (the customer journey in German, the language switcher)');

const PHONE_390 = { width: 390, height: 844 } as const;
const de = texts('de');
const es = texts('es');
const englishIn = leftoverFinder('de');

describe.skipIf(!hasChromium)('the customer journey in German', () => {
  let server: RunningServer;
  let browser: Browser;
  let show: ScheduledShowtime;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    show = await scheduleShowtime(server, {
      title: 'Der Himmel über Berlin',
      hall: { name: 'Saal Zwei', rows: 4, cols: 8 },
      hoursFromNow: 50,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The page shows no English catalogue text, passes axe, and leaves a screenshot to look at. */
  async function expectGerman(page: Page, requests: ReturnType<typeof followRequests>, step: string) {
    // Lazy texts (a chunk, a query) settle before the page is read.
    await requests.settled();
    expect(await page.evaluate(() => document.documentElement.lang), step).toBe('de');
    const shown = await pageTexts(page);
    expect(englishIn(shown), `English left on ${step} (${page.url()})`).toEqual([]);
    await expectNoAxeViolations(page);
  }

  it.each([
    ['phone', PHONE_390, 'B', 4],
    ['desktop', DESKTOP, 'C', 5],
  ] as const)(
    'a German browser signs in, finds the film, holds a seat, pays and sees the ticket (%s)',
    async (name, viewport, row, number) => {
      const customer = await registerUser(server.url, { name: `Kundin ${name}` });
      // The browser speaks German: the app follows it without being told.
      const context = await browser.newContext({ baseURL: server.url, viewport, locale: 'de-DE' });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const requests = followRequests(page);
      const pageErrors: Error[] = [];
      page.on('pageerror', (err) => pageErrors.push(err));
      try {
        await page.goto('/login');
        await page.getByRole('heading', { level: 1, name: de.web['auth.login.title'] }).waitFor();
        await expectGerman(page, requests, 'sign-in');
        await screenshot(page, `languages-de-login-${name}`);
        await page.getByLabel(de.web['auth.email']!).fill(customer.user.email);
        await page.getByLabel(de.web['auth.password']!, { exact: true }).fill(customer.password);
        await page.getByRole('button', { name: de.web['auth.login.submit'] }).click();

        await page.waitForURL(/\/movies$/);
        await page.getByRole('heading', { level: 1, name: de.web['layout.movies'] }).waitFor();
        await page.getByText(show.movieTitle).first().waitFor();
        await expectGerman(page, requests, 'movies');
        await screenshot(page, `languages-de-movies-${name}`);

        await page
          .getByRole('link', { name: new RegExp(show.movieTitle) })
          .first()
          .click();
        await page.getByRole('heading', { level: 1, name: show.movieTitle }).waitFor();
        await expectGerman(page, requests, 'showtimes');
        await screenshot(page, `languages-de-showtimes-${name}`);

        await page.locator(`a[href="/showtimes/${show.showtimeId}/seats"]`).first().click();
        const seat = (row: string, n: number) =>
          page.getByRole('button', { name: new RegExp(`^Reihe ${row}, Platz ${n}, `) });
        await seat(row, number).waitFor();
        await expectGerman(page, requests, 'seat map');
        await screenshot(page, `languages-de-seats-${name}`);
        await seat(row, number).click();
        await page.getByRole('button', { name: de.web['seatMap.hold'] }).click();
        const checkout = page.getByRole('button', { name: de.web['seatMap.checkout'] });
        await expect.poll(() => checkout.isEnabled()).toBe(true);
        await expectGerman(page, requests, 'seats held');
        await screenshot(page, `languages-de-held-${name}`);
        await checkout.click();

        // The test checkout page (the server's) speaks the customer's language too.
        await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
        await page.getByText(de.server['checkout.banner']!).waitFor();
        expect(await page.getByText(`Reihe ${row}, Platz ${number}`).count()).toBeGreaterThan(0);
        await expectGerman(page, requests, 'test checkout');
        await screenshot(page, `languages-de-pay-${name}`);
        await page.getByRole('button', { name: de.server['checkout.pay'], exact: true }).click();

        await page.waitForURL(/\/checkout\/success\?session_id=/);
        await page.getByRole('heading', { level: 1, name: de.web['checkout.titles.paid'] }).waitFor();
        await page.getByRole('button', { name: de.web['checkout.downloadPdf'] }).waitFor();
        await expectGerman(page, requests, 'payment successful');
        await screenshot(page, `languages-de-success-${name}`);

        await page.getByRole('link', { name: de.web['layout.myTickets'] }).first().click();
        await page.getByRole('heading', { level: 1, name: de.web['layout.myTickets'] }).waitFor();
        await page.locator('img[data-qr-value]').first().waitFor();
        await expectGerman(page, requests, 'My Tickets');
        await screenshot(page, `languages-de-tickets-${name}`);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('switches to Spanish in the header, keeps the choice over a reload, and the server answers in it', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, locale: 'en-US' });
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
      await page.getByRole('heading', { level: 1, name: es.web['auth.login.title'] }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: es.web['auth.login.title'] }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('cinema.lang'))).toBe('es');
      // A wrong password: the server's message in Spanish.
      await page.getByLabel(es.web['auth.email']!).fill('nadie@example.com');
      await page.getByLabel(es.web['auth.password']!, { exact: true }).fill('Incorrecta#2026');
      await page.getByRole('button', { name: es.web['auth.login.submit'] }).click();
      await page.getByRole('alert').getByText(es.server['errors.invalid_credentials']!).waitFor();
      await screenshot(page, 'languages-es-login-error');
    } finally {
      await context.close();
    }
  });
});
