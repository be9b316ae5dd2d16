import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GiftCardBalance, Order } from '@cinema/contract';
import {
  DESKTOP,
  expectNoAxeViolations,
  explainTimeout,
  hasChromium,
  launchBrowser,
  PHONE_390,
  recordTraffic,
  scrollsSideways,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { scheduleShowtime, type ScheduledShowtime } from './support/flows.ts';
import {
  ADMIN,
  apiAs,
  registerUser,
  signIn,
  startServer,
  type Account,
  type RunningServer,
} from './support/server.ts';

reportSkippedWithoutChromium('e2e/gift-cards.test.ts (buying a gift card, its email, paying seats with it)');

const VIEWPORTS = [
  ['phone', PHONE_390, 'B'],
  ['desktop', DESKTOP, 'C'],
] as const;
/** A card's code as the email writes it: four groups of four of Crockford's base32. */
const CODE = /\b[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){3}\b/;
const PRICE = 1200;

describe.skipIf(!hasChromium)('gift cards in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let show: ScheduledShowtime;
  const pages = signedInPages();

  // No SMTP_URL: every email lands in the outbox, where the recipient's is opened.
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    show = await scheduleShowtime(server, {
      title: 'The Gift Card Matinee',
      hall: { name: 'Gift Hall', rows: 4, cols: 8 },
      hoursFromNow: 48,
      priceCents: PRICE,
    });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  for (const [name, viewport, row] of VIEWPORTS) {
    it(`a customer buys a gift card for someone else, who opens the email and pays seats with it and the test card (${name})`, async () => {
      const giver = await registerUser(server.url, { name: `Gift Giver ${name}` });
      const taker = await registerUser(server.url, { name: `Gift Taker ${name}` });

      // The giver buys a $25.00 card for the taker, with a message, and pays on the test checkout.
      const buying = await pages.open(browser, server.url, giver, viewport);
      let page = buying.page;
      await page.goto('/gift-cards');
      await page.getByRole('heading', { name: 'Gift cards', level: 1 }).waitFor();
      await page.getByRole('radio', { name: '$25.00' }).check();
      await page.getByRole('textbox', { name: 'Send it to (email, optional)' }).fill(taker.user.email);
      await page.getByRole('textbox', { name: 'Message (optional)' }).fill('Enjoy the film!');
      expect(await scrollsSideways(page)).toBe(false);
      await expectNoAxeViolations(page);
      await screenshot(page, `gift-card-buy-${name}`);
      await page.getByRole('button', { name: 'Buy gift card' }).click();
      await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
      expect(await page.locator('.total').textContent()).toContain('$25.00');
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.waitForURL(/\/checkout\/success\?session_id=/);
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();
      const bought = page.getByRole('list', { name: 'Gift cards bought' });
      await expect
        .poll(() => bought.textContent())
        .toContain(`A gift card of $25.00, emailed to ${taker.user.email}.`);
      expect(await page.getByText('No tickets found for this session.').count()).toBe(0);
      expect(await scrollsSideways(page)).toBe(false);
      await expectNoAxeViolations(page);
      await screenshot(page, `gift-card-bought-${name}`);
      expect(buying.pageErrors).toEqual([]);

      // The taker's email, opened in the outbox: the code is there as text, with the message.
      const desk = await pages.open(browser, server.url, admin, viewport);
      page = desk.page;
      await page.goto('/admin/outbox');
      const mail = page
        .getByRole('list', { name: 'Emails, newest first' })
        .getByRole('listitem')
        .filter({ hasText: taker.user.email })
        .filter({ hasText: 'sent you a gift card of $25.00' });
      await expect.poll(() => mail.count()).toBe(1);
      await mail.getByText('Show the message').click();
      const text = (await mail.locator('pre').textContent())!;
      expect(text).toContain('Enjoy the film!');
      const code = CODE.exec(text)?.[0];
      expect(code).toBeDefined();
      await expectNoAxeViolations(page);
      await screenshot(page, `gift-card-email-${name}`);

      // The taker holds three seats ($36.00): the card pays $25.00, the test card the other $11.00.
      const paying = await pages.open(browser, server.url, taker, viewport);
      page = paying.page;
      // The amount due did not appear within 15 s of "Use card" once, in a CI run on a slow machine (2026-11-28), and
      // never when repeated: the cause is not known yet, so a failure there reports what the page showed and loaded.
      const traffic = recordTraffic(page);
      await page.goto(`/showtimes/${show.showtimeId}/seats`);
      for (const number of [3, 4, 5])
        await page.getByRole('button', { name: new RegExp(`^Row ${row}, seat ${number}, `) }).click();
      await page.getByRole('button', { name: 'Hold seats' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Checkout' }).isEnabled()).toBe(true);
      await page.getByRole('textbox', { name: 'Gift card', exact: true }).fill(code!.toLowerCase());
      await page.getByRole('button', { name: 'Use card' }).click();
      await page.getByTestId('basket-due').waitFor().catch(explainTimeout(page, traffic));
      await expect.poll(() => page.getByTestId('basket-due').textContent()).toBe('$11.00');
      expect(await page.getByRole('list', { name: 'Gift cards to pay with' }).textContent()).toContain(
        `${code}−$25.00`,
      );
      expect(await scrollsSideways(page)).toBe(false);
      await expectNoAxeViolations(page);
      await screenshot(page, `gift-card-basket-${name}`);
      await page.getByRole('button', { name: 'Checkout' }).click();
      await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
      expect(await page.locator('.total').textContent()).toContain('$11.00');
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.waitForURL(/\/checkout\/success\?session_id=/);
      await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();
      await expect
        .poll(() => page.getByRole('list', { name: 'Tickets' }).getByRole('listitem').count())
        .toBe(3);
      await expectNoAxeViolations(page);
      expect(paying.pageErrors).toEqual([]);

      // What was paid how, and what the card holds now.
      const customer = apiAs(server.url, taker.token);
      const { orders } = await customer.get<{ orders: Order[] }>('/me/orders');
      expect(orders).toHaveLength(1);
      const order = await customer.get<Order>(`/me/orders/${orders[0]!.ref}`);
      expect(order.status).toBe('paid');
      expect(order.payments).toEqual([
        { method: 'GIFT_CARD', amountCents: 2500, refundedCents: 0 },
        { method: 'CARD', amountCents: 3 * PRICE - 2500, refundedCents: 0 },
      ]);
      const card = await apiAs(server.url).get<GiftCardBalance>(`/gift-cards/${code}`);
      expect(card).toMatchObject({ code, balanceCents: 0, status: 'active' });

      // Staff find it by the taker's email: sold by the giver, redeemed by the taker.
      page = desk.page;
      await page.goto(`/admin/gift-cards?q=${encodeURIComponent(taker.user.email)}`);
      await page
        .getByRole('list', { name: `Gift cards matching ${taker.user.email}` })
        .getByRole('link', { name: code })
        .click();
      const ledger = page.getByRole('list', { name: `Ledger of ${code}` }).getByRole('listitem');
      await expect.poll(() => ledger.count()).toBe(2);
      expect(await ledger.nth(0).textContent()).toMatch(
        new RegExp(`^Sold\\+\\$25\\.00leaves \\$25\\.00.*${giver.user.email.replace(/[.+]/g, '\\$&')}`),
      );
      expect(await ledger.nth(1).textContent()).toMatch(
        new RegExp(`^Redeemed−\\$25\\.00leaves \\$0\\.00.*${taker.user.email.replace(/[.+]/g, '\\$&')}`),
      );
      // The outstanding balance today, as CSV: a row per card with a balance, and the total.
      await page.getByTestId('gift-card-liability').waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^gift-card-liability-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = (await readFile((await download.path())!, 'utf8')).split('\r\n');
      expect(csv[0]).toBe('Code,Balance,Expires');
      expect(csv.at(-1)).toMatch(/^Total,\d+\.\d{2},$/);
      expect(csv.join('\n')).not.toContain(code);
      expect(await scrollsSideways(page)).toBe(false);
      await expectNoAxeViolations(page);
      await screenshot(page, `gift-card-ledger-${name}`);

      // One ticket of the three refunded from its order: the card gets back its share of it, $8.33 ($12.00 × 25/36,
      // rounded down), the test card the rest.
      await ledger
        .nth(1)
        .getByRole('link', { name: `order ${order.ref}` })
        .click();
      await page.getByRole('heading', { name: `Order ${order.ref}` }).waitFor();
      expect(await page.getByTestId('order-payments').textContent()).toBe(
        '$25.00 by gift card, $11.00 by card',
      );
      await page.getByRole('checkbox').first().check();
      await page.getByRole('textbox', { name: /^Reason/ }).fill('Could not come');
      await page.getByRole('button', { name: 'Refund 1 ticket · $12.00' }).click();
      await page.getByRole('status').filter({ hasText: 'Refunded $12.00 for 1 ticket' }).waitFor();
      await expect
        .poll(() => page.getByTestId('order-payments').textContent())
        .toBe('$25.00 by gift card (refunded $8.33), $11.00 by card (refunded $3.67)');
      await expectNoAxeViolations(page);
      // The card's holder sees it on the card's history.
      const holder = paying.page;
      await holder.goto('/gift-cards');
      await holder.getByRole('textbox', { name: 'Gift card code' }).fill(code!);
      await holder.getByRole('button', { name: 'Check' }).click();
      await expect
        .poll(() => holder.getByTestId('gift-card-balance').textContent())
        .toMatch(new RegExp(`^${code} holds \\$8\\.33, valid until `));
      const history = holder.getByRole('list', { name: `History of ${code}` }).getByRole('listitem');
      expect(await history.allTextContents()).toEqual([
        expect.stringMatching(/Refunded to the card\+\$8\.33\$8\.33 left$/),
        expect.stringMatching(/Paid for an order−\$25\.00\$0\.00 left$/),
        expect.stringMatching(/Bought\+\$25\.00\$25\.00 left$/),
      ]);
      expect(await scrollsSideways(holder)).toBe(false);
      await expectNoAxeViolations(holder);
      await screenshot(holder, `gift-card-history-${name}`);

      await page.goto(`/admin/gift-cards?q=${code}`);
      await expect.poll(() => ledger.count()).toBe(3);
      expect(await ledger.nth(2).textContent()).toMatch(/^Refunded\+\$8\.33leaves \$8\.33.*admin@e2e\.test/);

      // Voided, with a reason, after the dialog asked: the ledger says who and why.
      await page.getByRole('button', { name: 'Void card…' }).click();
      const dialog = page.getByRole('dialog', { name: `Void gift card ${code}?` });
      expect(await dialog.textContent()).toContain('Its balance of $8.33 goes to zero');
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('Reported lost');
      await expectNoAxeViolations(page);
      await screenshot(page, `gift-card-void-${name}`);
      await dialog.getByRole('button', { name: 'Void the card' }).click();
      await page.getByText(`Gift card ${code} is void.`).waitFor();
      await expect.poll(() => ledger.count()).toBe(4);
      expect(await ledger.nth(3).textContent()).toMatch(
        /^Voided−\$8\.33leaves \$0\.00.*admin@e2e\.test.*Reported lost$/,
      );
      expect(await page.getByRole('button', { name: 'Void card…' }).count()).toBe(0);
      expect(desk.pageErrors).toEqual([]);
    });
  }

  it('staff sell a gift card at the counter and print it, take it for seats with cash for the rest, and the door refuses it (390 px)', async () => {
    const sam = await registerUser(server.url, { name: 'Gift Desk' });
    await apiAs(server.url, admin.token).put(`/admin/users/${sam.user.id}/role`, { role: 'STAFF' });
    const staff = await signIn(server.url, sam.user.email, sam.password);
    const { page, pageErrors } = await pages.open(browser, server.url, staff, PHONE_390);
    await page.goto('/admin/box-office');
    await page.getByRole('heading', { name: 'Box office', level: 1 }).waitFor();

    // A $50.00 card on its own, paid in cash, printed at once.
    await page.getByRole('button', { name: '$50.00' }).click();
    expect(await page.getByRole('textbox', { name: /^Amount/ }).inputValue()).toBe('50.00');
    await page.getByRole('button', { name: 'Add gift card' }).click();
    await page.getByRole('radio', { name: 'Cash' }).check();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshot(page, 'gift-card-counter-sell-390');
    await page.getByRole('button', { name: 'Sell · $50.00' }).click();
    const sold = page.getByRole('status').filter({ hasText: /^Sold: order/ });
    await expect.poll(() => sold.textContent()).toMatch(/, 1 gift card, \$50\.00 by cash\./);
    const printed = page.getByRole('region', { name: 'Gift cards to print' }).getByRole('listitem');
    const code = (await printed.getAttribute('data-gift-card-code'))!;
    expect(code).toMatch(CODE);
    expect(await printed.textContent()).toContain('$50.00');
    expect(await printed.textContent()).toContain('Valid until');
    // The QR the browser drew reads as the code.
    const qr = printed.locator('img[data-qr-value]');
    await qr.waitFor();
    const png = PNG.sync.read(await qr.screenshot());
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(code);
    expect(await page.getByRole('button', { name: 'Print the gift card' }).isEnabled()).toBe(true);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, 'gift-card-counter-print-390');
    await page.emulateMedia({ media: 'screen' });

    // Five seats ($60.00): the card pays $50.00, cash the other $10.00.
    const option = page.getByRole('option', { name: /The Gift Card Matinee/ });
    await page
      .getByRole('combobox', { name: 'Showtime' })
      .selectOption({ label: (await option.textContent())! });
    const grid = page.getByRole('group', { name: 'Seats for The Gift Card Matinee' });
    await grid.waitFor();
    for (let i = 0; i < 5; i++) await grid.locator('[data-status="AVAILABLE"]').first().click();
    await page.getByRole('button', { name: 'Sell 5 tickets · $60.00' }).waitFor();
    await page.getByRole('textbox', { name: 'Gift card code' }).fill(code);
    await page.getByRole('button', { name: 'Use card' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Gift cards paying' }).textContent())
      .toContain(`${code}−$50.00`);
    expect(await page.getByTestId('counter-rest').textContent()).toContain('the rest to pay: $10.00');
    expect(await page.getByText('The door scanner never takes gift cards.').count()).toBe(1);
    await page.getByRole('radio', { name: 'Cash' }).check();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
    await screenshot(page, 'gift-card-counter-redeem-390');
    await page.getByRole('button', { name: 'Sell 5 tickets · $60.00' }).click();
    await expect
      .poll(() => sold.textContent())
      .toMatch(/, 5 tickets, \$50\.00 by gift card, \$10\.00 by cash\./);
    const card = await apiAs(server.url).get<GiftCardBalance>(`/gift-cards/${code}`);
    expect(card.balanceCents).toBe(0);

    // The door never takes it: typed at the scanner, it is named a gift card, not a ticket.
    await page.goto(`/admin/scan?showtime=${show.showtimeId}`);
    await page
      .getByText('The door admits tickets only and never redeems gift cards', { exact: false })
      .waitFor();
    await page.getByLabel('Booking id').fill(code);
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => page.getByTestId('scan-result').textContent()).toContain('⛔ GIFT CARD');
    expect(await page.getByTestId('scan-result').textContent()).toContain(
      'send the customer to the box office',
    );
    await expectNoAxeViolations(page);
    expect(pageErrors).toEqual([]);
  });
});
