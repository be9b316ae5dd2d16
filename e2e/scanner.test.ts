import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  openPage,
  reportSkippedWithoutChromium,
  screenshot,
  useAccount,
} from './support/browser.ts';
import { hasFfmpeg, qrCameraVideo } from './support/fake-camera.ts';
import { buyTickets, scheduleShowtime } from './support/flows.ts';
import { signIn, startServer, type Account, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('door scanner browser tests');
if (!hasFfmpeg)
  console.warn('SKIPPED: door scanner camera tests: ffmpeg not found (it makes the fake camera video).');

const FAKE_CAMERA = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

describe.skipIf(!hasChromium || !hasFfmpeg)('door scanner with a fake camera playing a QR video', () => {
  let server: RunningServer;
  let admin: Account;
  let ticket: { bookingId: string; email: string; movie: string; seat: { row: number; number: number } };

  beforeAll(async () => {
    server = await startServer();
    const show = await scheduleShowtime(server, { title: 'The Scanner Strikes' });
    const bought = await buyTickets(server, show.showtimeId, 1);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    ticket = {
      bookingId: bought.bookingIds[0]!,
      email: bought.customer.user.email,
      movie: show.movieTitle,
      seat: bought.seats[0]!,
    };
  });
  afterAll(() => server?.stop());

  /** Opens /admin/scan as the admin in a browser whose camera shows `code` as a QR code. */
  async function scanWithCamera(code: string, run: (page: import('playwright-core').Page) => Promise<void>) {
    const video = await qrCameraVideo(code);
    const browser: Browser = await launchBrowser([
      ...FAKE_CAMERA,
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    try {
      const { page, pageErrors } = await openPage(browser, server.url);
      await useAccount(page, admin);
      await page.goto('/admin/scan');
      await page.getByRole('heading', { name: 'Scan Tickets' }).waitFor();
      await run(page);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  }

  it('shows VALID ✅ with the buyer for a paid ticket, then ALREADY CHECKED-IN ⚠️ on the next scan', async () => {
    await scanWithCamera(ticket.bookingId, async (page) => {
      const result = page.getByTestId('scan-result');
      await expect.poll(() => result.textContent(), { timeout: 20_000 }).toContain('VALID ✅');
      const text = (await result.textContent()) ?? '';
      expect(text).not.toContain('ALREADY');
      // Paid through the built-in test checkout: marked TEST, in amber, never green.
      expect(await page.getByTestId('test-ticket').textContent()).toContain('TEST');
      expect(await result.getAttribute('class')).toContain('amber');
      expect(text).toContain(ticket.email);
      expect(text).toContain(ticket.movie);
      expect(text).toContain(`Seat ${ticket.seat.number}`);
      expect(await page.getByTestId('last-read').textContent()).toBe(ticket.bookingId);
      await expectNoAxeViolations(page);
      await screenshot(page, 'scanner-valid');
    });

    await scanWithCamera(ticket.bookingId, async (page) => {
      const result = page.getByTestId('scan-result');
      await expect.poll(() => result.textContent(), { timeout: 20_000 }).toContain('ALREADY CHECKED-IN ⚠️');
      expect(await result.textContent()).toContain(ticket.email);
    });
  });

  it('shows the server error for a code that is no ticket', async () => {
    await scanWithCamera(randomUUID(), async (page) => {
      await expect
        .poll(() => page.getByRole('alert').first().textContent(), { timeout: 20_000 })
        .toBe('Unknown ticket');
      expect(await page.getByTestId('scan-result').textContent()).not.toContain('VALID');
    });
    await scanWithCamera('not a ticket at all', async (page) => {
      await expect
        .poll(() => page.getByRole('alert').first().textContent(), { timeout: 20_000 })
        .toMatch(/Invalid/);
    });
  });

  it('offers manual entry when no camera is available, validated the same way', async () => {
    const browser = await launchBrowser(); // no fake camera: getUserMedia fails
    try {
      const { page } = await openPage(browser, server.url);
      await useAccount(page, admin);
      await page.goto('/admin/scan');
      await page.getByRole('alert').filter({ hasText: 'Type the booking id' }).waitFor();
      await page.getByLabel('Booking id').fill(ticket.bookingId);
      await page.getByRole('button', { name: 'Check in' }).click();
      const result = page.getByTestId('scan-result');
      await expect.poll(() => result.textContent()).toContain('ALREADY CHECKED-IN ⚠️');
      await page.getByLabel('Booking id').fill(randomUUID());
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('alert').last().textContent()).toBe('Unknown ticket');
      await screenshot(page, 'scanner-manual');
    } finally {
      await browser.close();
    }
  });
});
