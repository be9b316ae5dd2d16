import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { registerUser, startServer, type Account, type RunningServer } from './support/server.ts';
import { scheduleShowtime } from './support/flows.ts';

reportSkippedWithoutChromium('e2e/seat-map.test.ts (live seat map, holds, keyboard)');

const seat = (page: Page, row: string, number: number) =>
  page.getByRole('button', { name: new RegExp(`^Row ${row}, seat ${number}, `) });
const statusOf = (page: Page, row: string, number: number) =>
  seat(page, row, number).getAttribute('data-status');
const notice = (page: Page) => page.getByRole('status');

describe.skipIf(!hasChromium)('seat map in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let showtimeId: string;
  let alice: Account;
  let bob: Account;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    ({ showtimeId } = await scheduleShowtime(server, {
      title: 'The Seat Map Movie',
      hall: { name: 'Seat Map Hall', rows: 6, cols: 10 },
      hoursFromNow: 48,
    }));
    [alice, bob] = await Promise.all([
      registerUser(server.url, { name: 'Alice' }),
      registerUser(server.url, { name: 'Bob' }),
    ]);
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  async function seatPage(account: Account, viewport?: { width: number; height: number }) {
    const o = await pages.open(browser, server.url, account, viewport);
    await o.page.goto(`/showtimes/${showtimeId}/seats`);
    await o.page.getByRole('heading', { name: 'Select Seats' }).waitFor();
    await seat(o.page, 'A', 1).waitFor();
    return o;
  }

  it('shows one customer’s hold on another’s map without a reload, and explains a click on it', async () => {
    const a = await seatPage(alice);
    const b = await seatPage(bob);
    const pa = a.page;
    const pb = b.page;

    await expect.poll(() => pa.getByText('The Seat Map Movie').first().isVisible()).toBe(true);
    expect(await pa.getByText('Seat Map Hall', { exact: false }).first().isVisible()).toBe(true);
    expect(await pa.getByRole('button', { name: /^Row [A-F], seat \d+, available$/ }).count()).toBe(60);
    const holdButton = pa.getByRole('button', { name: 'Hold seats' });
    expect(await holdButton.isDisabled()).toBe(true);
    expect(await pa.getByText('Select at least one seat').isVisible()).toBe(true);
    expect(await pa.getByRole('button', { name: 'Checkout' }).isDisabled()).toBe(true);
    expect(await pa.getByRole('button', { name: 'Cancel holds' }).isDisabled()).toBe(true);
    expect(await pa.getByText('Hold seats first').isVisible()).toBe(true);

    await seat(pa, 'C', 4).click();
    await seat(pa, 'C', 5).click();
    await seat(pa, 'C', 6).click();
    await seat(pa, 'C', 6).click(); // a second click deselects
    expect(await statusOf(pa, 'C', 4)).toBe('SELECTED');
    expect(await statusOf(pa, 'C', 6)).toBe('AVAILABLE');
    expect(await pa.locator('[data-counter="selected"] dd').textContent()).toBe('2');
    await holdButton.click();

    await expect.poll(() => notice(pa).textContent()).toMatch(/^Seats held until \d/);
    expect(await seat(pa, 'C', 4).getAttribute('data-mine')).toBe('true');
    expect(await statusOf(pa, 'C', 4)).toBe('HELD');
    expect(await pa.getByRole('timer').textContent()).toMatch(/held for (9|10):\d\d/);
    expect(await pa.getByRole('button', { name: 'Checkout' }).isEnabled()).toBe(true);
    // The notice fades after 1.5 seconds.
    await expect.poll(() => notice(pa).count(), { timeout: 4000 }).toBe(0);

    // Bob's map changes by itself.
    await expect.poll(() => statusOf(pb, 'C', 4)).toBe('HELD');
    await expect.poll(() => statusOf(pb, 'C', 5)).toBe('HELD');
    expect(await seat(pb, 'C', 4).getAttribute('data-mine')).toBeNull();
    expect(await seat(pb, 'C', 4).getAttribute('aria-disabled')).toBe('true');
    expect(await pb.locator('[data-counter="held"] dd').textContent()).toBe('2');
    // aria-disabled, not disabled: a person can still click it (Playwright needs `force` to do the same).
    await seat(pb, 'C', 5).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await seat(pb, 'C', 5).click({ force: true });
    await expect.poll(() => notice(pb).textContent()).toBe('Seat temporarily held');
    expect(await statusOf(pb, 'C', 5)).toBe('HELD');

    // A reload keeps Alice's hold usable.
    await pa.reload();
    await seat(pa, 'C', 4).waitFor();
    await expect.poll(() => seat(pa, 'C', 4).getAttribute('data-mine')).toBe('true');
    expect(await pa.getByRole('button', { name: 'Cancel holds' }).isEnabled()).toBe(true);

    // Cancelling frees the seats on both maps.
    await pa.getByRole('button', { name: 'Cancel holds' }).click();
    await expect.poll(() => notice(pa).textContent()).toBe('Hold cancelled');
    await expect.poll(() => statusOf(pb, 'C', 4)).toBe('AVAILABLE');
    expect(await pa.getByRole('button', { name: 'Checkout' }).isDisabled()).toBe(true);

    expect(a.pageErrors).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it('can be used by keyboard alone: arrows move between seats, Enter and Space choose, held seats explain', async () => {
    const { page, pageErrors } = await seatPage(bob);
    const other = await seatPage(alice);
    await seat(other.page, 'A', 2).click();
    await other.page.getByRole('button', { name: 'Hold seats' }).click();
    await expect.poll(() => statusOf(page, 'A', 2)).toBe('HELD');

    // Exactly one seat is in the tab order.
    expect(await page.locator('[data-seat-id][tabindex="0"]').count()).toBe(1);
    await page.locator('[data-seat-id][tabindex="0"]').focus();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(await focused()).toBe('Row A, seat 1, available');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Row A, seat 2, held');
    await page.keyboard.press('Enter');
    await expect.poll(() => notice(page).textContent()).toBe('Seat temporarily held');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Row B, seat 2, available');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    expect(await focused()).toBe('Row B, seat 3, selected');
    expect(await statusOf(page, 'B', 2)).toBe('SELECTED');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Row B, seat 10, available');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Row A, seat 10, available');
    // Tab leaves the grid from the seat that has focus; the next stop is the Hold seats button.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Hold seats');
    await page.keyboard.press('Enter');
    await expect.poll(() => notice(page).textContent()).toMatch(/^Seats held/);
    await expect.poll(() => statusOf(other.page, 'B', 2)).toBe('HELD');
    expect(await statusOf(other.page, 'B', 3)).toBe('HELD');

    await expectNoAxeViolations(page);
    await screenshot(page, 'seat-map-desktop');
    expect(pageErrors).toEqual([]);
  });

  it('stays where it is while the waiting list’s panel arrives above it, on a phone and on a desk', async () => {
    for (const viewport of [PHONE, undefined]) {
      const o = await pages.open(browser, server.url, bob, viewport);
      const page = o.page;
      // The customer's place in line is held back until the map has been measured: the panel comes after the map.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/me/waitlist', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`/showtimes/${showtimeId}/seats`);
      await seat(page, 'A', 1).waitFor();
      const before = await seat(page, 'A', 1).boundingBox();
      release();
      await page.locator('#waitlist').waitFor();
      const after = await seat(page, 'A', 1).boundingBox();
      expect(after, 'the first seat did not move when the waiting list appeared').toEqual(before);
      expect(o.pageErrors).toEqual([]);
      await o.close();
    }
  });

  it('fits a phone and passes an accessibility check there', async () => {
    const { page, pageErrors } = await seatPage(alice, PHONE);
    await expectNoAxeViolations(page);
    await screenshot(page, 'seat-map-phone');
    expect(pageErrors).toEqual([]);
  });
});
