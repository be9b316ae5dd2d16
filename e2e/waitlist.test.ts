import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyWaitlistResponse, OutboxResponse } from '@cinema/contract';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { buyTickets } from './support/flows.ts';
import {
  apiAs,
  registerUser,
  signIn,
  startServer,
  type Account,
  type RunningServer,
} from './support/server.ts';

reportSkippedWithoutChromium('e2e/waitlist.test.ts (the waiting list: join, offer, pay)');

const PHONE_390 = { width: 390, height: 844 } as const;

// DESIGN §7.6: a sold-out showtime; a customer joins its waiting list from the schedule; staff refund a seat; the
// customer sees the seat held for them on the seat map and pays for it.
describe.skipIf(!hasChromium)('the waiting list in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  /** A showtime tomorrow at `hour` UTC in a hall of its own with two seats, both sold to one buyer. */
  async function soldOutShowtime(hour: number, title: string) {
    const api = apiAs(server.url, admin.token);
    const form = new FormData();
    form.set('title', title);
    form.set('durationMinutes', '90');
    const movie = await api.post<{ id: string }>('/admin/movies', form);
    const hall = await api.post<{ id: string }>('/admin/rooms', { name: `Studio ${hour}`, rows: 1, cols: 2 });
    const at = new Date(Date.now() + 24 * 3600_000);
    at.setUTCHours(hour, 0, 0, 0);
    const showtime = await api.post<{ id: string }>('/admin/showtimes', {
      movieId: movie.id,
      auditoriumId: hall.id,
      startsAt: at.toISOString(),
      priceCents: 1300,
    });
    const bought = await buyTickets(server, showtime.id, 2);
    const { orders } = await apiAs(server.url, bought.customer.token).get<{ orders: { ref: string }[] }>(
      '/me/orders',
    );
    return { showtimeId: showtime.id, ref: orders[0]!.ref, bookingIds: bought.bookingIds };
  }

  async function joinOfferPay(page: Page, customer: Account, hour: number, title: string) {
    const width = page.viewportSize()!.width;
    const show = await soldOutShowtime(hour, title);

    // The schedule: the showtime is sold out, with a way onto its waiting list.
    await page.goto('/schedule');
    await page.getByRole('heading', { name: 'Schedule' }).waitFor();
    await page.getByRole('button', { name: /^Tomorrow/ }).click();
    const tile = page.locator(`[data-showtime-id="${show.showtimeId}"]`);
    await tile.waitFor();
    expect(await tile.getAttribute('data-availability')).toBe('SOLD_OUT');
    await expectNoAxeViolations(page);
    await tile.getByRole('link', { name: /^Join the waiting list/ }).click();
    await page.waitForURL(new RegExp(`/showtimes/${show.showtimeId}/seats`));

    // The seat map of a sold-out showtime: the waiting list's form is open at once.
    await page.getByRole('heading', { name: 'Sold out: join the waiting list' }).waitFor();
    await page.getByRole('spinbutton', { name: 'How many seats' }).fill('1');
    await expectNoAxeViolations(page);
    await screenshot(page, `waitlist-join-${width}`);
    await page.getByRole('button', { name: 'Join the waiting list' }).click();
    await page.getByText('You are number 1 in line for 1 seat.').waitFor();
    await expectNoAxeViolations(page);

    // Staff refund one of the buyer's tickets: the seat goes to the customer waiting, held in their name.
    await apiAs(server.url, admin.token).post(`/admin/orders/${show.ref}/refund`, {
      bookingIds: [show.bookingIds[0]],
    });
    const offer = page.getByText(/^These seats are held for you until \d{1,2}:\d{2}/);
    await offer.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByRole('button', { name: 'Checkout' }).isEnabled()).toBe(true);
    // Nothing on the page scrolls sideways at this width.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    await expectNoAxeViolations(page);
    await screenshot(page, `waitlist-offer-${width}`);

    // They pay as for any hold.
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=/);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();

    const api = apiAs(server.url, customer.token);
    await expect
      .poll(async () => (await api.get<MyWaitlistResponse>('/me/waitlist')).entries[0]?.status)
      .toBe('taken');
    const tickets = await api.get<{ tickets: unknown[] }>('/me/tickets');
    expect(tickets.tickets).toHaveLength(1);
    // The email with the link went out through the outbox.
    const { messages } = await apiAs(server.url, admin.token).get<OutboxResponse>('/admin/outbox');
    const mail = messages.find((m) => m.kind === 'waitlist_offer' && m.to === customer.user.email);
    expect(mail?.text).toContain(`/showtimes/${show.showtimeId}/seats`);
    return show;
  }

  it('joins a sold-out showtime, is offered a refunded seat and pays for it on a 390 px phone', async () => {
    const customer = await registerUser(server.url, { name: 'Wendy Waiting' });
    const { page, pageErrors } = await pages.open(browser, server.url, customer, PHONE_390);
    await joinOfferPay(page, customer, 13, 'The Long Queue');
    expect(pageErrors).toEqual([]);
  });

  it('joins, is offered, pays at 1280 px, and staff see the list with emails for the door', async () => {
    const customer = await registerUser(server.url, { name: 'Walter Waiting' });
    const { page, pageErrors } = await pages.open(browser, server.url, customer, DESKTOP);
    const show = await joinOfferPay(page, customer, 17, 'Standing Room Only');
    expect(pageErrors).toEqual([]);

    const staffPage = (await pages.open(browser, server.url, admin, DESKTOP)).page;
    await staffPage.goto('/admin/showtimes');
    await staffPage.getByRole('heading', { name: 'Manage Showtimes' }).waitFor();
    await staffPage.goto(`/admin/showtimes/${show.showtimeId}/waitlist`);
    await staffPage.getByRole('heading', { name: 'Waiting list' }).waitFor();
    await staffPage.getByRole('cell', { name: customer.user.email }).waitFor();
    await staffPage.getByText('Paid').first().waitFor();
    await expectNoAxeViolations(staffPage);
    await screenshot(staffPage, 'waitlist-staff-1280');
  });
});
