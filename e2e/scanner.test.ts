import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  openPage,
  reportSkippedWithoutChromium,
  screenshot,
  useAccount,
} from './support/browser.ts';
import { hasFfmpeg, qrCameraSequence, qrCameraVideo } from './support/fake-camera.ts';
import { buyTickets, scheduleShowtime, type ScheduledShowtime } from './support/flows.ts';
import {
  apiAs,
  registerUser,
  signIn,
  startServer,
  type Account,
  type RunningServer,
} from './support/server.ts';

reportSkippedWithoutChromium('door scanner browser tests');
if (!hasFfmpeg)
  console.warn('SKIPPED: door scanner camera tests: ffmpeg not found (it makes the fake camera video).');

const FAKE_CAMERA = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];
const PHONE_TALL = { width: 390, height: 844 } as const;

describe.skipIf(!hasChromium || !hasFfmpeg)(
  'the door: a staff scanner with a fake camera playing QR videos',
  () => {
    let server: RunningServer;
    let admin: Account;
    let staff: Account;
    /** Entry open now (starts within the hour). */
    let open: ScheduledShowtime;
    /** Tomorrow: entry not open yet. */
    let later: ScheduledShowtime;
    let ticket: { bookingId: string; email: string; seat: { row: number; number: number } };
    let laterTicket: string;

    const hall = () => ({ name: `Door hall ${randomUUID().slice(0, 6)}`, rows: 3, cols: 6 });

    beforeAll(async () => {
      server = await startServer();
      open = await scheduleShowtime(server, { title: 'The Scanner Strikes', hoursFromNow: 0, hall: hall() });
      later = await scheduleShowtime(server, {
        title: 'Tomorrow Never Scans',
        hoursFromNow: 30,
        hall: hall(),
      });
      const bought = await buyTickets(server, open.showtimeId, 1);
      ticket = {
        bookingId: bought.bookingIds[0]!,
        email: bought.customer.user.email,
        seat: bought.seats[0]!,
      };
      laterTicket = (await buyTickets(server, later.showtimeId, 1)).bookingIds[0]!;
      admin = await signIn(server.url, server.admin.email, server.admin.password);
      // An admin makes a new account door staff at /admin/users; staff sign in again to carry the role.
      const sam = await registerUser(server.url, { name: 'Sam Staff' });
      await apiAs(server.url, admin.token).put(`/admin/users/${sam.user.id}/role`, { role: 'STAFF' });
      staff = await signIn(server.url, sam.user.email, sam.password);
      expect(staff.user.role).toBe('STAFF');
    });
    afterAll(() => server?.stop());

    async function withBrowser(args: string[], run: (browser: Browser) => Promise<void>) {
      const browser = await launchBrowser(args);
      try {
        await run(browser);
      } finally {
        await browser.close();
      }
    }

    const result = (page: Page) => page.getByTestId('scan-result');

    it('staff pick the showtime (entry open first), see VALID then undo it, and ALREADY CHECKED-IN names who and where', async () => {
      const video = await qrCameraVideo(ticket.bookingId);
      await withBrowser([...FAKE_CAMERA, `--use-file-for-fake-video-capture=${video}`], async (browser) => {
        const { page, pageErrors } = await openPage(browser, server.url, DESKTOP);
        await useAccount(page, staff);
        await page.goto('/admin/scan');
        await page.getByRole('heading', { name: 'Scan Tickets' }).waitFor();
        await page.getByRole('heading', { name: 'Choose the showtime being admitted' }).waitFor();
        const links = page.getByRole('link', { name: /The Scanner Strikes|Tomorrow Never Scans/ });
        await expect.poll(() => links.count()).toBe(2);
        expect(await links.first().textContent()).toContain('The Scanner Strikes');
        expect(await links.first().textContent()).toContain('Entry open');
        expect(await links.last().textContent()).toContain('Entry opens');
        await expectNoAxeViolations(page);
        await screenshot(page, 'scanner-pick-showtime');
        await links.first().click();

        await expect.poll(() => result(page).textContent(), { timeout: 20_000 }).toContain('VALID ✅');
        const text = (await result(page).textContent()) ?? '';
        expect(text).not.toContain('ALREADY');
        // Paid through the built-in test checkout: marked TEST, in amber, never green.
        expect(await page.getByTestId('test-ticket').textContent()).toContain('TEST');
        expect(await result(page).getAttribute('data-tone')).toBe('amber');
        expect(text).toContain(ticket.email);
        expect(text).toContain(`Seat ${ticket.seat.number}`);
        expect(await page.getByTestId('last-read').textContent()).toBe(ticket.bookingId);
        await expect.poll(() => page.getByTestId('count-in').textContent()).toBe('1');
        expect(await page.getByTestId('count-sold').textContent()).toBe('1');
        expect(await page.getByTestId('count-to-come').textContent()).toBe('0');
        await expectNoAxeViolations(page);
        await screenshot(page, 'scanner-valid');

        await page.getByRole('button', { name: 'Undo check-in' }).click();
        await expect.poll(() => result(page).textContent()).toContain('Check-in undone');
        await expect.poll(() => page.getByTestId('count-in').textContent()).toBe('0');

        // Typed twice: admitted again, then refused in amber with who let the ticket in and on which device.
        await page.getByLabel('Booking id').fill(ticket.bookingId);
        await page.getByRole('button', { name: 'Check in' }).click();
        await expect.poll(() => result(page).textContent()).toContain('VALID ✅');
        await page.getByRole('button', { name: 'Check in' }).click();
        await expect.poll(() => result(page).textContent()).toContain('ALREADY CHECKED-IN ⚠️');
        expect(await result(page).textContent()).toMatch(/by Sam Staff \(Door 1\)/);
        expect(await result(page).getAttribute('data-tone')).toBe('amber');
        await screenshot(page, 'scanner-already');
        expect(pageErrors).toEqual([]);
      });
    });

    it('refuses in red a ticket for another showtime (naming it), an unknown code, and too early with an override (phone)', async () => {
      await withBrowser([], async (browser) => {
        // No camera here: the page offers typing the booking id, validated the same way.
        const { page, pageErrors } = await openPage(browser, server.url, PHONE_TALL);
        await useAccount(page, staff);
        await page.goto(`/admin/scan?showtime=${open.showtimeId}`);
        await page.getByRole('alert').filter({ hasText: 'Type the booking id' }).waitFor();
        await page.getByLabel('Booking id').fill(laterTicket);
        await page.getByRole('button', { name: 'Check in' }).click();
        await expect.poll(() => result(page).textContent()).toContain('WRONG SHOWTIME');
        const text = (await result(page).textContent()) ?? '';
        expect(text).toContain('Tomorrow Never Scans');
        expect(text).toContain(later.auditorium);
        expect(await result(page).getAttribute('data-tone')).toBe('red');
        await expectNoAxeViolations(page);
        await screenshot(page, 'scanner-wrong-showtime-phone');

        await page.getByLabel('Booking id').fill(randomUUID());
        await page.keyboard.press('Enter');
        await expect.poll(() => result(page).textContent()).toContain('Unknown ticket');
        expect(await result(page).getAttribute('data-tone')).toBe('red');

        await page.goto(`/admin/scan?showtime=${later.showtimeId}`);
        await page.getByLabel('Booking id').fill(laterTicket);
        await page.getByRole('button', { name: 'Check in' }).click();
        await expect.poll(() => result(page).textContent()).toContain('TOO EARLY');
        expect(await result(page).textContent()).toContain('Entry opens');
        await page.getByRole('button', { name: 'Admit anyway' }).click();
        await expect.poll(() => result(page).textContent()).toContain('VALID ✅');
        expect(await result(page).textContent()).toContain('Admitted outside the entry window');
        await expectNoAxeViolations(page);
        await screenshot(page, 'scanner-override-phone');
        expect(pageErrors).toEqual([]);
      });
    });

    it("keeps the spec's 'Back' link to /admin/showtimes on the picker and beside another showtime while scanning", async () => {
      await withBrowser([], async (browser) => {
        const { page, pageErrors } = await openPage(browser, server.url, DESKTOP);
        await useAccount(page, admin);
        await page.goto('/admin/scan');
        await page.getByRole('heading', { name: 'Choose the showtime being admitted' }).waitFor();
        const back = page.getByRole('link', { name: 'Back', exact: true });
        expect(await back.getAttribute('href')).toBe('/admin/showtimes');

        await page.getByRole('link', { name: /The Scanner Strikes/ }).click();
        const another = page.getByRole('link', { name: '← Choose another showtime' });
        await another.waitFor();
        expect(await back.getAttribute('href')).toBe('/admin/showtimes');
        // Side by side on one line, above the title.
        const [backBox, anotherBox] = [await back.boundingBox(), await another.boundingBox()];
        expect(backBox!.y).toBeCloseTo(anotherBox!.y, 0);
        expect(backBox!.x).toBeLessThan(anotherBox!.x);
        await screenshot(page, 'scanner-back-link');

        await back.click();
        await page.waitForURL('**/admin/showtimes');
        await page.getByRole('heading', { name: 'Manage Showtimes' }).waitFor();
        expect(pageErrors).toEqual([]);
      });
      // Staff cannot open Manage Showtimes: their scanner offers no link that would only turn them away.
      await withBrowser([], async (browser) => {
        const { page } = await openPage(browser, server.url, DESKTOP);
        await useAccount(page, staff);
        await page.goto('/admin/scan');
        await page.getByRole('heading', { name: 'Choose the showtime being admitted' }).waitFor();
        expect(await page.getByRole('link', { name: 'Back', exact: true }).count()).toBe(0);
        await page.goto(`/admin/scan?showtime=${open.showtimeId}`);
        await page.getByRole('link', { name: '← Choose another showtime' }).waitFor();
        expect(await page.getByRole('link', { name: 'Back', exact: true }).count()).toBe(0);
      });
    });

    it('keeps scanning with the network cut, sends the queue when back and shows the conflict an online scanner won', async () => {
      const show = await scheduleShowtime(server, {
        title: 'Offline Odyssey',
        hoursFromNow: 0,
        hall: hall(),
      });
      const bought = await buyTickets(server, show.showtimeId, 3);
      const [warm, first, second] = bought.bookingIds as [string, string, string];
      // One ticket comes into view while online; then, after a pause to cut the network in, two more, over and over.
      const video = await qrCameraSequence([null, warm, null, null, null, first, second], 2);
      await withBrowser([...FAKE_CAMERA, `--use-file-for-fake-video-capture=${video}`], async (browser) => {
        const { page, context, pageErrors } = await openPage(browser, server.url, PHONE_TALL);
        await useAccount(page, staff);
        await page.goto(`/admin/scan?showtime=${show.showtimeId}`);
        await expect.poll(() => page.getByTestId('count-sold').textContent()).toBe('3');
        await expect.poll(() => page.getByTestId('last-read').textContent(), { timeout: 20_000 }).toBe(warm);
        await expect.poll(() => page.getByTestId('count-in').textContent()).toBe('1');
        await context.setOffline(true);
        await expect.poll(() => page.getByTestId('network').textContent()).toContain('Offline');

        // Meanwhile another door, online, lets the second ticket in first.
        await apiAs(server.url, admin.token).post('/admin/scan', {
          bookingId: second,
          showtimeId: show.showtimeId,
          deviceLabel: 'Front desk',
        });

        await expect
          .poll(() => page.getByTestId('network').textContent(), { timeout: 30_000 })
          .toContain('2 check-ins waiting to be sent');
        expect(await page.getByTestId('count-in').textContent()).toBe('3');
        await expectNoAxeViolations(page);
        await screenshot(page, 'scanner-offline-phone');

        await context.setOffline(false);
        await expect
          .poll(() => page.getByTestId('network').textContent(), { timeout: 30_000 })
          .toContain('Sent 2 offline check-ins, 1 conflict');
        const conflicts = (await page.getByTestId('conflicts').textContent()) ?? '';
        expect(conflicts).toMatch(/Row A, Seat \d+: already checked in by/);
        expect(conflicts).toContain(`already checked in by ${admin.user.name} (Front desk)`);
        await expectNoAxeViolations(page);
        await screenshot(page, 'scanner-conflicts-phone');
        await page.setViewportSize(DESKTOP);
        await screenshot(page, 'scanner-conflicts-desktop');
        expect(pageErrors).toEqual([]);
      });

      // The server kept one check-in per ticket: the device's for the first two, the online door's for the last.
      const list = await apiAs(server.url, admin.token).get<{
        showtime: { counts: { checkedIn: number } };
        tickets: { bookingId: string; checkedInBy: string | null }[];
      }>(`/admin/scan/showtimes/${show.showtimeId}`);
      expect(list.showtime.counts.checkedIn).toBe(3);
      const by = Object.fromEntries(list.tickets.map((t) => [t.bookingId, t.checkedInBy]));
      expect(by[warm]).toBe('Sam Staff');
      expect(by[first]).toBe('Sam Staff');
      expect(by[second]).toBe(admin.user.name);
    });

    it('lets an admin find an account and make it staff at /admin/users, refusing to demote the last admin', async () => {
      const kim = await registerUser(server.url, { name: 'Kim Kiosk' });
      await withBrowser([], async (browser) => {
        for (const viewport of [PHONE_TALL, DESKTOP]) {
          const { page, pageErrors, close } = await openPage(browser, server.url, viewport);
          await useAccount(page, admin);
          await page.goto('/admin/users');
          await page.getByRole('heading', { name: 'Users and Roles' }).waitFor();
          await page.getByLabel('Name or email').fill(viewport === DESKTOP ? kim.user.email : 'Kim Kiosk');
          await page.getByRole('button', { name: 'Search' }).click();
          const role = page.getByLabel('Role of Kim Kiosk');
          await role.waitFor();
          await expectNoAxeViolations(page);
          await screenshot(page, `admin-users-${viewport.width}`);
          if (viewport === PHONE_TALL) {
            await role.selectOption('STAFF');
            await page.getByRole('button', { name: 'Save role' }).click();
            await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1);
          } else {
            expect(await role.inputValue()).toBe('STAFF');
            // The server's admin is the only one: demoting them is refused with the reason.
            await page.getByLabel('Name or email').fill(admin.user.email);
            await page.getByRole('button', { name: 'Search' }).click();
            const own = page.getByLabel(`Role of ${admin.user.name}`);
            await own.selectOption('USER');
            await page.getByRole('button', { name: 'Save role' }).click();
            await expect
              .poll(() => page.getByRole('alert').first().textContent())
              .toMatch(/last admin cannot be demoted/);
            await screenshot(page, 'admin-users-last-admin');
          }
          expect(pageErrors).toEqual([]);
          await close();
        }
      });
    });

    it('keeps customers off the door and staff off admin pages', async () => {
      await withBrowser([], async (browser) => {
        const { page } = await openPage(browser, server.url, DESKTOP);
        await useAccount(page, staff);
        await page.goto('/admin/users');
        await page.waitForURL(/\/movies$/);
        await page.goto('/admin');
        await page.waitForURL(/\/movies$/);
        const nav = page.getByRole('navigation').first();
        await expect.poll(() => nav.getByRole('link', { name: 'Scan' }).count()).toBe(1);
        expect(await nav.getByRole('link', { name: 'Manage' }).count()).toBe(0);
      });
    });
  },
);
