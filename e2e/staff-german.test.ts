import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  followRequests,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { buyTickets, scheduleShowtime, type ScheduledShowtime } from './support/flows.ts';
import { apiAs, signIn, type Account, type RunningServer, startServer } from './support/server.ts';

reportSkippedWithoutChromium('e2e/staff-german.test.ts (the staff screens in German)');

const PHONE_390 = { width: 390, height: 844 } as const;

// The staff screens' catalogue in English and German (the shared `common` one is checked by its own screens' tests).
const locales = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/locales');
type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[prefix + key, value]] : flatten(value, `${prefix}${key}.`),
  );
const catalogue = (language: string, namespace: string) =>
  new Map(
    flatten(JSON.parse(readFileSync(path.join(locales, language, `${namespace}.json`), 'utf8')) as Tree).map(
      ([key, text]) => [`${namespace}:${key}`, text],
    ),
  );

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Each English text of the staff screens that German says differently, as a pattern a whole shown text must match:
 * {{values}} match any text, <tags> of rich texts are dropped. Texts with fewer than four letters of their own (a
 * "{{type}}, {{seat}}", an "NR") say too little to tell a leftover from a value; a text the shared catalogue has as
 * well ("Held" in the seat legend) would be the shared component's leftover, not the staff screen's.
 */
function englishLeftoverPatterns(): { key: string; english: string; pattern: RegExp }[] {
  const patterns: { key: string; english: string; pattern: RegExp }[] = [];
  const shared = new Set(catalogue('en', 'common').values());
  const english = catalogue('en', 'admin');
  const german = catalogue('de', 'admin');
  for (const [key, text] of english) {
    if (german.get(key) === text || shared.has(text)) continue;
    const plain = collapse(text.replace(/<\/?\w+>/g, ''));
    if (plain.replace(/\{\{\w+\}\}/g, '').replace(/[^\p{L}]/gu, '').length < 4) continue;
    const source = plain
      .split(/\{\{\w+\}\}/)
      .map(escape)
      .join('.+?');
    patterns.push({ key, english: text, pattern: new RegExp(`^${source}$`, 'su') });
  }
  return patterns;
}

/**
 * Every text a staff screen (the main region, and the tab's title) shows or says: each text node, the whole text of
 * each element with little markup inside (a sentence with a bold word or a hidden ending), labels, placeholders, alt
 * texts. The seat map's legend is the customers' seat map's, shared: its texts are its own catalogue's.
 */
const shownTexts = (page: Page) =>
  page.evaluate(() => {
    const texts = new Set<string>();
    const add = (text: string | null | undefined) => {
      const t = (text ?? '').replace(/\s+/g, ' ').trim();
      if (t) texts.add(t);
    };
    for (const el of Array.from(document.querySelectorAll('main, main *'))) {
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)) continue;
      if (el.closest('[data-testid="seat-legend"]')) continue;
      if (el.querySelectorAll('*').length <= 3) add(el.textContent);
      for (const node of Array.from(el.childNodes))
        if (node.nodeType === Node.TEXT_NODE) add(node.textContent);
      for (const name of ['aria-label', 'placeholder', 'title', 'alt', 'aria-roledescription'])
        add(el.getAttribute(name));
    }
    add(document.title.replace(/ · Cinema$/, ''));
    return [...texts];
  });

/** What of the English catalogues a page still shows: "admin:pricing.title = Pricing (seen: Pricing)". */
async function englishLeftovers(page: Page, patterns: ReturnType<typeof englishLeftoverPatterns>) {
  const found: string[] = [];
  for (const text of await shownTexts(page)) {
    const hit = patterns.find((p) => p.pattern.test(text));
    if (hit) found.push(`${hit.key} = ${hit.english} (seen: ${text.slice(0, 120)})`);
  }
  return found;
}

describe.skipIf(!hasChromium)('the staff screens in German', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  let show: ScheduledShowtime;
  let hallId: string;
  const pages = signedInPages();
  const patterns = englishLeftoverPatterns();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    show = await scheduleShowtime(server, { title: 'Der Himmel über Berlin', hoursFromNow: 30 });
    await buyTickets(server, show.showtimeId, 2);
    hallId = (await apiAs(server.url, admin.token).get<{ id: string }[]>('/admin/rooms'))[0]!.id;
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  it('finds an English text when the page shows one (the check itself)', () => {
    const match = (text: string) => patterns.find((p) => p.pattern.test(text))?.key;
    expect(match('Sales reports')).toMatch(/^admin:.*reports/);
    expect(match('Delete Der Himmel über Berlin')).toBe('admin:movies.deleteNamed');
    expect(match('Verkaufsberichte')).toBeUndefined();
  });

  it('shows the server’s validation text of a staff form in German', async () => {
    const { page, pageErrors } = await pages.open(browser, server.url, admin, DESKTOP);
    await page.evaluate(() => localStorage.setItem('cinema.lang', 'de'));
    await page.goto('/admin');
    // A title the browser lets through and the server refuses (a text-direction override inside it).
    const form = page.getByRole('form', { name: 'Film hinzufügen' });
    await form.getByLabel('Titel').fill('Film\u202Eexe.mp4');
    await form.getByRole('button', { name: 'Film hinzufügen' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'title: Der Titel darf keine Zeichen zur Umkehr der Schreibrichtung enthalten',
    );
    expect(pageErrors).toEqual([]);
  });

  /** The day of the showtime and the days around it: the report's span that holds its sales. */
  const reportSpan = () => {
    const day = (offset: number) =>
      new Date(Date.parse(show.startsAt) + offset * 86_400_000).toISOString().slice(0, 10);
    return `from=${day(-1)}&to=${day(1)}&groupBy=movie`;
  };

  /** The screens, each with what shows it is ready (its data in, not just its frame). */
  const screens = (): { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] => [
    {
      name: 'admin',
      path: '/admin',
      ready: (p) => p.getByRole('list', { name: 'Filme' }).waitFor(),
    },
    {
      name: 'box-office',
      path: '/admin/box-office',
      ready: async (p) => {
        const option = p.getByRole('option', { name: /Der Himmel über Berlin/ });
        await option.waitFor({ state: 'attached' });
        await p
          .getByRole('combobox', { name: 'Vorstellung' })
          .selectOption({ label: (await option.textContent())! });
        const free = p.getByRole('group', { name: 'Plätze für Der Himmel über Berlin' });
        await free.locator('[data-status="AVAILABLE"]').first().click();
        await p.getByRole('button', { name: /^1 Ticket verkaufen/ }).waitFor();
      },
    },
    {
      name: 'gift-cards',
      path: '/admin/gift-cards',
      ready: (p) => p.getByTestId('gift-card-liability').waitFor(),
    },
    {
      name: 'kitchen',
      path: '/admin/kitchen',
      ready: (p) => p.getByText('Live: bezahlte Bestellungen erscheinen hier sofort.').waitFor(),
    },
    {
      name: 'orders',
      path: '/admin/orders',
      ready: (p) => p.getByRole('list', { name: 'Neueste Bestellungen' }).waitFor(),
    },
    {
      name: 'order',
      path: '/admin/orders',
      ready: async (p) => {
        await p.getByRole('list', { name: 'Neueste Bestellungen' }).getByRole('link').first().click();
        await p.getByRole('heading', { name: 'Tickets' }).waitFor();
      },
    },
    {
      name: 'reports',
      path: `/admin/reports?${reportSpan()}`,
      ready: (p) => p.getByRole('table', { name: /^Verkäufe nach Film/ }).waitFor(),
    },
    {
      name: 'film-hire',
      path: '/admin/reports/film-hire',
      ready: (p) => p.getByRole('heading', { name: 'Einspielergebnisse' }).waitFor(),
    },
    {
      name: 'distributors',
      path: '/admin/distributors',
      ready: (p) =>
        p.getByRole('list', { name: 'Bedingungen je Film' }).getByRole('listitem').first().waitFor(),
    },
    {
      name: 'pricing',
      path: '/admin/pricing',
      ready: (p) => p.getByRole('heading', { name: 'Ticketarten' }).waitFor(),
    },
    {
      name: 'promo-codes',
      path: '/admin/promo-codes',
      ready: (p) => p.getByRole('heading', { name: 'Codes', exact: true }).waitFor(),
    },
    {
      name: 'users',
      path: '/admin/users',
      ready: (p) => p.getByRole('table').waitFor(),
    },
    {
      name: 'showtimes',
      path: '/admin/showtimes',
      ready: (p) => p.getByRole('button', { name: 'Heute' }).waitFor(),
    },
    {
      name: 'week',
      path: '/admin/week',
      ready: (p) => p.getByRole('list', { name: 'Wochentage' }).waitFor(),
    },
    {
      name: 'halls',
      path: '/admin/halls',
      ready: (p) => p.getByRole('table').waitFor(),
    },
    {
      name: 'hall-editor',
      path: `/admin/halls/${hallId}`,
      ready: (p) => p.getByRole('group', { name: 'Vorschau des Sitzplans' }).waitFor(),
    },
    {
      name: 'audit',
      path: '/admin/audit',
      ready: (p) => p.getByRole('list', { name: 'Einträge, neueste zuerst' }).waitFor(),
    },
    {
      name: 'outbox',
      path: '/admin/outbox',
      ready: (p) => p.getByRole('heading', { level: 1, name: 'Postausgang' }).waitFor(),
    },
    {
      name: 'scanner',
      path: '/admin/scan',
      ready: (p) => p.getByRole('link', { name: /Der Himmel über Berlin/ }).waitFor(),
    },
    {
      name: 'door',
      path: `/admin/scan?showtime=${show.showtimeId}`,
      ready: (p) => p.getByTestId('count-sold').filter({ hasText: '2' }).waitFor(),
    },
  ];

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE_390],
  ] as const) {
    it(`shows no English on the staff screens at ${viewport.width}×${viewport.height}, and axe finds nothing`, async () => {
      const { page, pageErrors } = await pages.open(browser, server.url, admin, viewport);
      const requests = followRequests(page);
      // The language chosen in the header is remembered here; the browser's own stays English.
      await page.evaluate(() => localStorage.setItem('cinema.lang', 'de'));
      const leftovers: string[] = [];
      for (const screen of screens()) {
        await page.goto(screen.path);
        await screen.ready(page);
        // Lazy texts (a chunk, a query) settle before the page is read.
        await requests.settled();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
        leftovers.push(...(await englishLeftovers(page, patterns)).map((l) => `${screen.path}: ${l}`));
        await expectNoAxeViolations(page);
        await screenshot(page, `staff-german-${size}-${screen.name}`);
      }
      expect(leftovers).toEqual([]);
      expect(pageErrors).toEqual([]);
    }, 180_000);
  }
});
