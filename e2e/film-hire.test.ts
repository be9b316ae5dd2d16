import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, filmWeek } from '@cinema/contract/constants';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  PHONE_390,
  reportSkippedWithoutChromium,
  screenshot,
  scrollsSideways,
  signedInPages,
} from './support/browser.ts';
import { buyTickets, scheduleShowtime, type ScheduledShowtime } from './support/flows.ts';
import { signIn, startServer, type Account, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium(
  'e2e/film-hire.test.ts (distributors, terms, the film-hire report and returns, CSV)',
);

/** Saves what a button downloads and reads it as lines. */
async function downloaded(page: Page, button: string): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const text = await readFile((await download.path())!, 'utf8');
  return { name: download.suggestedFilename(), lines: text.split('\r\n') };
}

describe.skipIf(!hasChromium)('film hire in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let show: ScheduledShowtime;
  /** The film week of the showtime (its first day), on the cinema's clocks (UTC here; weeks start on Fridays). */
  let week: string;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ CINEMA_TIME_ZONE: 'UTC' }), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    show = await scheduleShowtime(server, { title: 'Hire Feature', hoursFromNow: 30, priceCents: 1250 });
    week = filmWeek(show.startsAt.slice(0, 10), 'UTC').first;
    // Three tickets at 12.50 in two orders: gross 37.50, no tax yet.
    await buyTickets(server, show.showtimeId, 2);
    await buyTickets(server, show.showtimeId, 1);
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  it('adds a distributor, gives the movie terms, and reads the rental due and the returns, as CSV too (1280 px)', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Distributors' }).click();
    await page.getByRole('heading', { name: 'Distributors and film hire terms', level: 1 }).waitFor();

    await page.getByLabel('New distributor').fill('Lumen Flms');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Lumen Flms added.' }).waitFor();
    // A typo put right: renamed in place.
    await page.getByLabel('Name of Lumen Flms').fill('Lumen Films');
    await page.getByRole('button', { name: 'Rename Lumen Flms' }).click();
    await page.getByRole('status').filter({ hasText: 'Renamed to Lumen Films.' }).waitFor();

    await page.getByRole('button', { name: 'Set terms for Hire Feature' }).click();
    const form = page.getByRole('form', { name: 'Film hire terms of Hire Feature' });
    await form.getByRole('combobox', { name: 'Distributor' }).selectOption({ label: 'Lumen Films' });
    await form.getByRole('spinbutton', { name: 'Percent', exact: true }).fill('50');
    await form.getByLabel('Minimum guarantee per week').fill('10.00');
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByRole('spinbutton', { name: 'From week' }).fill('2');
    await form.getByRole('spinbutton', { name: 'Percent', exact: true }).nth(1).fill('40');
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: 'Save terms' }).click();
    await page.getByRole('status').filter({ hasText: 'Terms of Hire Feature saved.' }).waitFor();
    await page.getByText('Lumen Films · 50% · from week 2: 40% · guarantee $10.00').waitFor();
    await screenshot(page, 'distributors-desktop');

    await page.getByRole('link', { name: 'Film hire' }).click();
    await page.getByRole('heading', { name: 'Film hire', level: 1 }).waitFor();
    // This film week on the cinema's clocks; the showtime, 30 hours on, may be in the next.
    if (filmWeek(new Date().toISOString().slice(0, 10), 'UTC').first !== week) {
      await page.getByRole('button', { name: 'Next week' }).click();
      await page.waitForURL(new RegExp(`week=${week}`));
    }
    const table = page.getByRole('table', { name: 'Lumen Films: $18.75 due' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Hire Feature' }) });
    // Week 1 of its run: 3 admissions, gross 37.50, no tax, net 37.50; 50% of it (18.75) beats the guarantee.
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      '1',
      '3',
      '$37.50',
      '$0.00',
      '$37.50',
      '50%',
      '$10.00',
      '$18.75',
    ]);
    const totals = page.getByRole('definition');
    expect(await totals.allTextContents()).toEqual(['3', '$37.50', '$37.50', '$18.75']);
    // The returns: the showtime's day, time and hall.
    const returns = page.getByRole('table', { name: 'Hire Feature: 3 admissions, $37.50' });
    const time = show.startsAt.slice(11, 16);
    const showRow = returns.getByRole('row').filter({ hasText: time });
    // The returns come from a request of their own: wait for their row, as a reader would.
    await showRow.waitFor();
    expect(await showRow.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      time,
      show.auditorium,
      '3',
      '$37.50',
    ]);
    await expectNoAxeViolations(page);
    await screenshot(page, 'film-hire-desktop');

    const rental = await downloaded(page, 'Download film hire (CSV)');
    expect(rental.name).toBe(`film-hire-${week}.csv`);
    expect(rental.lines).toEqual([
      'Distributor,Film,Week of run,Admissions,Gross,Tax,Net,Percent,Guarantee,Rental due',
      'Lumen Films,Hire Feature,1,3,37.50,0.00,37.50,50,10.00,18.75',
      'Lumen Films,Total,,3,37.50,0.00,37.50,,,18.75',
      'Total,,,3,37.50,0.00,37.50,,,18.75',
      '',
    ]);
    const feed = await downloaded(page, 'Download returns (CSV)');
    expect(feed.name).toBe(`box-office-${week}.csv`);
    expect(feed.lines[0]).toBe('Film,Distributor,Day,Time,Hall,Admissions,Gross');
    expect(feed.lines[1]).toBe(
      `Hire Feature,Lumen Films,${show.startsAt.slice(0, 10)},${time},${show.auditorium},3,37.50`,
    );
    expect(feed.lines).toContain('Total,,3,37.50');
    expect(pageErrors).toEqual([]);
  });

  it('moves by film weeks on a phone (390 px), the tables scrolling in their own boxes', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, PHONE_390);
    await page.goto(`/admin/reports/film-hire?week=${addDays(week, 3)}`);
    // Any day of a week opens that week.
    await page.getByRole('table', { name: 'Lumen Films: $18.75 due' }).waitFor();
    expect(await page.getByLabel('Week containing').inputValue()).toBe(week);
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshot(page, 'film-hire-phone');

    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.waitForURL(new RegExp(`week=${addDays(week, -7)}`));
    await page.getByText('No showtimes this film week.').first().waitFor();
    expect(await page.getByRole('definition').first().textContent()).toBe('0');
    await page.getByRole('button', { name: 'Next week' }).click();
    await page.waitForURL(new RegExp(`week=${week}`));
    await page.getByRole('table', { name: 'Lumen Films: $18.75 due' }).waitFor();

    await page.goto('/admin/distributors');
    await page.getByText('Lumen Films · 50% · from week 2: 40% · guarantee $10.00').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    expect(pageErrors).toEqual([]);
  });
});
