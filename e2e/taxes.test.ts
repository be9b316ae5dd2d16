import { execFileSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

reportSkippedWithoutChromium('e2e/taxes.test.ts (tax rates and booking fees at /admin/taxes, a receipt PDF)');

describe.skipIf(!hasChromium)('taxes, booking fees and receipts in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let show: ScheduledShowtime;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        CINEMA_NAME: 'Roxy Pictures',
        CINEMA_ADDRESS: '12 Harbour Street|Springfield',
        CINEMA_TAX_NUMBER: 'US-99-1234567',
      }),
      launchBrowser(),
    ]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    show = await scheduleShowtime(server, { title: 'Taxed Feature', hoursFromNow: 30, priceCents: 1250 });
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  it('sets the tax rates and an online booking fee at /admin/taxes (1280 px)', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Taxes and booking fees' }).click();
    await page.getByRole('heading', { name: 'Taxes and booking fees', level: 1 }).waitFor();
    const rates = page.getByRole('form', { name: 'Tax rates' });
    expect(await rates.getByRole('radio', { name: /^Include tax/ }).isChecked()).toBe(true);
    await rates.getByLabel('Tickets (%)').fill('7');
    await rates.getByLabel('Food and drink (%)').fill('19');
    await rates.getByLabel('Booking fees (%)').fill('19');
    await expectNoAxeViolations(page);
    await rates.getByRole('button', { name: 'Save tax rates' }).click();
    await page.getByRole('status').filter({ hasText: 'Tax rates saved.' }).waitFor();

    const fees = page.getByRole('form', { name: 'Booking fees' });
    const online = fees.getByRole('group', { name: 'Online' });
    await online.getByLabel('Per ticket').fill('1.00');
    await fees.getByRole('group', { name: 'At the counter' }).getByLabel('Per order').fill('0.50');
    await fees.getByRole('button', { name: 'Save booking fees' }).click();
    await page.getByRole('status').filter({ hasText: 'Booking fees saved.' }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'taxes-desktop');

    // The counter's basket shows its own fee as a line before the sale, and the total with it.
    await page.goto('/admin/box-office');
    const option = page.getByRole('option', { name: /Taxed Feature/ });
    await page
      .getByRole('combobox', { name: 'Showtime' })
      .selectOption({ label: (await option.textContent())! });
    const grid = page.getByRole('group', { name: 'Seats for Taxed Feature' });
    await grid.locator('[data-status="AVAILABLE"][data-type="STANDARD"]').last().click();
    await page
      .locator('[data-fee-line]')
      .filter({ hasText: 'Booking fee per order' })
      .filter({ hasText: '$0.50' })
      .waitFor();
    await page.getByRole('radio', { name: 'Cash' }).check();
    await page.getByRole('button', { name: 'Sell 1 ticket · $13.00' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Sold: order/ })
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows the rates on a phone (390 px) and gives the customer a receipt PDF with tax by rate', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, PHONE_390);
    await page.goto('/admin/taxes');
    const rates = page.getByRole('form', { name: 'Tax rates' });
    await expect.poll(() => rates.getByLabel('Tickets (%)').inputValue()).toBe('7');
    expect(
      await page.getByRole('form', { name: 'Booking fees' }).getByLabel('Per ticket').first().inputValue(),
    ).toBe('1.00');
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshot(page, 'taxes-phone');
    expect(pageErrors).toEqual([]);

    // Two tickets at 12.50 with 7% in them, and the booking fee (1.00 each, 19% in it).
    const bought = await buyTickets(server, show.showtimeId, 2);
    const customer = await pages.open(browser, server.url, bought.customer, PHONE_390);
    await customer.page.goto('/tickets');
    await customer.page.getByText('Includes tax at 7% on $23.36: $1.64').waitFor();
    await customer.page.getByText('Includes tax at 19% on $1.68: $0.32').waitFor();
    const button = customer.page.getByRole('button', { name: /^Receipt as PDF \(order / });
    await expectNoAxeViolations(customer.page);
    const [download] = await Promise.all([customer.page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^receipt-.+\.pdf$/);
    const text = execFileSync('pdftotext', ['-layout', (await download.path())!, '-'], {
      encoding: 'utf8',
    }).replace(/ +/g, ' ');
    for (const line of [
      'Roxy Pictures',
      '12 Harbour Street',
      'Tax number: US-99-1234567',
      'Taxed Feature',
      'Booking fee 2 19% $2.00',
      'Net $25.04',
      'Tax at 7% on $23.36 $1.64',
      'Tax at 19% on $1.68 $0.32',
      'Tax $1.96',
      'Total $27.00',
    ])
      expect(text).toContain(line);
    expect(customer.pageErrors).toEqual([]);
  });
});
