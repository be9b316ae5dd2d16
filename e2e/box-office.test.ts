import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  PHONE_390,
  scrollsSideways,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { scheduleShowtime, verifyEmail, type ScheduledShowtime } from './support/flows.ts';
import {
  apiAs,
  registerUser,
  signIn,
  type Account,
  type RunningServer,
  startServer,
} from './support/server.ts';

reportSkippedWithoutChromium('e2e/box-office.test.ts (counter sales, refunds and exchanges)');

/** The seat statuses of a showtime as every customer's map shows them. */
async function statusesOf(server: RunningServer, showtimeId: string) {
  const map = await apiAs(server.url).get<{ seats: { id: string; status: string }[] }>(
    `/showtimes/${showtimeId}/seats`,
  );
  return new Map(map.seats.map((s) => [s.id, s.status]));
}

describe.skipIf(!hasChromium)('the box office in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let show: ScheduledShowtime;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    show = await scheduleShowtime(server, { title: 'Counter Culture', hoursFromNow: 30, priceCents: 1250 });
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  it('sells two seats at the counter, refunds one and moves the other, each seen at once on the seat map', async () => {
    const customer = await registerUser(server.url, { name: 'Walk Up' });
    // Counter sales reach an account only once its email is verified.
    await verifyEmail(server, customer);
    const { page, pageErrors } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: 'Admin tools' })
      .getByRole('link', { name: 'Box office' })
      .click();
    await page.getByRole('heading', { name: 'Box office' }).waitFor();
    expect(await page.title()).toBe('Box office · Cinema');

    const showtimeOption = page.getByRole('option', { name: /Counter Culture/ });
    await page
      .getByRole('combobox', { name: 'Showtime' })
      .selectOption({ label: (await showtimeOption.textContent())! });
    const grid = page.getByRole('group', { name: 'Seats for Counter Culture' });
    await grid.waitFor();
    const free = grid.locator('[data-status="AVAILABLE"][data-type="STANDARD"]');
    const firstId = (await free.nth(0).getAttribute('data-seat-id'))!;
    const secondId = (await free.nth(1).getAttribute('data-seat-id'))!;
    await free.nth(0).click();
    await free.nth(0).click(); // the list shifts: the next free seat
    await expect.poll(() => grid.locator('[data-status="SELECTED"]').count()).toBe(2);
    await page.getByRole('radio', { name: 'Cash' }).check();
    await page.getByRole('textbox', { name: 'Customer email (optional)' }).fill(customer.user.email);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sell 2 tickets · $25.00' }).click();
    const sold = page.getByRole('status').filter({ hasText: /^Sold: order/ });
    await sold.waitFor();
    const ref = (await sold.locator('strong').textContent())!;
    expect(ref).toMatch(/^[2-9A-Z]{3}-[2-9A-Z]{4}$/);
    const after = await statusesOf(server, show.showtimeId);
    expect([after.get(firstId), after.get(secondId)]).toEqual(['CONFIRMED', 'CONFIRMED']);
    // The customer (verified) has them in their account.
    const orders = await apiAs(server.url, customer.token).get<{ orders: { ref: string }[] }>('/me/orders');
    expect(orders.orders.map((o) => o.ref)).toContain(ref);
    await screenshot(page, 'box-office-sold-1280');

    await sold.getByRole('link', { name: 'Open the order' }).click();
    await page.getByRole('heading', { name: `Order ${ref}` }).waitFor();
    await page.getByText('Counter, cash').waitFor();
    const tickets = page.getByRole('checkbox');
    expect(await tickets.count()).toBe(2);
    await tickets.first().check();
    await page.getByRole('textbox', { name: /^Reason/ }).fill('Changed plans');
    await page.getByRole('button', { name: 'Refund 1 ticket · $12.50' }).click();
    await page.getByRole('status').filter({ hasText: 'Refunded $12.50 for 1 ticket' }).waitFor();
    await page.getByText(/\$12\.50 · by staff · .* · done · admin@e2e\.test · “Changed plans”/).waitFor();
    const refunded = await statusesOf(server, show.showtimeId);
    expect([refunded.get(firstId), refunded.get(secondId)].sort()).toEqual(['AVAILABLE', 'CONFIRMED']);

    // Move the ticket still standing to another seat of the same showtime.
    await page.getByRole('button', { name: /^Move / }).click();
    const moveGrid = page.getByRole('group', { name: 'Choose the new seat' });
    await moveGrid.waitFor();
    const target = moveGrid.locator('[data-status="AVAILABLE"][data-type="STANDARD"]').last();
    const targetId = (await target.getAttribute('data-seat-id'))!;
    await target.click();
    await page.getByRole('button', { name: /^Move to / }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Moved to .*QR code stays the same/ })
      .waitFor();
    expect((await statusesOf(server, show.showtimeId)).get(targetId)).toBe('CONFIRMED');
    await expectNoAxeViolations(page);
    await screenshot(page, 'box-office-order-1280');
    expect(pageErrors).toEqual([]);

    // Found again by the customer's email.
    await page.getByRole('navigation', { name: 'Box office' }).getByRole('link', { name: 'Orders' }).click();
    await page
      .getByRole('searchbox', { name: 'Order reference or customer email' })
      .fill(customer.user.email);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('link', { name: ref }).waitFor();
    await expectNoAxeViolations(page);
  });

  it('works on a 390 px phone: the counter sale and an order, nothing wider than the screen', async () => {
    const { page } = await pages.open(browser, server.url, admin, PHONE_390);
    await page.goto('/admin/box-office');
    await page.getByRole('heading', { name: 'Box office' }).waitFor();
    const option = page.getByRole('option', { name: /Counter Culture/ });
    await page
      .getByRole('combobox', { name: 'Showtime' })
      .selectOption({ label: (await option.textContent())! });
    const grid = page.getByRole('group', { name: 'Seats for Counter Culture' });
    await grid.waitFor();
    await grid.locator('[data-status="AVAILABLE"]').first().click();
    await page.getByRole('button', { name: /^Sell 1 ticket/ }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshot(page, 'box-office-sale-390');
    await page.getByRole('button', { name: /^Sell 1 ticket/ }).click();
    const sold = page.getByRole('status').filter({ hasText: /^Sold: order/ });
    await sold.waitFor();
    await sold.getByRole('link', { name: 'Open the order' }).click();
    await page.getByRole('heading', { name: /^Order / }).waitFor();
    await page.getByText('Walk-in customer').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshot(page, 'box-office-order-390');
  });
});
