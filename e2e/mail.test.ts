import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxResponse } from '@cinema/contract';
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
import { buyTickets, scheduleShowtime } from './support/flows.ts';
import { ADMIN, apiAs, registerUser, signIn, startServer, type RunningServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/mail.test.ts (outbox, forgot password, PDF tickets)');

const PHONE_390 = { width: 390, height: 844 } as const;
const VIEWPORTS = [
  ['phone', PHONE_390],
  ['desktop', DESKTOP],
] as const;

describe.skipIf(!hasChromium)('email, password reset and PDF tickets in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  // No SMTP_URL: every email lands in the outbox admins read.
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const outbox = async () => {
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    return (await apiAs(server.url, admin.token).get<OutboxResponse>('/admin/outbox')).messages;
  };

  for (const [name, viewport] of VIEWPORTS) {
    it(`shows the order confirmation in the admin outbox and downloads the tickets as a PDF (${name})`, async () => {
      const show = await scheduleShowtime(server, { title: `Outbox Feature ${name}` });
      const bought = await buyTickets(server, show.showtimeId, 2);
      await expect
        .poll(async () => (await outbox()).find((m) => m.to === bought.customer.user.email)?.subject)
        .toMatch(/^Your tickets: order /);

      const admin = await openPage(browser, server.url, viewport);
      await useAccount(admin.page, await signIn(server.url, ADMIN.email, ADMIN.password));
      await admin.page.goto('/admin');
      await admin.page.getByRole('link', { name: 'Outbox' }).click();
      await admin.page.waitForURL('**/admin/outbox');
      const emails = admin.page.getByRole('list', { name: 'Emails, newest first' }).getByRole('listitem');
      // Her order's email (registering sent her a verification link too).
      const mine = emails
        .filter({ hasText: bought.customer.user.email })
        .filter({ hasText: 'Your tickets: order' });
      await expect.poll(() => mine.count()).toBe(1);
      expect(await mine.getByRole('heading').textContent()).toMatch(/^Your tickets: order /);
      expect(await mine.textContent()).toContain('Kept here (no SMTP_URL)');
      await mine.getByText('Show the message').click();
      expect(await mine.locator('pre').textContent()).toContain(`Outbox Feature ${name}`);
      await expectNoAxeViolations(admin.page);
      await screenshot(admin.page, `outbox-${name}`);
      expect(admin.pageErrors).toEqual([]);
      await admin.close();

      const customer = await openPage(browser, server.url, viewport);
      await useAccount(customer.page, bought.customer);
      await customer.page.goto('/tickets');
      const pdfButton = customer.page.getByRole('button', { name: /^Tickets as PDF \(order / });
      await expect.poll(() => pdfButton.count()).toBe(1);
      await expectNoAxeViolations(customer.page);
      await screenshot(customer.page, `my-tickets-pdf-${name}`);
      const [download] = await Promise.all([customer.page.waitForEvent('download'), pdfButton.click()]);
      expect(download.suggestedFilename()).toMatch(/^tickets-.+\.pdf$/);
      const pdf = await readFile((await download.path())!);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(customer.pageErrors).toEqual([]);
      await customer.close();
    });

    it(`resets a forgotten password from the login page and signs every session out (${name})`, async () => {
      const account = await registerUser(server.url, { name: 'Olga Forgetful' });
      const { page, pageErrors, close } = await openPage(browser, server.url, viewport);
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/forgot-password');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Forgot password?');
      await page.getByLabel('Email').fill(account.user.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(
          `If an account uses ${account.user.email}, we have sent it a link to reset the password. The link works once, for one hour.`,
        );
      await expectNoAxeViolations(page);
      await screenshot(page, `forgot-password-${name}`);

      let link: string | undefined;
      await expect
        .poll(async () => {
          const mail = (await outbox()).find(
            (m) => m.to === account.user.email && m.kind === 'password_reset',
          );
          link = /http\S+\/reset-password\?token=\S+/.exec(mail?.text ?? '')?.[0];
          return link;
        })
        .toBeTruthy();
      const url = new URL(link!);
      await page.goto(url.pathname + url.search);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Choose a new password');
      await page.getByLabel('New password', { exact: true }).fill('Forgotten#2027');
      await expectNoAxeViolations(page);
      await screenshot(page, `reset-password-${name}`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Password changed');
      await screenshot(page, `password-changed-${name}`);
      // The session from registering is over; the new password works.
      await expect(apiAs(server.url, account.token).get('/user/me')).rejects.toMatchObject({ status: 401 });
      await page.getByRole('link', { name: 'Sign in' }).first().click();
      await page.getByLabel('Email').fill(account.user.email);
      await page.getByLabel('Password').fill('Forgotten#2027');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/movies');

      // The link worked once.
      await page.evaluate(() => localStorage.clear());
      await page.goto(url.pathname + url.search);
      await page.getByLabel('New password', { exact: true }).fill('Another#Pass2027');
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('This reset link is invalid, used or expired. Ask for a new one.');
      expect(await page.getByRole('link', { name: 'Ask for a new link' }).count()).toBe(1);
      expect(pageErrors).toEqual([]);
      await close();
    });
  }
});
