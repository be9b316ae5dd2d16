import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxResponse, StaffOrder } from '@cinema/contract';
import {
  PHONE,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  openPage,
  reportSkippedWithoutChromium,
  screenshot,
  useAccount,
} from './support/browser.ts';
import { scheduleShowtime } from './support/flows.ts';
import { ADMIN, apiAs, registerUser, signIn, startServer, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/verification.test.ts (verify your email, guest orders)');

describe.skipIf(!hasChromium)('email verification and guest orders in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The path and query of the newest link to `page` in an email of `kind` to `to` (the admin outbox). */
  async function emailedLink(to: string, kind: string, page: string): Promise<string> {
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    let link: string | undefined;
    await expect
      .poll(async () => {
        const { messages } = await apiAs(server.url, admin.token).get<OutboxResponse>('/admin/outbox');
        const mail = messages.find((m) => m.to === to && m.kind === kind);
        link = new RegExp(`http\\S+/${page}\\?token=[\\w%-]+`).exec(mail?.text ?? '')?.[0];
        return link;
      })
      .toBeTruthy();
    const url = new URL(link!);
    return url.pathname + url.search;
  }

  it('asks a customer to verify, shows a counter sale by its guest link, and brings it to My Tickets once verified', async () => {
    const customer = await registerUser(server.url, { name: 'Gina Guest' });
    const email = customer.user.email;
    const show = await scheduleShowtime(server, { title: 'Guest Star', priceCents: 1100 });
    const adminApi = apiAs(server.url, show.admin.token);
    const map = await adminApi.get<{ seats: { id: string; status: string }[] }>(
      `/showtimes/${show.showtimeId}/seats`,
    );
    const seatIds = map.seats
      .filter((s) => s.status === 'AVAILABLE')
      .slice(0, 2)
      .map((s) => s.id);
    const sale = await adminApi.post<StaffOrder>('/admin/box-office/sales', {
      showtimeId: show.showtimeId,
      seatIds,
      paymentMethod: 'cash',
      customerEmail: email,
    });

    // Signed in but not verified: the banner asks, and the sale is not in the account.
    const { page, pageErrors, close } = await openPage(browser, server.url, PHONE);
    await useAccount(page, customer);
    await page.goto('/tickets');
    const banner = page.getByRole('complementary', { name: 'Email verification' });
    await banner
      .getByText(`Please verify your email: we sent a link to ${email}.`, { exact: false })
      .waitFor();
    await page.getByText('No tickets yet.').waitFor();
    await banner.getByRole('button', { name: 'Send the link again' }).click();
    await banner.getByText('Sent. Check your inbox.').waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, 'verify-email-banner-phone');

    // The guest link from the order's email shows the order to whoever holds it, signed out.
    const guestLink = await emailedLink(email, 'order_confirmation', 'guest-order');
    const guest = await openPage(browser, server.url, PHONE);
    await guest.page.goto(guestLink);
    await guest.page.getByRole('heading', { level: 1, name: `Order ${sale.ref}` }).waitFor();
    expect(await guest.page.title()).toBe(`Order ${sale.ref} · Cinema`);
    const tickets = guest.page
      .getByRole('list', { name: `Tickets of order ${sale.ref}` })
      .getByRole('listitem');
    await tickets.nth(1).waitFor();
    expect(await tickets.count()).toBe(2);
    // Each ticket's QR code is drawn after its card: wait for it rather than count too early.
    await tickets.first().getByRole('img').waitFor();
    expect(await tickets.first().getByRole('img').count()).toBe(1);
    await expectNoAxeViolations(guest.page);
    await screenshot(guest.page, 'guest-order-phone');
    const [download] = await Promise.all([
      guest.page.waitForEvent('download'),
      guest.page.getByRole('link', { name: 'Download the tickets (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`tickets-${sale.ref}.pdf`);
    expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
    await guest.page
      .getByText(
        'Have an account with this email address? Verify the address and this order joins My Tickets.',
      )
      .waitFor();
    await guest.page.goto('/guest-order?token=not-the-token');
    await guest.page
      .getByRole('alert')
      .filter({ hasText: /^This order link is invalid$/ })
      .waitFor();
    expect(guest.pageErrors).toEqual([]);
    await guest.close();

    // The verification link: the email is verified and the order joins My Tickets.
    const verifyLink = await emailedLink(email, 'email_verification', 'verify-email');
    await page.goto(verifyLink);
    await page.getByRole('heading', { level: 1, name: 'Email verified' }).waitFor();
    await page.getByText('One order from the box office is now under My Tickets.').waitFor();
    expect(await banner.count()).toBe(0);
    await expectNoAxeViolations(page);
    await screenshot(page, 'email-verified-phone');
    await page.getByRole('link', { name: 'See my tickets' }).click();
    await page.waitForURL('**/tickets');
    const mine = page.getByRole('list', { name: `Tickets of order ${sale.ref}` }).getByRole('listitem');
    await mine.nth(1).waitFor();
    expect(await mine.count()).toBe(2);
    expect(await banner.count()).toBe(0);

    // The guest link keeps working, and no longer asks to verify an address that is verified.
    const claimed = await openPage(browser, server.url, PHONE);
    await claimed.page.goto(guestLink);
    await claimed.page
      .getByText('This order is under My Tickets of the account with this email address.')
      .waitFor();
    expect(await claimed.page.getByText(/Verify the address/).count()).toBe(0);
    expect(claimed.pageErrors).toEqual([]);
    await claimed.close();

    // Opened again, the link says it is used.
    await page.goto(verifyLink);
    await page
      .getByRole('alert')
      .filter({ hasText: /^This verification link is invalid, used or expired\.$/ })
      .waitFor();
    await expectNoAxeViolations(page);
    expect(pageErrors).toEqual([]);
    await close();
  });
});
