import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, instantAt, localDate, localTime, weekStart } from '@cinema/contract/constants';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  useAccount,
} from './support/browser.ts';
import { apiAs, signIn, startServer, type Account, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium(
  'e2e/schedule.test.ts (recurring showtimes, the day list, the week by hall, the audit log)',
);

/** The cinema keeps London's clocks; the manager's browser is in Los Angeles: every time shown is London's. */
const CINEMA_ZONE = 'Europe/London';
const BROWSER_ZONE = 'America/Los_Angeles';
const PHONE_390 = { width: 390, height: 844 } as const;
const VIEWPORTS = { phone: PHONE_390, desktop: DESKTOP } as const;

const plain = (s: string | null) => (s ?? '').replace(/[\s\u202f\u00a0]+/g, ' ').trim();
/** True when the page itself scrolls sideways (a box of its own that scrolls is fine). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim());

describe.skipIf(!hasChromium)('scheduling and the audit log in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let api: ReturnType<typeof apiAs>;
  const contexts: BrowserContext[] = [];
  let hall: { id: string; name: string };
  let feature: { id: string; title: string };
  let blocker: { id: string; title: string };
  /** Tomorrow on the cinema's calendar: the batch runs from here for a week. */
  let first: string;
  /** The day the hall is already busy at 20:00. */
  let busyDay: string;

  async function pageAt(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      timezoneId: BROWSER_ZONE,
      locale: 'en-GB',
    });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await useAccount(page, admin);
    return page;
  }

  async function movie(title: string, durationMinutes: number) {
    const form = new FormData();
    form.set('title', title);
    form.set('description', 'A film made for tests.');
    form.set('durationMinutes', String(durationMinutes));
    form.set('rating', 'PG');
    const created = await api.post<{ id: string }>('/admin/movies', form);
    return { id: created.id, title };
  }

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ CINEMA_TIME_ZONE: CINEMA_ZONE }), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    api = apiAs(server.url, admin.token);
    hall = (await api.get<{ id: string; name: string }[]>('/admin/rooms'))[0]!;
    feature = await movie('Recurring Feature', 90);
    blocker = await movie('The Blocker', 100);
    first = addDays(localDate(new Date(), CINEMA_ZONE), 1);
    busyDay = addDays(first, 2);
    // Already scheduled: 19:30 to 21:25 (cleaning included) on the busy day, in the way of a 20:00 showing.
    await api.post('/admin/showtimes', {
      movieId: blocker.id,
      auditoriumId: hall.id,
      startsAt: instantAt(busyDay, '19:30', CINEMA_ZONE).at.toISOString(),
      priceCents: 1000,
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it('previews a recurring schedule with its clash, writes nothing, then creates all of it once the day is left out', async () => {
    const page = await pageAt();
    await page.goto('/admin/schedule');
    await page.getByRole('heading', { level: 1, name: 'Schedule recurring showtimes' }).waitFor();
    expect(await focusedText(page)).toBe('Schedule recurring showtimes');
    expect(await page.title()).toBe('Schedule recurring showtimes · Cinema');
    await page.getByText(`(${CINEMA_ZONE})`).waitFor();

    await page.getByRole('combobox', { name: 'Movie' }).selectOption({ label: feature.title });
    await page.getByRole('checkbox', { name: new RegExp(`^${hall.name} \\(`) }).check();
    await page.getByLabel('First day').fill(first);
    await page.getByLabel('Last day').fill(addDays(first, 6));
    await page.getByLabel('Start time 1').fill('20:00');
    await page.getByLabel('Price ($, optional)').fill('12.50');
    const create = page.getByRole('button', { name: /^Create/ });
    expect(await create.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Preview' }).click();

    const preview = page.getByRole('heading', { name: /^Preview:/ });
    await preview.waitFor();
    expect(plain(await preview.textContent())).toBe('Preview: 6 to create, 1 problem');
    expect(await focusedText(page)).toBe('Preview: 6 to create, 1 problem');
    const problem = page.locator('[data-problem="overlap"]');
    expect(await problem.count()).toBe(1);
    const said = plain(await problem.textContent());
    expect(said).toContain(`${hall.name} is busy: it overlaps “${blocker.title}”`);
    // The clash in the cinema's time, not the browser's: 19:30 until 21:25 in London.
    expect(said).toContain('19:30–21:25');
    expect(said).toMatch(/20:00/);
    expect(await create.isDisabled()).toBe(true);
    // Nothing was written by the preview.
    expect(await api.get(`/admin/showtimes?movieId=${feature.id}`)).toEqual([]);
    await expectNoAxeViolations(page);
    await screenshot(page, 'schedule-preview-clash-desktop');

    // Fix it: leave the busy day out, preview again, create.
    await problem.getByRole('button', { name: /^Leave out/ }).click();
    await page.getByText('The form changed since this preview: preview again.').waitFor();
    expect(await page.getByLabel('Day left out 1').inputValue()).toBe(busyDay);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview: 6 to create' }).waitFor();
    await page.getByRole('button', { name: 'Create 6 showtimes' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Created 6 showtimes of “${feature.title}”.` })
      .waitFor();

    const created = await api.get<{ startsAt: string; auditoriumId: string }[]>(
      `/admin/showtimes?movieId=${feature.id}`,
    );
    expect(created).toHaveLength(6);
    expect(created.map((s) => localTime(s.startsAt, CINEMA_ZONE))).toEqual(Array(6).fill('20:00'));
    expect(created.map((s) => localDate(s.startsAt, CINEMA_ZONE))).not.toContain(busyDay);
    expect(new Set(created.map((s) => s.auditoriumId))).toEqual(new Set([hall.id]));
    await screenshot(page, 'schedule-created-desktop');
  });

  it('lists one day at a time, today first, with day navigation, a movie filter and pages', async () => {
    // 60 showtimes on one day (5 halls × 12 times) to page through.
    const pagedDay = addDays(first, 20);
    const halls = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        api.post<{ id: string }>('/admin/rooms', { name: `Paging ${n}`, rows: 2, cols: 4 }),
      ),
    );
    const shorts = await movie('Short Programme', 60);
    const batch = await api.post<{ created: boolean; showtimes: unknown[] }>('/admin/showtimes/batch', {
      movieId: shorts.id,
      auditoriumIds: halls.map((h) => h.id),
      from: pagedDay,
      to: pagedDay,
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      times: Array.from({ length: 12 }, (_, i) => `${String(i * 2).padStart(2, '0')}:00`),
      priceCents: 900,
    });
    expect(batch.showtimes).toHaveLength(60);

    const page = await pageAt();
    await page.goto('/admin/showtimes');
    await page.getByRole('heading', { level: 1, name: 'Manage Showtimes' }).waitFor();
    expect(await focusedText(page)).toBe('Manage Showtimes');
    const day = page.getByRole('heading', { level: 2 });
    await day.filter({ hasText: /^Today, / }).waitFor();
    expect(await page.getByRole('button', { name: 'Today' }).isDisabled()).toBe(true);
    await page.getByText('No showtimes', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Next day →' }).click();
    await page.waitForURL(`**/admin/showtimes?day=${first}`);
    const row = page.locator('tbody tr', { hasText: feature.title });
    await row.waitFor();
    expect(plain(await row.locator('td').nth(1).innerText())).toBe('20:00');
    expect(plain(await day.textContent())).toContain('1 showtime');

    await page.getByLabel('Date').fill(busyDay);
    await page.waitForURL(`**/admin/showtimes?day=${busyDay}`);
    await page.locator('tbody tr', { hasText: blocker.title }).waitFor();
    expect(await page.locator('tbody tr', { hasText: feature.title }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Movie' }).selectOption({ label: feature.title });
    await page.getByText('No showtimes', { exact: true }).waitFor();
    await page.getByRole('button', { name: '← Previous day' }).click();
    await page.locator('tbody tr', { hasText: feature.title }).waitFor();
    expect(page.url()).toContain(`movieId=${feature.id}`);

    await page.goto(`/admin/showtimes?day=${pagedDay}`);
    await page.getByText('Page 1 of 2').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(50);
    expect(plain(await day.textContent())).toContain('60 showtimes');
    await expectNoAxeViolations(page);
    await screenshot(page, 'manage-showtimes-day-desktop');
    await page.getByRole('button', { name: 'Later →' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(10);
    expect(await page.getByRole('button', { name: 'Later →' }).isDisabled()).toBe(true);
  });

  it('draws a hall’s week: films, cleaning and free time, said as a list', async () => {
    const page = await pageAt();
    const monday = weekStart(busyDay);
    await page.goto(`/admin/week?hall=${hall.id}&week=${busyDay}`);
    await page.getByRole('heading', { level: 1, name: 'Week by hall' }).waitFor();
    const busy = page.locator(`li[data-day="${busyDay}"]`);
    await busy.waitFor();
    const said = (await busy.locator('ul li').allInnerTexts()).map(plain);
    expect(said).toHaveLength(4);
    expect(said[0]).toBe('09:00–19:30 Free (10 h 30 min)');
    expect(said[1]).toMatch(new RegExp(`^19:30–21:10 ${blocker.title} · 0/\\d+ sold$`));
    expect(said.slice(2)).toEqual(['21:10–21:25 Cleaning', '21:25–24:00 Free (2 h 35 min)']);
    expect(await page.locator('li[data-day]').count()).toBe(7);
    expect(await page.locator('li[data-day]').first().getAttribute('data-day')).toBe(monday);
    // A day of the batch in the same week (the days after the busy one are in it unless it is a Sunday).
    const other = [first, addDays(first, 1), addDays(first, 3)].find((d) => weekStart(d) === monday)!;
    const films = await page.locator(`li[data-day="${other}"] [data-segment="film"]`).allInnerTexts();
    expect(films.map(plain)[0]).toMatch(new RegExp(`^20:00–21:30 ${feature.title} · 0/\\d+ sold$`));
    expect(plain(await page.locator(`li[data-day="${other}"] [data-segment="cleaning"]`).innerText())).toBe(
      '21:30–21:45 Cleaning',
    );
    await page.getByRole('button', { name: 'Next week →' }).click();
    await page.waitForURL(`**week=${addDays(monday, 7)}*`);
    await page.locator(`li[data-day="${addDays(monday, 7)}"]`).waitFor();
  });

  it('shows the audit log newest first with before → after, filters it and pages to older entries', async () => {
    // 55 more entries, so there is an older page.
    for (let i = 0; i < 55; i++) {
      const created = await api.post<{ id: string }>('/admin/showtimes', {
        movieId: blocker.id,
        auditoriumId: hall.id,
        startsAt: instantAt(addDays(first, 40 + i), '10:00', CINEMA_ZONE).at.toISOString(),
        priceCents: 1100,
      });
      if (i === 54) await api.delete(`/admin/showtimes/${created.id}`);
    }
    const page = await pageAt();
    await page.goto('/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    expect(await focusedText(page)).toBe('Audit log');
    const entries = page.locator('li[data-audit-id]');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(50);
    const newest = entries.first();
    expect(await newest.getAttribute('data-action')).toBe('showtime.delete');
    expect(plain(await newest.textContent())).toContain(server.admin.email);
    const beforeOf = async (field: string) =>
      plain(await newest.locator('tr', { has: page.locator(`th:text-is("${field}")`) }).innerText());
    expect(await beforeOf('Movie')).toBe(`Movie ${blocker.title} —`);
    expect(await beforeOf('Auditorium')).toBe(`Auditorium ${hall.name} —`);
    expect(await beforeOf('Price')).toBe('Price $11.00 —');
    // The start on the cinema's clocks.
    expect(await beforeOf('Starts at')).toMatch(/10:00 —$/);

    await page.getByRole('button', { name: 'Older entries' }).click();
    await expect.poll(() => entries.count()).toBeGreaterThan(50);
    await page.getByLabel('Action').fill('showtime.batch');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**/admin/audit?action=showtime.batch');
    await expect.poll(() => entries.count()).toBe(2);
    const batch = plain(await entries.first().textContent());
    expect(batch).toContain('Short Programme');
    expect(plain(await entries.nth(1).textContent())).toContain(feature.title);
    expect(plain(await entries.nth(1).textContent())).toContain(busyDay);

    await page.getByLabel('Action').fill('');
    await page.getByLabel('Staff email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No entries match.').waitFor();
  });

  it.each(Object.entries(VIEWPORTS))('is usable on every new screen at %s size', async (name, viewport) => {
    const page = await pageAt(viewport);
    const screens = [
      ['/admin/schedule', 'Schedule recurring showtimes', 'schedule'],
      [`/admin/showtimes?day=${first}`, 'Manage Showtimes', 'manage-showtimes'],
      [`/admin/week?hall=${hall.id}&week=${busyDay}`, 'Week by hall', 'week'],
      ['/admin/audit', 'Audit log', 'audit'],
    ] as const;
    for (const [url, title, file] of screens) {
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByText('Loading…').first().waitFor({ state: 'detached' });
      if (file === 'week') await page.locator(`li[data-day="${busyDay}"]`).waitFor();
      if (file === 'audit') await page.locator('li[data-audit-id]').first().waitFor();
      if (file === 'manage-showtimes') await page.locator('tbody tr').first().waitFor();
      if (file === 'schedule') {
        // The same week again: every showing now clashes with the batch already created, or with the blocker.
        await page.getByRole('combobox', { name: 'Movie' }).selectOption({ label: feature.title });
        await page.getByRole('checkbox', { name: new RegExp(`^${hall.name} \\(`) }).check();
        await page.getByLabel('First day').fill(first);
        await page.getByLabel('Last day').fill(addDays(first, 6));
        await page.getByLabel('Price ($, optional)').fill('12.50');
        await page.getByRole('button', { name: 'Preview' }).click();
        await page.getByRole('heading', { name: 'Preview: 0 to create, 7 problems' }).waitFor();
        expect(await page.locator('[data-problem="overlap"]').count()).toBe(7);
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      expect(await scrollsSideways(page), `${url} scrolls sideways at ${name} size`).toBe(false);
      await expectNoAxeViolations(page);
      // The log is long: its first screenful is what a person looks at.
      if (file === 'audit') await page.screenshot({ path: await screenshot(page, `${file}-${name}`) });
      else await screenshot(page, `${file}-${name}`);
    }
  });
});
