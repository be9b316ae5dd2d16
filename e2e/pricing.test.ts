import type { Browser, Page } from 'playwright-core';
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
import { apiAs, registerUser, startServer, type Account, type RunningServer } from './support/server.ts';
import { scheduleShowtime } from './support/flows.ts';

reportSkippedWithoutChromium(
  'e2e/pricing.test.ts (price cards, promo codes, ticket types in the basket, orders)',
);

/** The phone of the brief (iPhone 12 to 15): 390 × 844. */
const PHONE_390 = { width: 390, height: 844 } as const;
const VIEWPORTS = [
  ['phone', PHONE_390],
  ['desktop', DESKTOP],
] as const;

const seat = (page: Page, row: string, number: number) =>
  page.getByRole('button', { name: new RegExp(`^Row ${row}, seat ${number}, `) });
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describe.skipIf(!hasChromium)('pricing, promo codes and orders in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let showtimeId: string;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    ({ admin, showtimeId } = await scheduleShowtime(server, {
      title: 'The Pricing Picture',
      hall: { name: 'Pricing Hall', rows: 4, cols: 8 },
      hoursFromNow: 96,
      priceCents: 1100,
    }));
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  it('lets an admin keep ticket types and a price card, edit the card, and add a promo code', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: 'Admin tools' })
      .getByRole('link', { name: 'Prices and ticket types' })
      .click();
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    expect(await page.title()).toBe('Pricing · Cinema');
    // The page opens with its heading focused, for a screen reader to start there.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const types = page.getByRole('list', { name: 'Ticket types' });
    await types.getByRole('textbox', { name: 'Name of Student' }).waitFor();

    // A new ticket type, then not sold for now.
    await page.getByLabel('New ticket type').fill('Member');
    await page.getByRole('button', { name: 'Add ticket type' }).click();
    await page.getByRole('status').filter({ hasText: 'Added Member.' }).waitFor();
    await types.getByRole('checkbox', { name: 'Sold as Member' }).uncheck();
    await page.getByRole('status').filter({ hasText: 'Member is no longer sold.' }).waitFor();
    expect(await types.getByRole('checkbox', { name: 'Sold as Member' }).isChecked()).toBe(false);

    // A price card for every day: Adult and Child on standard seats.
    const form = page.getByRole('form', { name: 'New price card' });
    await form.getByLabel('Name').fill('E2E Standard');
    await form.getByRole('spinbutton', { name: 'Adult, standard seat' }).fill('14');
    await form.getByRole('spinbutton', { name: 'Child, standard seat' }).fill('9');
    // Member is not sold: the card does not offer it.
    expect(await form.getByRole('spinbutton', { name: 'Member, standard seat' }).count()).toBe(0);
    await form.getByRole('button', { name: 'Add price card' }).click();
    await page.getByRole('status').filter({ hasText: 'Added E2E Standard.' }).waitFor();
    const cards = page.getByRole('list', { name: 'Price cards' });
    expect(plain(await cards.textContent())).toContain('Every day · 00:00–24:00');
    expect(plain(await cards.textContent())).toContain('Adult from $14.00 · Child from $9.00');

    // Edited: the adult price goes up to $15.00.
    await cards.getByRole('button', { name: 'Edit E2E Standard' }).click();
    const edit = page.getByRole('form', { name: 'Edit E2E Standard' });
    expect(await edit.getByRole('spinbutton', { name: 'Adult, standard seat' }).inputValue()).toBe('14.00');
    await edit.getByRole('spinbutton', { name: 'Adult, standard seat' }).fill('15');
    await edit.getByRole('button', { name: 'Save price card' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved E2E Standard.' }).waitFor();
    expect(plain(await cards.textContent())).toContain('Adult from $15.00 · Child from $9.00');
    const prices = await apiAs(server.url).get<{
      priceCard: { name: string };
      prices: { seatType: string; priceCents: number }[];
    }>(`/showtimes/${showtimeId}/prices`);
    expect(prices.priceCard.name).toBe('E2E Standard');
    expect(prices.prices.filter((p) => p.seatType === 'STANDARD').map((p) => p.priceCents)).toEqual([
      1500, 900,
    ]);
    await expectNoAxeViolations(page);
    await screenshot(page, 'pricing-desktop');

    // A promo code: 20% off, ten uses in all, one per customer.
    await page.goto('/admin');
    await page
      .getByRole('navigation', { name: 'Admin tools' })
      .getByRole('link', { name: 'Promo codes' })
      .click();
    await page.getByRole('heading', { name: 'Promo codes', level: 1 }).waitFor();
    const promo = page.getByRole('form', { name: 'New promo code' });
    await promo.getByLabel('Code').fill('e2e20');
    await promo.getByRole('spinbutton', { name: 'Percent off' }).fill('20');
    await promo.getByLabel('Uses in all').fill('10');
    await promo.getByLabel('Uses per customer').fill('1');
    await promo.getByRole('button', { name: 'Add promo code' }).click();
    await page.getByRole('status').filter({ hasText: 'Added E2E20: 20% off.' }).waitFor();
    // A second one that has run out of dates.
    await promo.getByLabel('Code').fill('OLDTIMER');
    await promo.getByRole('radio', { name: 'Amount off ($)' }).check();
    await promo.getByRole('spinbutton', { name: 'Amount off in $' }).fill('3');
    await promo.getByLabel('Valid until').fill('2020-01-01T00:00');
    await promo.getByRole('button', { name: 'Add promo code' }).click();
    await page.getByRole('status').filter({ hasText: 'Added OLDTIMER: $3.00 off.' }).waitFor();
    const codes = page.getByRole('list', { name: 'Promo codes' });
    expect(plain(await codes.locator('[data-code="E2E20"]').textContent())).toContain(
      'Every showtime · 0 of 10 used · at most 1 per customer',
    );
    await expectNoAxeViolations(page);
    await screenshot(page, 'promo-codes-desktop');

    // A showtime may be given a card in its form; by default it takes the card valid at its start.
    await page.goto('/admin');
    const addShowtime = page.getByRole('form', { name: 'Add Showtime' });
    const cardSelect = addShowtime.getByRole('combobox', { name: 'Price card' });
    expect(await cardSelect.locator('option:checked').textContent()).toBe('The card valid at its start');
    await cardSelect.selectOption({ label: 'E2E Standard' });
    await addShowtime.getByLabel('Movie').selectOption({ label: 'The Pricing Picture' });
    await addShowtime.getByLabel('Hall').selectOption({ label: 'Pricing Hall (32 seats)' });
    const later = new Date(Date.now() + 10 * 24 * 3600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await addShowtime
      .getByLabel('Starts at')
      .fill(`${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T20:00`);
    await addShowtime.getByRole('button', { name: 'Add showtime' }).click();
    await addShowtime
      .getByRole('status')
      .filter({ hasText: /^Showtime added: .*, E2E Standard prices\.$/ })
      .waitFor();
    const listed = await apiAs(server.url, admin.token).get<{ priceCardId?: string | null }[]>(
      '/admin/showtimes',
    );
    expect(listed.filter((s) => s.priceCardId).length).toBe(1);

    // Both pages on a phone.
    await page.setViewportSize(PHONE_390);
    await page.goto('/admin/promo-codes');
    await page.getByRole('list', { name: 'Promo codes' }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'promo-codes-phone');
    await page.goto('/admin/pricing');
    await page.getByRole('list', { name: 'Price cards' }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'pricing-phone');
    expect(pageErrors).toEqual([]);
  });

  for (const [name, viewport] of VIEWPORTS) {
    it(`sells two ticket types with a promo code on a ${name}: basket, test checkout, order and My Tickets`, async () => {
      const row = name === 'phone' ? 'B' : 'C';
      const customer = await registerUser(server.url, { name: `Pat ${name}` });
      const { page, pageErrors } = await pages.open(browser, server.url, customer, viewport);
      await page.goto(`/showtimes/${showtimeId}/seats`);
      await seat(page, row, 4).click();
      await seat(page, row, 5).click();
      await page.getByRole('button', { name: 'Hold seats' }).click();

      // The basket: both seats Adult to start with, at the card's price.
      const total = page.getByTestId('basket-total');
      await expect.poll(async () => plain(await total.textContent())).toBe('$30.00');
      const second = page.getByRole('combobox', { name: `Ticket type for Row ${row}, Seat 5` });
      expect(await second.locator('option:checked').textContent()).toBe('Adult');
      // Only the types the card prices are offered (not Senior, Student, nor Member, which is not sold).
      expect(await second.locator('option').allTextContents()).toEqual(['Adult', 'Child']);
      await second.selectOption({ label: 'Child' });
      await expect.poll(async () => plain(await total.textContent())).toBe('$24.00');
      const seats = page.getByRole('list', { name: 'Seats and prices' });
      expect(plain(await seats.textContent())).toContain('$9.00');

      // A code that does not apply says why; the right one takes 20% off.
      const code = page.getByRole('textbox', { name: 'Promo code' });
      await code.fill('OLDTIMER');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(/^OLDTIMER does not apply: /).waitFor();
      expect(plain(await total.textContent())).toBe('$24.00');
      await code.fill('e2e20');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('E2E20: $4.80 off').waitFor();
      await expect.poll(async () => plain(await total.textContent())).toBe('$19.20');
      await expectNoAxeViolations(page);
      await screenshot(page, `basket-${name}`);

      // The test checkout lists each seat with its type and price, and charges the quoted total.
      await page.getByRole('button', { name: 'Checkout' }).click();
      await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
      await page.getByText('Test payment — no real card is charged').waitFor();
      const hosted = plain(await page.locator('body').textContent());
      expect(hosted).toContain('Child');
      expect(hosted).toContain('$19.20');
      await screenshot(page, `pricing-local-checkout-${name}`);
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      // The success page: the order's reference, its lines and its total.
      await page.waitForURL(/\/checkout\/success\?session_id=/);
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();
      const orderHeading = page.getByRole('heading', { name: /^Order [2-9A-Z]{3}-[2-9A-Z]{4}$/ });
      await orderHeading.waitFor();
      const ref = plain(await orderHeading.textContent()).replace('Order ', '');
      const order = page.getByRole('table', { name: `Order ${ref}` });
      await order.waitFor();
      const lines = plain(await order.textContent());
      expect(lines).toContain(`Row ${row}, Seat 4`);
      expect(lines).toContain('Adult');
      expect(lines).toContain('Child');
      expect(lines).toContain('Discount (E2E20)−$4.80');
      expect(lines).toContain('Total$19.20');
      await expectNoAxeViolations(page);
      await screenshot(page, `order-success-${name}`);

      // My Tickets: the two tickets under their order, with its date and total.
      await page.getByRole('link', { name: 'My Tickets' }).last().click();
      await page.getByRole('heading', { name: 'My Tickets' }).waitFor();
      const group = page.getByRole('region', { name: `Order ${ref}` });
      await group.waitFor();
      // The order's line comes with the orders, which may arrive after the tickets.
      await expect
        .poll(async () => plain(await group.textContent()))
        .toContain('2 seats · $4.80 off · Total $19.20');
      await expect
        .poll(() =>
          group
            .getByRole('list', { name: `Tickets of order ${ref}` })
            .getByRole('listitem')
            .count(),
        )
        .toBe(2);
      expect(plain(await group.textContent())).toContain('Child');
      await expectNoAxeViolations(page);
      await screenshot(page, `my-tickets-orders-${name}`);

      const mine = await apiAs(server.url, customer.token).get<{
        orders: { ref: string; totalCents: number }[];
      }>('/me/orders');
      expect(mine.orders).toEqual([expect.objectContaining({ ref, totalCents: 1920 })]);
      expect(pageErrors).toEqual([]);
    });
  }

  it('counts the code’s uses on the admin page', async () => {
    const { page } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.goto('/admin/promo-codes');
    const e2e20 = page.getByRole('list', { name: 'Promo codes' }).locator('[data-code="E2E20"]');
    await e2e20.waitFor();
    expect(plain(await e2e20.textContent())).toContain('2 of 10 used');
  });
});
