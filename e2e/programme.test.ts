import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  explainTimeout,
  hasChromium,
  launchBrowser,
  recordTraffic,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { apiAs, registerUser, signIn, startServer, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/programme.test.ts (showtime attributes, the accessible screenings filter)');

const PHONE_390 = { width: 390, height: 844 } as const;

// DESIGN §7.5: captioned sessions are hard to find online; the schedule filters to them and the customer buys one.
describe.skipIf(!hasChromium)('captioned showtimes on the schedule in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const pages = signedInPages();
  let captionedIds: string[];
  let plainId: string;
  let title: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const admin = await signIn(server.url, server.admin.email, server.admin.password);
    const api = apiAs(server.url, admin.token);
    const form = new FormData();
    title = 'Signs of the Harbour';
    form.set('title', title);
    form.set('durationMinutes', '90');
    // An R film (a new cinema's Child type is not sold for it) and a drama.
    form.set('rating', 'R');
    form.set('genres', 'DRAMA');
    const movie = await api.post<{ id: string }>('/admin/movies', form);
    const plainForm = new FormData();
    plainForm.set('title', 'Loud and Unsubtitled');
    plainForm.set('durationMinutes', '90');
    plainForm.set('genres', 'COMEDY');
    const other = await api.post<{ id: string }>('/admin/movies', plainForm);
    const halls = await api.get<{ id: string }[]>('/admin/rooms');
    // Tomorrow afternoon: on the schedule's second day, whatever the time now.
    const start = (hour: number) => {
      const at = new Date(Date.now() + 24 * 3600_000);
      at.setUTCHours(hour, 0, 0, 0);
      return at.toISOString();
    };
    const make = (movieId: string, hall: number, hour: number, attributes: string[]) =>
      api.post<{ id: string }>('/admin/showtimes', {
        movieId,
        auditoriumId: halls[hall]!.id,
        startsAt: start(hour),
        priceCents: 1100,
        attributes,
      });
    captionedIds = [
      (await make(movie.id, 0, 13, ['2D', 'CAPTIONED'])).id,
      (await make(movie.id, 1, 13, ['IMAX', 'CAPTIONED', 'SUBTITLES_EN'])).id,
    ];
    plainId = (await make(other.id, 0, 17, ['3D'])).id;
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  async function filterAndBuy(page: Page, showtimeId: string, seatName: RegExp) {
    const traffic = recordTraffic(page);
    await page.goto('/schedule');
    await page.getByRole('heading', { name: 'Schedule' }).waitFor();
    await page.getByRole('button', { name: /^Tomorrow/ }).click();
    await page.locator(`[data-showtime-id="${plainId}"]`).waitFor();

    // The accessible screenings: only the captioned film stays.
    await page.getByRole('button', { name: 'Accessible screenings' }).click();
    await expect.poll(() => page.locator(`[data-showtime-id="${plainId}"]`).count()).toBe(0);
    await expectNoAxeViolations(page);

    // Captioned, asked of the server: both captioned showtimes, each with its badges.
    await page.getByRole('button', { name: 'All screenings' }).click();
    await page
      .getByRole('group', { name: 'Filter showtimes' })
      .getByRole('button', { name: 'Captioned' })
      .click();
    await page.waitForURL(/attributes=CAPTIONED/);
    await expect.poll(() => page.locator(`[data-showtime-id="${plainId}"]`).count()).toBe(0);
    for (const id of captionedIds) await page.locator(`[data-showtime-id="${id}"]`).waitFor();
    // By genre too: no captioned comedy; the drama's captioned showtimes.
    await page.getByLabel('Genre').selectOption({ label: 'Comedy' });
    await page.getByText('No showtimes on this day match these filters.').waitFor();
    await page.getByLabel('Genre').selectOption({ label: 'Drama' });
    await page.waitForURL(/genre=DRAMA/);
    for (const id of captionedIds) await page.locator(`[data-showtime-id="${id}"]`).waitFor();
    const imax = page.locator(`[data-showtime-id="${captionedIds[1]}"]`);
    // The badges are part of the link's name, so a screen reader hears them too.
    await page
      .getByRole('link', {
        name: /Hall 2 · \$11\.00 Available\s*,\s*IMAX\s*,\s*Subtitles: English\s*,\s*Captioned$/,
      })
      .waitFor();
    const badges = await imax.locator('[data-attribute]').allTextContents();
    expect(badges.map((b) => b.replace(/^,\s*/, ''))).toEqual(['IMAX', 'Subtitles: English', 'Captioned']);
    expect(
      await page.getByRole('button', { name: 'Captioned', pressed: true }).count(),
      'the filter says it is on',
    ).toBe(1);
    // Nothing on the page scrolls sideways at this width.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    await expectNoAxeViolations(page);
    await screenshot(page, `schedule-captioned-${page.viewportSize()!.width}`);

    await page.locator(`[data-showtime-id="${showtimeId}"] a`).click();
    await page.waitForURL(new RegExp(`/showtimes/${showtimeId}/seats`));
    await page.getByRole('button', { name: seatName }).click();
    expect(
      await page.getByRole('list', { name: 'Screening' }).locator('[data-attribute]').allInnerTexts(),
    ).toContain('Captioned');
    // "Hold seats" once stayed disabled after the click on the seat in a CI run, and never when repeated: if it
    // happens again, the failure says what the page showed and loaded.
    await page.getByRole('button', { name: 'Hold seats' }).click().catch(explainTimeout(page, traffic));
    await expect.poll(() => page.getByRole('button', { name: 'Checkout' }).isEnabled()).toBe(true);
    // The basket states the film's age rule and offers no Child ticket for it.
    await page.getByText('Rated R: ages 17 and over only. Staff may ask for ID at the door.').waitFor();
    // The ticket types arrive with their own request: wait for them (under load the basket shows before them).
    const types = () =>
      page
        .getByRole('combobox', { name: /^Ticket type for / })
        .locator('option')
        .allTextContents();
    await expect.poll(types).toContain('Adult');
    expect(await types()).not.toContain('Child');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=/);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();

    await page.goto('/tickets');
    await page.getByRole('heading', { name: 'My Tickets' }).waitFor();
    const ticket = page.getByRole('listitem').filter({ hasText: title });
    await ticket.getByRole('list', { name: 'Screening' }).getByText('Captioned').waitFor();
    await expectNoAxeViolations(page);
  }

  it('filters the schedule to captioned showtimes and buys one on a 390 px phone', async () => {
    const customer = await registerUser(server.url, { name: 'Phone Viewer' });
    const { page, pageErrors } = await pages.open(browser, server.url, customer, PHONE_390);
    await filterAndBuy(page, captionedIds[0]!, /^Row A, seat 1, /);
    expect(pageErrors).toEqual([]);
  });

  it('filters the schedule to captioned showtimes and buys one at 1280 px', async () => {
    const customer = await registerUser(server.url, { name: 'Desk Viewer' });
    const { page, pageErrors } = await pages.open(browser, server.url, customer, DESKTOP);
    await filterAndBuy(page, captionedIds[1]!, /^Row A, seat 1, /);
    expect(pageErrors).toEqual([]);
    const { tickets } = await apiAs(server.url, customer.token).get<{
      tickets: { attributes?: string[] }[];
    }>('/me/tickets');
    expect(tickets[0]!.attributes).toEqual(['IMAX', 'SUBTITLES_EN', 'CAPTIONED']);
  });
});
