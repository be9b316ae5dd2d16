import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../apps/server/src/modules/demo/png.ts';
import { freePort } from '../apps/server/src/test/server-process.ts';
import {
  hasChromium,
  launchBrowser,
  openPage,
  reportSkippedWithoutChromium,
  screenshot,
  type OpenedPage,
} from './support/browser.ts';
import { apiAs, registerUser, signIn, startServer, type RunningServer } from './support/server.ts';
import { scheduleShowtime } from './support/flows.ts';

reportSkippedWithoutChromium(
  'e2e/third-party-client.test.ts (a client page on another origin: CORS, sockets, posters, redirects)',
);

// DESIGN §6.1: a client on another origin uses the API (CORS_ORIGINS), gets live updates through Socket.IO, shows
// posters, pays on the hosted checkout and comes back to its own success page (CLIENT_URL).

// The browser build the package ships (its "exports" do not list it, so it is found beside the package's entry).
const socketIoClient = readFileSync(
  path.join(
    path.dirname(createRequire(import.meta.url).resolve('socket.io-client')),
    '../../dist/socket.io.min.js',
  ),
  'utf8',
);

/** A partner's site: an empty page at every path, and the Socket.IO client script. */
function startPartner(port: number): Promise<Server> {
  const site = createServer((req, res) => {
    if (req.url === '/socket.io.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(socketIoClient);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Partner cinema site</title><h1>Partner</h1>');
  });
  return new Promise((resolve) => site.listen(port, '127.0.0.1', () => resolve(site)));
}

describe.skipIf(!hasChromium)('a client page on a second origin', () => {
  let server: RunningServer;
  let partner: Server;
  let partnerUrl: string;
  let browser: Browser;
  let showtimeId: string;
  let opened: OpenedPage;

  beforeAll(async () => {
    const port = await freePort();
    partnerUrl = `http://127.0.0.1:${port}`;
    [server, partner, browser] = await Promise.all([
      startServer({ CORS_ORIGINS: partnerUrl, CLIENT_URL: partnerUrl }),
      startPartner(port),
      launchBrowser(),
    ]);
    ({ showtimeId } = await scheduleShowtime(server, {
      title: 'Shared Screen',
      hall: { name: 'Partner Hall', rows: 3, cols: 6 },
    }));
    const admin = await signIn(server.url, server.admin.email, server.admin.password);
    const form = new FormData();
    form.set('title', 'Poster Across Origins');
    form.set(
      'poster',
      new Blob([new Uint8Array(encodePng(300, 450, new Uint8Array(300 * 450 * 3).fill(150)))], {
        type: 'image/png',
      }),
      'p.png',
    );
    await apiAs(server.url, admin.token).post('/admin/movies', form);
    opened = await openPage(browser, partnerUrl);
  });
  afterAll(async () => {
    await opened?.close();
    await browser?.close();
    partner?.close();
    await server?.stop();
  });

  it('lists movies with their posters, signs in, holds with a live update, pays and comes back to its own page', async () => {
    const customer = await registerUser(server.url, { name: 'Partner Customer' });
    const { page, pageErrors } = opened;
    await page.goto('/');
    await page.addScriptTag({ url: '/socket.io.min.js' });

    const api = server.url;
    const step = await page.evaluate(
      async ({ api, showtimeId, email, password }) => {
        const call = async (path: string, init: RequestInit = {}, token?: string) => {
          const res = await fetch(`${api}/api${path}`, {
            ...init,
            headers: {
              ...(init.body ? { 'content-type': 'application/json' } : {}),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          });
          return { status: res.status, body: await res.json() };
        };
        const movies = (await call('/movies')).body as {
          title: string;
          posterUrl: string | null;
          posterSrcSet: string | null;
        }[];
        const withPoster = movies.find((m) => m.posterUrl)!;
        const img = document.createElement('img');
        img.srcset = withPoster.posterSrcSet!;
        img.sizes = '160px';
        img.src = withPoster.posterUrl!;
        document.body.append(img);
        await img.decode();

        const login = await call('/auth/login', {
          method: 'POST',
          body: JSON.stringify({ email, password }),
        });
        const token = login.body.token as string;
        localStorage.setItem('partner_token', token);

        const io = (window as unknown as { io: (url: string, opts: object) => any }).io;
        const socket = io(api, { transports: ['websocket'] });
        const joined = await new Promise((resolve) => socket.emit('join_showtime', showtimeId, resolve));
        const update = new Promise((resolve) => socket.once('seats_update', resolve));

        const map = (await call(`/showtimes/${showtimeId}/seats`)).body as {
          seats: { id: string; status: string }[];
        };
        const seat = map.seats.find((s) => s.status === 'AVAILABLE')!;
        const hold = await call(
          `/showtimes/${showtimeId}/hold`,
          { method: 'POST', body: JSON.stringify({ seatIds: [seat.id] }) },
          token,
        );
        const live = (await Promise.race([update, new Promise((r) => setTimeout(() => r(null), 5000))])) as {
          seats: { id: string; status: string }[];
        } | null;
        const checkout = await call(
          '/pay/checkout',
          { method: 'POST', body: JSON.stringify({ bookingIds: hold.body.bookingIds }) },
          token,
        );
        return {
          titles: movies.map((m) => m.title),
          posterUrl: withPoster.posterUrl,
          posterWidth: img.naturalWidth,
          loginStatus: login.status,
          joined,
          holdStatus: hold.status,
          live: live?.seats,
          seatId: seat.id,
          checkout: checkout.body as { sessionId: string; url: string },
        };
      },
      { api, showtimeId, email: customer.user.email, password: customer.password },
    );

    expect(step.titles).toEqual(expect.arrayContaining(['Shared Screen', 'Poster Across Origins']));
    expect(step.posterUrl).toMatch(new RegExp(`^${server.url}/api/posters/`));
    expect(step.posterWidth).toBeGreaterThan(100);
    expect(step.loginStatus).toBe(200);
    expect(step.joined).toEqual({ ok: true });
    expect(step.holdStatus).toBe(201);
    expect(step.live).toEqual([{ id: step.seatId, status: 'HELD' }]);
    expect(step.checkout.url).toBe(`${server.url}/api/pay/local/${step.checkout.sessionId}`);

    // The hosted checkout is ours; paying there brings the customer back to the partner's own success page.
    await page.goto(step.checkout.url);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${partnerUrl}/checkout/success?session_id=${step.checkout.sessionId}`);
    const lookup = await page.evaluate(
      async ({ api, sessionId }) => {
        const res = await fetch(`${api}/api/pay/lookup?session_id=${sessionId}`, {
          headers: { authorization: `Bearer ${localStorage.getItem('partner_token')}` },
        });
        return res.json();
      },
      { api, sessionId: step.checkout.sessionId },
    );
    expect(lookup).toMatchObject({ status: 'paid', testMode: true, tickets: [{ seat: expect.any(Object) }] });
    await screenshot(page, 'third-party-success');
    expect(pageErrors).toEqual([]);
  });

  it('keeps another origin out: its requests are refused by the browser', async () => {
    const stranger = await openPage(browser, server.url);
    try {
      // Our own origin, asked to read the API from a third origin's page, would need CORS: a data: page has none.
      await stranger.page.goto('data:text/html,<title>elsewhere</title>');
      const outcome = await stranger.page.evaluate(async (api) => {
        try {
          await fetch(`${api}/api/movies`);
          return 'read';
        } catch {
          return 'blocked';
        }
      }, server.url);
      expect(outcome).toBe('blocked');
    } finally {
      await stranger.close();
    }
  });
});
