import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  signedInPages,
} from './support/browser.ts';
import { apiAs, signIn, startServer, type Account, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/money.test.ts (showtimes priced in yen and in euros)');

/** Chromium may write a no-break space between an amount and its symbol: compare text with plain spaces. */
const plain = (s: string | null) => (s ?? '').replace(/[\s\u202f\u00a0]+/g, ' ').trim();

/** A local datetime-local value (the browser runs on UTC) `days` from now at `time`. */
const startIn = (days: number, time: string) =>
  `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;

interface Cinema {
  server: RunningServer;
  admin: Account;
  movie: { id: string; title: string };
}

/** A server in `currency` with one movie, its admin signed in. */
async function openCinema(currency: string): Promise<Cinema> {
  const server = await startServer({ CURRENCY: currency });
  const admin = await signIn(server.url, server.admin.email, server.admin.password);
  const form = new FormData();
  const title = `Paper Lanterns ${currency}`;
  form.set('title', title);
  form.set('durationMinutes', '100');
  const movie = await apiAs(server.url, admin.token).post<{ id: string }>('/admin/movies', form);
  return { server, admin, movie: { id: movie.id, title } };
}

/** The showtimes of the movie as the public API gives them. */
const showtimesOf = (c: Cinema) =>
  apiAs(c.server.url, c.admin.token).get<{ startsAt: string; priceCents: number }[]>(
    `/movies/${c.movie.id}/showtimes`,
  );

describe.skipIf(!hasChromium)('money in the currency’s own unit, in the browser', () => {
  let browser: Browser;
  let yen: Cinema;
  let euro: Cinema;
  const pages = signedInPages();

  beforeAll(async () => {
    browser = await launchBrowser();
    yen = await openCinema('JPY');
    euro = await openCinema('EUR');
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await Promise.all([yen?.server.stop(), euro?.server.stop()]);
  });

  async function addShowtime(page: Page, c: Cinema, price: { label: string; value: string }, start: string) {
    const form = page.locator('form').filter({ has: page.locator('input[name="price"]') });
    await form.locator('select[name="movieId"]').selectOption({ label: c.movie.title });
    await form.locator('select[name="auditoriumId"]').selectOption({ index: 1 });
    await form.locator('input[name="startsAt"]').fill(start);
    await form.getByLabel(price.label).fill(price.value);
    await form.locator('button[type="submit"]').click();
    const status = form.getByRole('status');
    await expect.poll(async () => plain(await status.textContent())).not.toBe('');
    return plain(await status.textContent());
  }

  it('takes ¥1200 in the Add Showtime form, stores 1200 yen and shows ¥1,200', async () => {
    const { page } = await pages.open(browser, yen.server.url, yen.admin);
    await page.goto('/admin');
    const price = page.getByLabel('Price (¥)');
    // Whole yen: the default is ¥1,200, the field steps by ¥1 up to ¥100,000 (it stopped at 1000 "dollars").
    await expect.poll(() => price.inputValue()).toBe('1200');
    expect([await price.getAttribute('step'), await price.getAttribute('max')]).toEqual(['1', '100000']);

    const first = startIn(3, '18:00');
    expect(await addShowtime(page, yen, { label: 'Price (¥)', value: '1200' }, first)).toMatch(
      /^Showtime added: .*, ¥1,200\.$/,
    );
    expect(await addShowtime(page, yen, { label: 'Price (¥)', value: '500' }, startIn(3, '21:00'))).toMatch(
      /^Showtime added: .*, ¥500\.$/,
    );
    expect((await showtimesOf(yen)).map((s) => s.priceCents)).toEqual([1200, 500]);

    // The customer's list of the movie's showtimes says the same amounts.
    await page.goto(`/movies/${yen.movie.id}`);
    const rows = page.locator('[data-showtime-id]');
    await rows.first().waitFor();
    const texts = (await rows.allTextContents()).map(plain);
    expect(texts[0]).toContain('¥1,200');
    expect(texts[1]).toContain('¥500');
  });

  it('takes 12,50 € in German and stores 1250 cents', async () => {
    const { page } = await pages.open(browser, euro.server.url, euro.admin);
    await page.evaluate(() => localStorage.setItem('cinema.lang', 'de'));
    await page.goto('/admin');
    const price = page.getByLabel('Preis (€)');
    await expect.poll(() => price.inputValue()).toBe('12.00');
    expect([await price.getAttribute('step'), Number(await price.getAttribute('max'))]).toEqual([
      '0.01',
      1000,
    ]);

    expect(
      await addShowtime(page, euro, { label: 'Preis (€)', value: '12.50' }, startIn(4, '20:00')),
    ).toMatch(/^Vorstellung hinzugefügt: .*, 12,50 €\.$/);
    expect((await showtimesOf(euro)).map((s) => s.priceCents)).toEqual([1250]);
  });
});
