import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  openPage,
  reportSkippedWithoutChromium,
  screenshot,
} from './support/browser.ts';
import { buyTickets, scheduleShowtime, type ScheduledShowtime } from './support/flows.ts';
import { apiAs, registerUser, startServer, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium(
  'e2e/journey.test.ts (public schedule, phone seat map, declined payment, titles)',
);

/** The phone of DESIGN §6.6's journey. */
const PHONE_390 = { width: 390, height: 844 } as const;

/** The calendar day of an instant on the cinema's clocks. */
const dayIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(iso));

/** After a navigation: the tab names the screen and focus sits on its main heading. */
async function expectArrivedAt(page: Page, heading: string) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await expect.poll(() => page.title()).toBe(`${heading} · Cinema`);
  await expect
    .poll(() =>
      page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`),
    )
    .toBe(`H1 ${heading}`);
}

describe.skipIf(!hasChromium)('the customer journey at 390 × 844 and 1280 × 800', () => {
  let server: RunningServer;
  let browser: Browser;
  let wide: ScheduledShowtime;
  let full: ScheduledShowtime;
  let nearlyGone: ScheduledShowtime;
  let day: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    wide = await scheduleShowtime(server, {
      title: 'Journey Across',
      hall: { name: 'Wide Hall', rows: 6, cols: 16 },
      hoursFromNow: 30,
    });
    full = await scheduleShowtime(server, {
      title: 'Full House',
      hall: { name: 'Tiny Hall', rows: 1, cols: 4 },
      hoursFromNow: 30,
    });
    nearlyGone = await scheduleShowtime(server, {
      title: 'Nearly Gone',
      hall: { name: 'Small Hall', rows: 1, cols: 10 },
      hoursFromNow: 30,
    });
    await buyTickets(server, full.showtimeId, 4);
    await buyTickets(server, nearlyGone.showtimeId, 9);
    const { timeZone } = await apiAs(server.url).get<{ timeZone: string }>('/settings');
    day = dayIn(wide.startsAt, timeZone);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each([
    ['phone', PHONE_390],
    ['desktop', DESKTOP],
  ])(
    'a visitor finds a showtime on the schedule, signs in, chooses seats and pays after a decline (%s)',
    async (name, viewport) => {
      const phone = name === 'phone';
      const customer = await registerUser(server.url, { name: `Journey ${name}` });
      const { page, pageErrors, close } = await openPage(browser, server.url, viewport);

      // The public schedule, as a visitor: the day of our showtimes, each with its availability.
      await page.goto(`/schedule?date=${day}`);
      await expectArrivedAt(page, 'Schedule');
      const showtime = (s: ScheduledShowtime) => page.locator(`[data-showtime-id="${s.showtimeId}"]`);
      await showtime(wide).waitFor();
      expect(await page.getByRole('navigation', { name: 'Days' }).getByRole('button').count()).toBe(14);
      expect(await showtime(full).getAttribute('data-availability')).toBe('SOLD_OUT');
      expect(await showtime(full).innerText()).toContain('Sold out');
      // A sold-out showtime offers no seats to choose, only its waiting list (issue 38).
      const fullLinks = showtime(full).getByRole('link');
      expect(await fullLinks.count()).toBe(1);
      expect(await fullLinks.innerText()).toContain('Join the waiting list');
      expect(await fullLinks.getAttribute('href')).toBe(`/showtimes/${full.showtimeId}/seats#waitlist`);
      expect(await showtime(nearlyGone).innerText()).toContain('Selling fast · 1 left');
      expect(await showtime(wide).innerText()).toContain('Available');
      // Nothing wider than the screen: the day strip scrolls inside itself.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
      await expectNoAxeViolations(page);
      await screenshot(page, `journey-schedule-${name}`);

      // Choosing seats asks the visitor to sign in, then comes back to the seat map.
      await showtime(wide)
        .getByRole('link', { name: /^Choose seats for Journey Across/ })
        .click();
      await page.waitForURL(/\/login$/);
      await expectArrivedAt(page, 'Sign in');
      await page.getByLabel('Email').fill(customer.user.email);
      await page.getByLabel('Password').fill(customer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(new RegExp(`/showtimes/${wide.showtimeId}/seats$`));
      await expectArrivedAt(page, 'Select Seats');

      // The seat map: 16 seats a row, at least 24 px each, the screen's mark over the hall's centre.
      const scroller = page.getByTestId('seat-scroller');
      const seat = (row: string, n: number) =>
        page.getByRole('button', { name: new RegExp(`^Row ${row}, seat ${n}, `) });
      await seat('A', 1).waitFor();
      const box = async (l: ReturnType<typeof seat>) => (await l.boundingBox())!;
      expect((await box(seat('A', 1))).width).toBeGreaterThanOrEqual(24);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
      const [sizes] = await scroller.evaluateAll((els) => els.map((el) => [el.scrollWidth, el.clientWidth]));
      const overflows = sizes![0]! > sizes![1]!;
      expect(overflows).toBe(phone);
      expect(await page.getByTestId('scroll-hint').count()).toBe(phone ? 1 : 0);
      if (phone) {
        // Row labels stay in view while the row scrolls under them.
        await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
        const label = page.locator('[aria-label="Row A"] > span').first();
        const scrollerBox = (await scroller.boundingBox())!;
        await expect
          .poll(async () => Math.round((await label.boundingBox())!.x))
          .toBe(Math.round(scrollerBox.x));
        await screenshot(page, 'journey-seats-phone-scrolled');
      }
      const centreOf = async () => {
        const [first, last, mark] = [
          await box(seat('A', 1)),
          await box(seat('A', 16)),
          (await page.getByTestId('screen').locator('span').boundingBox())!,
        ];
        return { hall: (first.x + last.x + last.width) / 2, mark: mark.x + mark.width / 2 };
      };
      const centre = await centreOf();
      expect(Math.abs(centre.hall - centre.mark)).toBeLessThan(2);

      // Zoom: out until the whole row is in view, in again to big seats.
      const zoomOut = page.getByRole('button', { name: 'Zoom out' });
      while (await zoomOut.isEnabled()) await zoomOut.click();
      await expect.poll(() => scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(await page.getByTestId('scroll-hint').count()).toBe(0);
      await screenshot(page, `journey-seats-zoomed-out-${name}`);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(async () => (await box(seat('A', 1))).width).toBeGreaterThanOrEqual(24);

      // Someone else takes a seat from the selection: it leaves it, said by name.
      // (Each run its own row: both runs share the showtime.)
      const [row, rowNumber] = phone ? ['C', 3] : ['D', 4];
      await seat(row, 8).click();
      await seat(row, 9).click();
      const rival = await registerUser(server.url, { name: 'Quick Rival' });
      const map = await apiAs(server.url).get<{
        seats: { id: string; rowLabel?: string; row: number; number: number }[];
      }>(`/showtimes/${wide.showtimeId}/seats`);
      const taken = map.seats.find((s) => s.row === rowNumber && s.number === 9)!;
      await apiAs(server.url, rival.token).post(`/showtimes/${wide.showtimeId}/hold`, {
        seatIds: [taken.id],
      });
      await page.getByText(`Row ${row}, seat 9 just went to someone else and left your selection.`).waitFor();
      expect(await seat(row, 9).getAttribute('data-status')).toBe('HELD');
      expect(await seat(row, 8).getAttribute('data-status')).toBe('SELECTED');
      await expectNoAxeViolations(page);
      await screenshot(page, `journey-seats-${name}`);

      // Hold, check out, a declined card, then pay: Back from the tickets shows the paid page, not a resubmission.
      await page.getByRole('button', { name: 'Hold seats' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Checkout' }).isEnabled()).toBe(true);
      await page.getByRole('button', { name: 'Checkout' }).click();
      await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForURL(/\?notice=declined$/);
      await page.getByRole('alert').filter({ hasText: 'Your card was declined' }).waitFor();
      await page.getByRole('button', { name: 'Pay' }).click();
      await page.waitForURL(/\/checkout\/success\?session_id=/);
      await expectArrivedAt(page, 'Payment Successful');
      await expectNoAxeViolations(page);
      await screenshot(page, `journey-success-${name}`);
      const back = await page.goBack();
      expect(back?.status()).toBe(200);
      expect(page.url()).toMatch(/\?notice=declined$/);
      await page.getByText('This checkout is already paid.').waitFor();

      expect(pageErrors).toEqual([]);
      await close();
    },
  );
});
