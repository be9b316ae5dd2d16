import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  openPage,
  reportSkippedWithoutChromium,
  screenshot,
  useAccount,
} from './support/browser.ts';
import {
  STRONG_PASSWORD,
  apiAs,
  registerUser,
  signIn,
  startServer,
  uniqueEmail,
  type RunningServer,
} from './support/server.ts';

reportSkippedWithoutChromium('e2e/accounts.test.ts (register, sign in, guards, profile)');

const atPath = (page: Page, pathname: string) =>
  page.waitForURL((u) => u.pathname === pathname, { timeout: 15_000 });

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('mm_token'));

async function signInWithForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(!hasChromium)('accounts in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('registers with a live password checklist, lands on /movies signed in, logs out, and /movies then asks to sign in', async () => {
    const { page, pageErrors, close } = await openPage(browser, server.url, PHONE);
    const email = uniqueEmail('rita');
    await page.goto('/register');
    const submit = page.getByRole('button', { name: 'Create account' });
    await expect.poll(() => submit.isDisabled()).toBe(true);

    // Name and email padded with spaces: the client trims them before sending.
    await page.getByLabel('Name').fill('  Rita Register  ');
    await page.getByLabel('Email').fill(`  ${email}  `);
    expect(await submit.isDisabled(), 'still disabled without a password').toBe(true);
    const hints = page.getByRole('list', { name: 'Password requirements' }).getByRole('listitem');
    await page.getByLabel('Password', { exact: true }).fill('popcorn');
    expect(await hints.evaluateAll((items) => items.map((li) => li.getAttribute('data-met')))).toEqual([
      'false',
      'false',
      'true',
      'false',
      'false',
    ]);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    expect(
      await hints.evaluateAll((items) => items.every((li) => li.getAttribute('data-met') === 'true')),
    ).toBe(true);
    await submit.click();

    await atPath(page, '/movies');
    const header = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => header.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    const me = await apiAs(server.url, token!).get('/user/me');
    expect(me).toMatchObject({ name: 'Rita Register', email, role: 'USER' });

    await header.getByRole('button', { name: 'Logout' }).click();
    await atPath(page, '/login');
    expect(await storedToken(page)).toBeNull();
    // The server ended that session too, not just this browser.
    await expect(apiAs(server.url, token!).get('/user/me')).rejects.toMatchObject({ status: 401 });
    await page.goto('/movies');
    await atPath(page, '/login');
    await expect.poll(() => header.getByRole('link', { name: 'Register' }).isVisible()).toBe(true);

    // The same address again (in capitals) is refused with the server's message.
    await page.goto('/register');
    await page.getByLabel('Name').fill('Rita Again');
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/already/i);
    expect(new URL(page.url()).pathname).toBe('/register');
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('says "Invalid credentials" for a wrong password and "Network error" when the server is unreachable', async () => {
    const account = await registerUser(server.url);
    const { page, close } = await openPage(browser, server.url);
    await page.goto('/login');
    await signInWithForm(page, account.user.email, 'Wrong#Password1');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid credentials');
    expect(await storedToken(page)).toBeNull();

    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Network error — check the server');
    await page.unroute('**/api/auth/login');

    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await atPath(page, '/movies');
    await close();
  });

  it('recovers a tab left open across a release: a screen whose code is gone reloads the page', async () => {
    const account = await registerUser(server.url);
    const { page, pageErrors, close } = await openPage(browser, server.url);
    await page.goto('/login');
    // A new release replaced the movies screen's chunk: the tab's first request for it finds nothing.
    let requests = 0;
    await page.route('**/assets/movies-screen-*.js', (route) =>
      requests++ === 0 ? route.fulfill({ status: 404, body: 'Not found' }) : route.continue(),
    );
    await signInWithForm(page, account.user.email, account.password);
    await expect.poll(() => page.getByRole('heading', { name: 'Movies' }).isVisible()).toBe(true);
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(await page.getByText('Something went wrong.').count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('sends a customer who opens /admin to /movies', async () => {
    const account = await registerUser(server.url);
    const { page, close } = await openPage(browser, server.url);
    await useAccount(page, account);
    await page.goto('/admin');
    await atPath(page, '/movies');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count(),
    ).toBe(0);
    await close();
  });

  it('sends a visitor at /admin to /login and back to /admin after the admin signs in', async () => {
    const { page, close } = await openPage(browser, server.url);
    await page.goto('/admin');
    await atPath(page, '/login');
    await signInWithForm(page, server.admin.email, server.admin.password);
    await atPath(page, '/admin');
    const header = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Admin', 'Manage', 'Scan'])
      await expect.poll(() => header.getByRole('link', { name }).isVisible()).toBe(true);
    await close();
  });

  it('forgets a stored session the server no longer accepts', async () => {
    const account = await registerUser(server.url);
    await apiAs(server.url, account.token).post('/auth/logout');
    const { page, close } = await openPage(browser, server.url);
    await useAccount(page, account);
    await page.goto('/profile');
    await atPath(page, '/login');
    expect(await storedToken(page)).toBeNull();
    await close();
  });

  it('edits the profile and changes the password: the new password signs in, the old one does not', async () => {
    const account = await registerUser(server.url, { name: 'Paul Profile' });
    const { page, pageErrors, close } = await openPage(browser, server.url);
    await page.goto('/login');
    await signInWithForm(page, account.user.email, account.password);
    await atPath(page, '/movies');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await atPath(page, '/profile');

    const account_ = page.getByRole('form', { name: 'Account' });
    await expect.poll(() => account_.getByLabel('Name').inputValue()).toBe('Paul Profile');
    expect(await account_.getByLabel('Email').inputValue()).toBe(account.user.email);
    const newEmail = uniqueEmail('paula');
    await account_.getByLabel('Name').fill('Paula Profile');
    // No password field until the email changes; a new email needs the current password.
    expect(await account_.getByLabel('Current password').count()).toBe(0);
    await account_.getByLabel('Email').fill(newEmail);
    await account_.getByLabel('Current password').fill('Not#MyPassword1');
    await account_.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => account_.getByRole('alert').textContent()).toBe('Current password is incorrect');
    await account_.getByLabel('Current password').fill(account.password);
    await account_.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => account_.getByRole('status').textContent()).toBe('Profile updated.');
    expect(await account_.getByLabel('Current password').count()).toBe(0);
    await page.reload();
    await expect.poll(() => account_.getByLabel('Name').inputValue()).toBe('Paula Profile');
    expect(await account_.getByLabel('Email').inputValue()).toBe(newEmail);

    const password = page.getByRole('form', { name: 'Change Password' });
    await expect.poll(() => password.textContent()).toContain('8+ including upper, lower, digit and symbol');
    await password.getByLabel('Current password').fill('Not#MyPassword1');
    await password.getByLabel('New password').fill('Trailer#2027');
    await password.getByRole('button', { name: 'Update password' }).click();
    // The server's reason (wrong current password) is shown, and nothing claims success.
    await expect.poll(() => password.getByRole('alert').textContent()).toMatch(/current password/i);
    expect(await password.getByRole('status').count()).toBe(0);

    await password.getByLabel('Current password').fill(account.password);
    await password.getByLabel('New password').fill('Trailer#2027');
    await password.getByRole('button', { name: 'Update password' }).click();
    await expect.poll(() => password.getByRole('status').textContent()).toBe('Password updated.');
    expect(await password.getByLabel('Current password').inputValue()).toBe('');

    // Logout from the profile's own button, then try both passwords.
    await account_.getByRole('button', { name: 'Logout' }).click();
    await atPath(page, '/login');
    await signInWithForm(page, newEmail, account.password);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid credentials');
    await signInWithForm(page, newEmail, 'Trailer#2027');
    await atPath(page, '/movies');
    await expect(signIn(server.url, newEmail, 'Trailer#2027')).resolves.toMatchObject({
      user: { name: 'Paula Profile' },
    });
    expect(pageErrors).toEqual([]);
    await close();
  });

  it('wraps the admin header on a 360 px phone without sideways scrolling', async () => {
    const admin = await signIn(server.url, server.admin.email, server.admin.password);
    const { page, close } = await openPage(browser, server.url, PHONE);
    await useAccount(page, admin);
    await page.goto('/profile');
    const header = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Movies', 'My Tickets', 'Profile', 'Admin', 'Manage', 'Scan'])
      await expect.poll(() => header.getByRole('link', { name }).isVisible()).toBe(true);
    expect(await header.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoAxeViolations(page);
    await screenshot(page, 'header-admin-phone');
    await close();
  });

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`passes axe and fits the screen on /login, /register and /profile (${label}, ${viewport.width} px)`, async () => {
      const account = await registerUser(server.url);
      const { page, close } = await openPage(browser, server.url, viewport);
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

      for (const screen of ['/login', '/register']) {
        await page.goto(screen);
        await page.getByRole('heading', { level: 1 }).waitFor();
        // The built-in test checkout is on: every page says so, visitors' pages too.
        await page.getByText('Test mode: no real payments').waitFor();
        await expectNoAxeViolations(page);
        expect(await fits(), `${screen} scrolls sideways`).toBe(true);
        await screenshot(page, `${screen.slice(1)}-${label}`);
      }
      // The register form with an error showing, as a user sees it after a refusal.
      await page.getByLabel('Name').fill('Axe');
      await page.getByLabel('Email').fill(account.user.email);
      await page.getByLabel('Password', { exact: true }).fill('weak');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('alert').waitFor();
      await expectNoAxeViolations(page);

      await useAccount(page, account);
      await page.goto('/profile');
      await page.getByRole('form', { name: 'Account' }).waitFor();
      await expectNoAxeViolations(page);
      expect(await fits(), '/profile scrolls sideways').toBe(true);
      await screenshot(page, `profile-${label}`);
      await close();
    });
  }
});
