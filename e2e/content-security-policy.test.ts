import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  explainTimeout,
  hasChromium,
  launchBrowser,
  openPage,
  recordTraffic,
  reportSkippedWithoutChromium,
  useAccount,
} from './support/browser.ts';
import { hasFfmpeg, qrCameraVideo } from './support/fake-camera.ts';
import { buyTickets, scheduleShowtime } from './support/flows.ts';
import {
  apiAs,
  registerUser,
  signIn,
  startServer,
  type Account,
  type RunningServer,
} from './support/server.ts';

reportSkippedWithoutChromium('content security policy browser tests');

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/** Records every CSP violation the page reports, from the first script on (Playwright's init scripts bypass CSP). */
async function watchViolations(context: BrowserContext) {
  await context.addInitScript(() => {
    const store: unknown[] = [];
    (window as unknown as { __cspViolations: unknown[] }).__cspViolations = store;
    document.addEventListener('securitypolicyviolation', (e) =>
      store.push({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      }),
    );
  });
}

/** CSP violations seen in the page and its console so far. */
async function violationsIn(page: Page, consoleErrors: string[]): Promise<(Violation | string)[]> {
  const reported = await page.evaluate(
    () => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? [],
  );
  return [...reported, ...consoleErrors.filter((m) => /Content Security Policy/i.test(m))];
}

function collectConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(m.text());
  });
  return messages;
}

describe.skipIf(!hasChromium)('the app under its content security policy, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let customer: Account;
  let show: Awaited<ReturnType<typeof scheduleShowtime>>;

  beforeAll(async () => {
    server = await startServer();
    show = await scheduleShowtime(server, { title: 'Policy Picture' });
    customer = await registerUser(server.url, { name: 'Cora Csp' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('loads /login, /movies and a seat map (with its live socket) without a single violation', async () => {
    const { context, page, pageErrors, close } = await openPage(browser, server.url);
    await watchViolations(context);
    const consoleErrors = collectConsole(page);
    try {
      await page.goto('/login');
      await page
        .getByRole('button', { name: /sign in|login/i })
        .first()
        .waitFor();
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
        'rgba(0, 0, 0, 0)',
      );
      expect(await violationsIn(page, consoleErrors)).toEqual([]);

      await useAccount(page, customer);
      await page.goto('/movies');
      await page.getByText(show.movieTitle).first().waitFor();
      // Posters and other images come from our own origin.
      expect(await violationsIn(page, consoleErrors)).toEqual([]);

      await page.goto(`/showtimes/${show.showtimeId}/seats`);
      await page.locator('[data-seat-id]').first().waitFor();
      // A hold by someone else arrives over the socket (connect-src) and repaints the map.
      const other = await registerUser(server.url, { name: 'Olga Other' });
      const map = await apiAs(server.url, other.token).get<{ seats: { id: string; type?: string }[] }>(
        `/showtimes/${show.showtimeId}/seats`,
      );
      // Seats sold on their own (the demo hall's back row is sofas, sold in pairs). The map joins the showtime's
      // socket room after its first read: a hold made before the join reaches it only on its next read, so another
      // seat is held if the first did not show (on a busy machine the join can come seconds after the map).
      const standard = map.seats.filter((s) => s.type === 'STANDARD');
      let repainted = false;
      for (let attempt = 1; attempt <= 3 && !repainted; attempt++) {
        const seatId = standard.at(-attempt)!.id;
        await apiAs(server.url, other.token).post(`/showtimes/${show.showtimeId}/hold`, {
          seatIds: [seatId],
        });
        repainted = await page
          .locator(`[data-seat-id="${seatId}"][data-status="HELD"]`)
          .waitFor({ timeout: 5_000 })
          .then(() => true)
          .catch(() => false);
      }
      expect(repainted).toBe(true);
      expect(await violationsIn(page, consoleErrors)).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the hosted local checkout page styled, under its own hashed policy', async () => {
    const api = apiAs(server.url, customer.token);
    const map = await api.get<{ seats: { id: string; status: string }[] }>(
      `/showtimes/${show.showtimeId}/seats`,
    );
    const seat = map.seats.find((s) => s.status === 'AVAILABLE')!;
    const hold = await api.post<{ bookingIds: string[] }>(`/showtimes/${show.showtimeId}/hold`, {
      seatIds: [seat.id],
    });
    const checkout = await api.post<{ url: string }>('/pay/checkout', { bookingIds: hold.bookingIds });
    const { context, page, close } = await openPage(browser, server.url);
    await watchViolations(context);
    const consoleErrors = collectConsole(page);
    try {
      await page.goto(new URL(checkout.url).pathname);
      await page.getByRole('button', { name: 'Pay' }).waitFor();
      // Its inline stylesheet applied: the page background and the green Pay button.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
        'rgb(238, 240, 244)',
      );
      expect(
        await page.getByRole('button', { name: 'Pay' }).evaluate((b) => getComputedStyle(b).backgroundColor),
      ).toBe('rgb(15, 110, 58)');
      // Its inline script ran: times are shown in the viewer's zone, not as the UTC fallback.
      expect(await page.locator('time[data-local]').first().textContent()).not.toContain('UTC');
      expect(await violationsIn(page, consoleErrors)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('renders Swagger UI at /api/docs under its own policy', async () => {
    const { context, page, close } = await openPage(browser, server.url);
    await watchViolations(context);
    const consoleErrors = collectConsole(page);
    try {
      await page.goto('/api/docs');
      await page.locator('.swagger-ui .opblock').first().waitFor({ timeout: 20_000 });
      expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(10);
      expect(await violationsIn(page, consoleErrors)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('lets the app be framed by no one', async () => {
    const res = await fetch(`${server.url}/login`);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('wasm-unsafe-eval');
  });
});

describe.skipIf(!hasChromium || !hasFfmpeg)('the door scanner under its policy', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("decodes a QR code with WebAssembly on /admin/scan ('wasm-unsafe-eval' there only), no violations", async () => {
    // Starting within the hour in a hall of its own: its entry window is open, so the door admits the ticket.
    const show = await scheduleShowtime(server, {
      title: 'Scanned Under Policy',
      hoursFromNow: 0,
      hall: { name: 'Policy hall', rows: 2, cols: 4 },
    });
    const bought = await buyTickets(server, show.showtimeId, 1);
    const admin = await signIn(server.url, server.admin.email, server.admin.password);
    const video = await qrCameraVideo(bought.bookingIds[0]!);
    const browser = await launchBrowser([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    try {
      const { context, page, pageErrors } = await openPage(browser, server.url);
      await watchViolations(context);
      const consoleErrors = collectConsole(page);
      await useAccount(page, admin);
      // Arriving from another page through the header link: a full page load, so the scanner's policy applies.
      await page.goto('/admin/showtimes');
      // Waiting for the heading timed out once in about twenty runs of the browser tests (2026-11-21) and never when
      // repeated: the cause is not known yet, so a failure reports what the page showed and what it loaded.
      const traffic = recordTraffic(page);
      await page.getByRole('link', { name: 'Scan' }).click();
      await page.waitForURL('**/admin/scan');
      await page
        .getByRole('heading', { name: 'Scan Tickets' })
        .waitFor()
        .catch(explainTimeout(page, traffic));
      // The door first names the showtime being admitted (a client-side step: the scanner's page load stays).
      await page.getByRole('link', { name: /Scanned Under Policy/ }).click();
      await expect
        .poll(() => page.getByTestId('scan-result').textContent(), { timeout: 20_000 })
        .toContain('VALID ✅');
      expect(await violationsIn(page, consoleErrors)).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
