import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { buyTickets, scheduleShowtime } from './support/flows.ts';
import { signIn, startServer, type Account, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/reports.test.ts (sales reports, chart, CSV download)');

const PHONE_390 = { width: 390, height: 844 } as const;

describe.skipIf(!hasChromium)('sales reports in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let title: string;
  let day: string;
  const pages = signedInPages();

  beforeAll(async () => {
    // The cinema's clocks in UTC, so the showtime's day is the day of its UTC start.
    [server, browser] = await Promise.all([startServer({ CINEMA_TIME_ZONE: 'UTC' }), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    const show = await scheduleShowtime(server, {
      title: 'Report Feature',
      hoursFromNow: 30,
      priceCents: 1250,
    });
    title = show.movieTitle;
    day = show.startsAt.slice(0, 10);
    // Three tickets sold at 12.50: two in one order, one in another.
    await buyTickets(server, show.showtimeId, 2);
    await buyTickets(server, show.showtimeId, 1);
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  it('shows the figures of a span by movie, as a chart and a table, and downloads them as CSV', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Sales reports' }).click();
    const heading = page.getByRole('heading', { name: 'Sales reports', level: 1 });
    await heading.waitFor();
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await page.title()).toMatch(/^Sales reports/);

    // To first: From may not be after To (the showtime is tomorrow, the default span ends today).
    await page.getByLabel('To', { exact: true }).fill(day);
    await page.getByLabel('From', { exact: true }).fill(day);
    await page.getByRole('combobox', { name: 'Group by' }).selectOption('movie');
    await page.getByRole('button', { name: 'Show report' }).click();
    await page.waitForURL(new RegExp(`from=${day}&to=${day}&groupBy=movie`));

    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: title }) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    // Showtimes 1, … admits 3, gross $37.50, no discount, no refund, nothing to collect, net $37.50.
    expect(cells[0]).toBe('1');
    expect(cells).toContain('$37.50');
    expect(cells.slice(-14, -8)).toEqual(['3', '$37.50', '$0.00', '$0.00', '$0.00', '$37.50']);
    // Tax and net of it (no rate set: none), and the booking fees apart (none set).
    expect(cells.slice(-8, -6)).toEqual(['$0.00', '$37.50']);
    expect(cells.at(-1)).toBe('$0.00');
    await page.getByText('Test mode: these figures include test-mode sales').waitFor();
    // The chart: a picture with a text alternative pointing at the table.
    const chart = page.getByRole('img', { name: /^Net takings \(bars\) and occupancy \(line\) by movie/ });
    await chart.waitFor();
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    expect(await page.getByRole('table', { name: `Sales by movie, ${day} to ${day}` }).count()).toBe(1);
    await expectNoAxeViolations(page);
    await screenshot(page, 'reports-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`sales-${day}-to-${day}-by-movie.csv`);
    const csv = (await readFile((await download.path())!, 'utf8')).split('\r\n');
    expect(csv[0]).toMatch(
      /^Movie,Showtimes,Admits: .+,Admits,Gross,Discounts,Refunds,To collect,Net,Sellable seats,/,
    );
    const line = csv.find((l) => l.startsWith(`${title},`));
    expect(line).toMatch(/,3,37\.50,0\.00,0\.00,0\.00,37\.50,/);
    expect(csv.some((l) => l.startsWith('Total,'))).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('works on a phone and by keyboard', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, PHONE_390);
    await page.goto(`/admin/reports?from=${day}&to=${day}&groupBy=day`);
    await page.getByRole('rowheader', { name: day }).waitFor();
    // The page itself does not scroll sideways; the table scrolls in its own focusable box.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    // By keyboard: from the heading, Tab reaches the fields, Group by, Show report and Download CSV in order (a date
    // field takes a Tab per part of the date).
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(
          () =>
            document.activeElement?.closest('label')?.querySelector('.field-label')?.textContent ??
            document.activeElement?.textContent ??
            '',
        ),
      );
    }
    const order = reached.filter((name, i) => name !== reached[i - 1]);
    expect(order.slice(0, 5)).toEqual(['From', 'To', 'Group by', 'Show report', 'Download CSV']);
    await page.getByRole('combobox', { name: 'Group by' }).focus();
    await page.keyboard.press('ArrowDown'); // Day → Movie
    await page.getByRole('button', { name: 'Show report' }).press('Enter');
    await page.getByRole('rowheader', { name: title }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'reports-phone');
    expect(pageErrors).toEqual([]);
  });
});
