import jsQR from 'jsqr';
import type { Browser, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  expectNoAxeViolations,
  explainTimeout,
  hasChromium,
  launchBrowser,
  recordTraffic,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { apiAs, registerUser, startServer, type Account, type RunningServer } from './support/server.ts';
import { scheduleShowtime } from './support/flows.ts';

reportSkippedWithoutChromium('e2e/checkout.test.ts (hosted test checkout, success page, QR tickets)');

const seat = (page: Page, row: string, number: number) =>
  page.getByRole('button', { name: new RegExp(`^Row ${row}, seat ${number}, `) });

/** Reads the QR code the browser actually drew, from a screenshot of the image element. */
async function decodeQr(image: Locator): Promise<string | null> {
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

interface SeatState {
  id: string;
  row: number;
  number: number;
  status: string;
}

describe.skipIf(!hasChromium)('checkout and tickets in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let showtimeId: string;
  const pages = signedInPages();

  const seatStates = async () =>
    (await apiAs(server.url).get<{ seats: SeatState[] }>(`/showtimes/${showtimeId}/seats`)).seats;
  const statusOf = async (row: number, number: number) =>
    (await seatStates()).find((s) => s.row === row && s.number === number)!.status;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    ({ admin, showtimeId } = await scheduleShowtime(server, {
      title: 'The Checkout Movie',
      durationMinutes: 110,
      rating: 'PG',
      hall: { name: 'Checkout Hall', rows: 4, cols: 8 },
      hoursFromNow: 72,
    }));
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  const pageAs = (account: Account, viewport?: { width: number; height: number }) =>
    pages.open(browser, server.url, account, viewport);

  /** On the seat map: choose the seats, hold them, press Checkout; resolves on the hosted payment page. */
  async function holdAndCheckout(page: Page, seats: [string, number][]) {
    await page.goto(`/showtimes/${showtimeId}/seats`);
    await seat(page, 'A', 1).waitFor();
    for (const [row, number] of seats) await seat(page, row, number).click();
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Checkout' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
    await page.getByText('Test payment — no real card is charged').waitFor();
  }

  it('holds, pays on the test checkout page, lists the tickets, and shows QR codes that decode to the bookings', async () => {
    const customer = await registerUser(server.url, { name: 'Paying Customer' });
    const { page, pageErrors } = await pageAs(customer);
    await holdAndCheckout(page, [
      ['B', 3],
      ['B', 4],
    ]);

    // The hosted page says what is being paid for.
    expect(await page.getByText('The Checkout Movie').isVisible()).toBe(true);
    expect(await page.getByText('Checkout Hall').isVisible()).toBe(true);
    expect(await page.getByText('Row B Seat 3').isVisible()).toBe(true);
    expect(await page.getByText('Row B Seat 4').isVisible()).toBe(true);
    expect(await page.getByText('$25.00').isVisible()).toBe(true);
    await screenshot(page, 'checkout-local-page');
    // The page's own CSP (rightly) refuses injected scripts: check it with axe in a context that bypasses CSP.
    const audit = await browser.newContext({ bypassCSP: true });
    const auditPage = await audit.newPage();
    await auditPage.goto(page.url());
    await expectNoAxeViolations(auditPage);
    await audit.close();

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=/);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();
    const list = page.getByRole('list', { name: 'Tickets' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    expect(await list.textContent()).toContain('The Checkout Movie');
    expect(await list.textContent()).toContain('Row B, Seat 3');
    expect(await list.textContent()).toContain('Row B, Seat 4');
    expect(await list.textContent()).toContain('Checkout Hall');
    expect(await statusOf(2, 3)).toBe('CONFIRMED');
    expect(await statusOf(2, 4)).toBe('CONFIRMED');
    await expectNoAxeViolations(page);
    await screenshot(page, 'checkout-success');

    await page.getByRole('link', { name: 'My Tickets' }).last().click();
    await page.waitForURL(/\/tickets$/);
    await page.getByRole('heading', { name: 'My Tickets' }).waitFor();
    const qrImages = page.locator('img[data-qr-value]');
    await expect.poll(() => qrImages.count()).toBe(2);
    const { tickets } = await apiAs(server.url, customer.token).get<{ tickets: { bookingId: string }[] }>(
      '/me/tickets',
    );
    const decoded = [];
    for (const image of await qrImages.all()) {
      expect(await image.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)).toBe(120);
      decoded.push(await decodeQr(image));
    }
    expect(decoded.sort()).toEqual(tickets.map((t) => t.bookingId).sort());
    expect(await page.getByText('Not checked in yet').count()).toBe(2);
    await expectNoAxeViolations(page);
    await screenshot(page, 'my-tickets');
    expect(pageErrors).toEqual([]);
  });

  it('Decline leaves the seats held and unsold; Cancel releases them and lands on the cancel page', async () => {
    const customer = await registerUser(server.url, { name: 'Declined Customer' });
    const { page, pageErrors } = await pageAs(customer, PHONE);
    await holdAndCheckout(page, [['C', 6]]);

    await page.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined' }).waitFor();
    expect(await statusOf(3, 6)).toBe('HELD');
    await screenshot(page, 'checkout-declined-phone');

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/checkout\/cancel$/);
    await page.getByText('Payment Cancelled. Your seat holds may expire soon.').waitFor();
    expect(await page.getByRole('link', { name: 'Movies' }).last().getAttribute('href')).toBe('/movies');
    expect(await statusOf(3, 6)).toBe('AVAILABLE');
    await expectNoAxeViolations(page);

    await page.goto('/tickets');
    await page.getByText('No tickets yet.').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows the admin who bought which seat and a printable sheet of QR codes', async () => {
    const { page, pageErrors } = await pageAs(admin);
    await page.goto(`/admin/showtimes/${showtimeId}/booked`);
    await page.getByRole('heading', { name: 'Booked Seats' }).waitFor();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain('Row B, Seat 3');
    expect(await rows.first().textContent()).toContain('Paying Customer');
    expect(await rows.first().textContent()).toContain('@example.com');
    await expectNoAxeViolations(page);

    await page.goto(`/admin/showtimes/${showtimeId}/tickets`);
    await page.getByRole('heading', { name: 'Showtime QR Codes' }).waitFor();
    const qrImages = page.locator('img[data-qr-value]');
    await expect.poll(() => qrImages.count()).toBe(2);
    expect(await decodeQr(qrImages.first())).toBe(await qrImages.first().getAttribute('data-qr-value'));
    expect(await page.getByRole('button', { name: 'Print' }).isEnabled()).toBe(true);
    await expectNoAxeViolations(page);
    await screenshot(page, 'showtime-qr-codes');

    // On paper: no header, navigation or buttons, and the cards stay whole.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await qrImages.first().isVisible()).toBe(true);
    expect(
      await page
        .locator('.ticket-card')
        .first()
        .evaluate((el) => getComputedStyle(el).breakInside),
    ).toBe('avoid');
    await screenshot(page, 'showtime-qr-codes-print');
    await page.emulateMedia({ media: 'screen' });
    expect(pageErrors).toEqual([]);
  });

  it('tells a success page without a session id what is wrong', async () => {
    const customer = await registerUser(server.url);
    const { page } = await pageAs(customer);
    await page.goto('/checkout/success');
    await page.getByText('Missing session_id in URL.').waitFor();
    // This step timed out twice in about ten runs of the browser tests (2026-11-21), and never when repeated: the
    // cause is not known yet, so a failure reports what the page showed and what it loaded.
    const traffic = recordTraffic(page);
    await page.goto('/checkout/success?session_id=cs_test_unknown');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Checkout session not found' })
      .waitFor()
      .catch(explainTimeout(page, traffic));
  });
});
