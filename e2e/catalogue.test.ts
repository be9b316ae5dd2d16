import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  useAccount,
} from './support/browser.ts';
import { buyTickets, scheduleShowtime } from './support/flows.ts';
import {
  apiAs,
  registerUser,
  signIn,
  type Account,
  type RunningServer,
  startServer,
} from './support/server.ts';

reportSkippedWithoutChromium('e2e/catalogue.test.ts (admin adds a movie and a showtime, customers see them)');

const ADMIN_ZONE = 'America/New_York';
const CUSTOMER_ZONE = 'Asia/Tokyo';

/** A 120×180 PNG poster: a vertical gradient. */
function posterPng(): Buffer {
  const png = new PNG({ width: 120, height: 180 });
  for (let y = 0; y < 180; y++) {
    for (let x = 0; x < 120; x++) {
      const i = (y * 120 + x) * 4;
      png.data[i] = 40 + y;
      png.data[i + 1] = 30;
      png.data[i + 2] = 200 - y;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** The UTC instant of a wall-clock time in a time zone, worked out with Intl (independently of the app). */
function instantIn(zone: string, date: string, time: string): number {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(guess)
    .find((p) => p.type === 'timeZoneName')!
    .value.replace('GMT', '');
  return Date.parse(`${date}T${time}:00${offset || '+00:00'}`);
}

/** Chromium and Node may put a narrow no-break space before "PM": compare text with plain spaces. */
const plain = (s: string | null) => (s ?? '').replace(/[\s\u202f\u00a0]+/g, ' ').trim();

describe.skipIf(!hasChromium)('catalogue in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  const contexts: BrowserContext[] = [];

  async function pageFor(
    account: Account,
    zone: string,
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      timezoneId: zone,
      locale: 'en-US',
    });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await useAccount(page, account);
    return page;
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('an admin adds a movie with a poster and a showtime; a customer elsewhere sees both in their own time', async () => {
    const page = await pageFor(admin, ADMIN_ZONE);
    const title = `Harbour Lights ${Date.now().toString(36)}`;
    await page.goto('/admin');

    // Add Movie: the button waits for a title; the chosen poster is previewed before upload.
    const addMovie = page.getByRole('form', { name: 'Add Movie' });
    const addMovieButton = addMovie.getByRole('button', { name: 'Add movie' });
    expect(await addMovieButton.isDisabled()).toBe(true);
    await addMovie.getByLabel('Title').fill(title);
    await addMovie.getByLabel('Description').fill('Two keepers, one light, a very long night.');
    await addMovie.getByLabel('Duration (minutes)').fill('95');
    // The certificates of the cinema's rating system (MPAA by default), with their minimum ages.
    const rating = addMovie.getByLabel('Rating');
    expect(await rating.locator('option').allTextContents()).toEqual([
      'Not rated',
      'G',
      'PG',
      'PG-13',
      'R (17+)',
      'NC-17 (18+)',
    ]);
    await rating.selectOption('PG');
    await addMovie.getByLabel('Director').fill('Ines Harbour');
    await addMovie.getByLabel('Cast').fill('Ada Keel, Ben Sound');
    await addMovie.getByLabel('Release date').fill('2026-05-01');
    await addMovie.getByLabel('Trailer link').fill('https://example.com/trailers/harbour-lights');
    await addMovie.getByRole('group', { name: 'Genres' }).getByLabel('Drama').check();
    await addMovie.getByRole('group', { name: 'Genres' }).getByLabel('Mystery').check();
    await addMovie
      .getByLabel('Poster image')
      .setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: posterPng() });
    await expect
      .poll(() =>
        addMovie.getByAltText('Poster preview').evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(120);
    expect(await addMovieButton.isDisabled()).toBe(false);
    await addMovieButton.click();
    await expect.poll(() => addMovie.getByRole('status').textContent()).toBe(`Added “${title}”.`);
    const movieList = page.getByRole('list', { name: 'Movies' });
    await movieList.getByText(title).waitFor();

    // Add Showtime: 19:30 New York time, three days from now, in Hall 2 at $13.50.
    const date = new Date(Date.now() + 3 * 24 * 3600_000).toLocaleDateString('en-CA', {
      timeZone: ADMIN_ZONE,
    });
    const expected = instantIn(ADMIN_ZONE, date, '19:30');
    const addShowtime = page.getByRole('form', { name: 'Add Showtime' });
    await addShowtime.getByLabel('Movie').selectOption({ label: title });
    await addShowtime.getByLabel('Hall').selectOption({ label: 'Hall 2 (138 seats)' });
    await addShowtime.getByLabel('Starts at').fill(`${date}T19:30`);
    await addShowtime.getByLabel('Price ($)').fill('13.50');
    await addShowtime.getByRole('button', { name: 'Add showtime' }).click();
    await expect
      .poll(async () => plain(await addShowtime.getByRole('status').textContent()))
      .toMatch(/^Showtime added: .* in Hall 2, \$13\.50\.$/);

    // The server stored the instant the admin meant.
    const movies = await apiAs(server.url, admin.token).get<
      { id: string; title: string; posterUrl: string }[]
    >('/movies');
    const movie = movies.find((m) => m.title === title)!;
    const [showtime] = await apiAs(server.url, admin.token).get<
      { id: string; startsAt: string; priceCents: number }[]
    >(`/movies/${movie.id}/showtimes`);
    expect(Date.parse(showtime!.startsAt)).toBe(expected);
    expect(showtime!.priceCents).toBe(1350);

    // Half an hour later in the same hall overlaps: the message names the clash in the admin's own time.
    await addShowtime.getByLabel('Starts at').fill(`${date}T20:00`);
    await addShowtime.getByRole('button', { name: 'Add showtime' }).click();
    const alert = addShowtime.getByRole('alert');
    await alert.waitFor();
    expect(plain(await alert.textContent())).toContain(`Hall 2 is busy: it overlaps “${title}” at`);
    expect(plain(await alert.textContent())).toContain('7:30 PM');
    await page.getByRole('list', { name: 'Existing showtimes' }).getByText(title).first().waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'admin-dashboard-desktop');

    // A customer in Tokyo sees the movie and the showtime in Tokyo time.
    const customer = await registerUser(server.url, { name: 'Tomo Customer' });
    for (const [label, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const view = await pageFor(customer, CUSTOMER_ZONE, viewport);
      await view.goto('/movies');
      const card = view.getByRole('link', { name: new RegExp(title) });
      await card.waitFor();
      expect(plain(await card.textContent())).toContain('PG · 95 min');
      const poster = card.locator('img');
      // Loaded from the stored poster (120 px wide, never enlarged), whichever width of its srcset was chosen.
      await expect
        .poll(() =>
          poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc),
        )
        .toContain(movie.posterUrl);
      expect(plain(await card.textContent())).toContain('Drama · Mystery');
      await expectNoAxeViolations(view);
      await screenshot(view, `movies-${label}`);
      // Filtered by genre: a western shows no card; a mystery shows this one, and the address keeps the choice.
      await view.getByLabel('Genre').selectOption({ label: 'Western' });
      await view.getByText('No movies of this genre.').waitFor();
      await view.getByLabel('Genre').selectOption({ label: 'Mystery' });
      await card.waitFor();
      expect(new URL(view.url()).searchParams.get('genre')).toBe('MYSTERY');

      await card.click();
      await view.waitForURL((u) => u.pathname === `/movies/${movie.id}`);
      await view.getByRole('heading', { name: title, level: 1 }).waitFor();
      await view.getByText('Two keepers, one light, a very long night.').waitFor();
      const details = plain(await view.getByRole('region', { name: 'About the film' }).textContent());
      expect(details).toContain('GenresDrama · Mystery');
      expect(details).toContain('DirectorInes Harbour');
      expect(details).toContain('CastAda Keel, Ben Sound');
      expect(details).toContain('ReleasedMay 1, 2026');
      expect(await view.getByRole('link', { name: /^Watch the trailer/ }).getAttribute('href')).toBe(
        'https://example.com/trailers/harbour-lights',
      );
      const row = view.locator(`[data-showtime-id="${showtime!.id}"]`);
      const tokyoTime = new Date(expected).toLocaleTimeString('en-US', {
        timeZone: CUSTOMER_ZONE,
        timeStyle: 'short',
      });
      expect(plain(await row.locator('time').textContent())).toBe(plain(tokyoTime));
      expect(plain(await row.textContent())).toContain('Hall 2');
      expect(plain(await row.textContent())).toContain('$13.50');
      const tokyoDay = new Date(expected).toLocaleDateString('en-US', {
        timeZone: CUSTOMER_ZONE,
        weekday: 'long',
        month: 'long',
        day: 'numeric',
      });
      await view.getByRole('region', { name: tokyoDay }).waitFor();
      expect(await row.getByRole('link', { name: /^Select/ }).getAttribute('href')).toBe(
        `/showtimes/${showtime!.id}/seats`,
      );
      await expectNoAxeViolations(view);
      await screenshot(view, `movie-showtimes-${label}`);
    }
  });

  it('shows the empty state of a movie without showtimes', async () => {
    const form = new FormData();
    form.set('title', 'Coming Attraction');
    const movie = await apiAs(server.url, admin.token).post<{ id: string }>('/admin/movies', form);
    const customer = await registerUser(server.url);
    const page = await pageFor(customer, CUSTOMER_ZONE);
    await page.goto(`/movies/${movie.id}`);
    await page.getByText('No showtimes yet.').waitFor();
    await page.getByText('NR · ? min').waitFor();
  });

  it('counts sold seats on Manage Showtimes and refuses, with a reason, to delete a movie that sold tickets', async () => {
    const { movieId, movieTitle, showtimeId, startsAt } = await scheduleShowtime(server, {
      title: `Sold Out ${Date.now().toString(36)}`,
    });
    await buyTickets(server, showtimeId, 2);

    const page = await pageFor(admin, ADMIN_ZONE);
    // The list shows one day of the cinema's calendar (today unless asked): the showtime's.
    const { timeZone } = await apiAs(server.url).get<{ timeZone: string }>('/settings');
    const day = new Date(startsAt).toLocaleDateString('en-CA', { timeZone });
    await page.goto(`/admin/showtimes?day=${day}`);
    const row = page.locator(`tr[data-showtime-id="${showtimeId}"]`);
    await row.waitFor();
    const cells = row.locator('td');
    expect(plain(await row.locator('th').textContent())).toBe(movieTitle);
    expect(plain(await cells.nth(2).innerText())).toBe('2');
    expect(plain(await cells.nth(3).innerText())).toBe('0');
    expect(await row.getByRole('link', { name: 'Booked seats' }).getAttribute('href')).toBe(
      `/admin/showtimes/${showtimeId}/booked`,
    );
    expect(await row.getByRole('link', { name: 'QR codes' }).getAttribute('href')).toBe(
      `/admin/showtimes/${showtimeId}/tickets`,
    );
    await expectNoAxeViolations(page);
    await screenshot(page, 'manage-showtimes-desktop');

    await page.goto('/admin');
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      await dialog.accept();
    });
    await page.getByRole('button', { name: `Delete ${movieTitle}`, exact: true }).click();
    await expect.poll(() => dialogs.length).toBe(2);
    expect(dialogs[0]).toBe('confirm: Delete this movie?');
    expect(dialogs[1]).toBe('alert: This movie has sold tickets and cannot be deleted');
    const movies = await apiAs(server.url, admin.token).get<{ id: string }[]>('/movies');
    expect(movies.map((m) => m.id)).toContain(movieId);
  });
});
