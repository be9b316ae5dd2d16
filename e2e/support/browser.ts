import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { expect } from 'vitest';
import type { Account } from './server.ts';

/**
 * Debian's Chromium (never a downloaded one): its headless shell (package chromium-headless-shell, the same Chromium
 * build without the browser's windowing layer) when installed, else the browser itself; CHROMIUM_PATH points
 * elsewhere. The shell runs the same pages on about a third less CPU (decision 058).
 */
export const chromiumPath =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ||
  '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

/** DESIGN §4: the flags that make Chromium quiet and reliable in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

/** Says once, plainly, that a browser test file did not run. Call it at the top of every browser test file. */
export function reportSkippedWithoutChromium(what: string) {
  if (!hasChromium)
    console.warn(
      `SKIPPED: ${what}: Chromium not found at ${chromiumPath} (set CHROMIUM_PATH or install chromium-headless-shell or chromium).`,
    );
}

/** One launched Chromium of this worker and the views of it open now (one per test file using it). */
interface SharedChromium {
  launched: Promise<Browser>;
  views: Set<BrowserView>;
}

interface BrowserView {
  /** The test file that asked for it. */
  file: string | undefined;
  close(): Promise<void>;
}

const chromiums = new Map<string, SharedChromium>();

/**
 * Chromium for a test file; `extraArgs` adds flags such as a fake camera. The e2e project runs its files one after
 * another in a worker's module state (`isolate: false`), and a launch and close of Chromium costs about 0.4 s of CPU:
 * the files share one Chromium per worker. Each file gets its own view of it, whose `newContext`/`newPage` open
 * contexts of its own (playwright's contexts share no cookies or storage) and whose `close()` closes only those.
 * The plain Chromium stays up for the next file (it is killed with the worker); one with extra flags (a fake camera
 * playing a test's own video) is closed with its last view. One that crashed is launched again.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const key = JSON.stringify(extraArgs);
  // What an earlier file left open (it never reached its afterAll, say) is closed before this file starts.
  const file = currentTestFile();
  const views = chromiums.get(key)?.views ?? [];
  for (const view of views) if (view.file !== file) await view.close();
  let shared = chromiums.get(key);
  let browser = await shared?.launched.catch(() => undefined);
  if (!shared || !browser?.isConnected()) {
    const launched = chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
    });
    const entry: SharedChromium = { launched, views: new Set() };
    const forget = () => {
      if (chromiums.get(key) === entry) chromiums.delete(key);
    };
    chromiums.set(key, entry);
    shared = entry;
    try {
      browser = await launched;
    } catch (err) {
      forget();
      throw err;
    }
    browser.on('disconnected', forget);
  }
  return browserView(browser, shared, file, extraArgs.length === 0);
}

function currentTestFile(): string | undefined {
  try {
    return expect.getState().testPath;
  } catch {
    return undefined; // a script run outside vitest
  }
}

/** A view of a shared Chromium that knows the contexts it opened and closes only those. */
function browserView(
  browser: Browser,
  shared: SharedChromium,
  file: string | undefined,
  keep: boolean,
): Browser {
  const opened = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    opened.add(context);
    context.once('close', () => opened.delete(context));
    return context;
  };
  const view: BrowserView = {
    file,
    close: async () => {
      if (!shared.views.delete(view)) return;
      await Promise.all([...opened].map((c) => c.close().catch(() => undefined)));
      if (shared.views.size === 0 && !keep) await browser.close();
    },
  };
  shared.views.add(view);
  const own: Partial<Browser> = {
    newContext: async (options) => track(await browser.newContext(options)),
    newPage: async (options) => {
      const page = await browser.newPage(options);
      track(page.context());
      return page;
    },
    contexts: () => [...opened],
    close: view.close,
  };
  return new Proxy(browser, {
    get(target, prop) {
      if (Object.hasOwn(own, prop)) return own[prop as keyof Browser];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Closes every Chromium this process launched (a script's last step: a test worker's die with it). */
export async function closeBrowsers(): Promise<void> {
  const all = [...chromiums.values()];
  chromiums.clear();
  await Promise.all(all.map(async (c) => (await c.launched.catch(() => undefined))?.close()));
}

export const PHONE = { width: 360, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
/** The narrow phone every new screen must work on (DESIGN §6). */
export const PHONE_390 = { width: 390, height: 844 } as const;

/** Whether the page is wider than the viewport (a phone would scroll it sideways). */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions thrown in the page: a test may assert there were none. */
  pageErrors: Error[];
  close(): Promise<void>;
}

/** A fresh context (its own storage: nobody signed in) and page with the app's origin as base URL. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<OpenedPage> {
  const context = await browser.newContext({ baseURL, viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  return { context, page, pageErrors, close: () => context.close() };
}

/**
 * The pages a test file opens, each in its own context signed in as someone (openPage, then useAccount);
 * `closeAll()` in afterAll closes them.
 */
export function signedInPages() {
  const opened: OpenedPage[] = [];
  return {
    async open(
      browser: Browser,
      baseURL: string,
      account: Pick<Account, 'token' | 'user'>,
      viewport?: { width: number; height: number },
    ): Promise<OpenedPage> {
      const o = await openPage(browser, baseURL, viewport);
      opened.push(o);
      await useAccount(o.page, account);
      return o;
    },
    async closeAll() {
      for (const o of opened.splice(0)) await o.close().catch(() => undefined);
    },
  };
}

/**
 * Follows a page's requests from now on; `settled()` waits until none has been under way for `quietMs`, as
 * Playwright's `networkidle` does, but with a shorter quiet window than its fixed 500 ms (a screen's lazy texts and
 * queries follow each other within milliseconds). Call it right after the page is made, before any navigation, so
 * that no request is missed. Fails, naming what is still loading, when the page never settles.
 */
export function followRequests(page: Page, quietMs = 150) {
  const underWay = new Set<Request>();
  let lastChange = performance.now();
  page.on('request', (r) => {
    underWay.add(r);
    lastChange = performance.now();
  });
  const ended = (r: Request) => {
    underWay.delete(r);
    lastChange = performance.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async settled(timeoutMs = 15_000): Promise<void> {
      const deadline = performance.now() + timeoutMs;
      while (underWay.size > 0 || performance.now() - lastChange < quietMs) {
        if (performance.now() > deadline)
          throw new Error(
            `The page did not settle in ${timeoutMs} ms; still loading: ${[...underWay].map((r) => r.url()).join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

/** Records what a page loads and logs (responses, failed requests, console messages) for a failure message. */
export function recordTraffic(page: Page): () => string {
  const events: string[] = [];
  const at = () => new Date().toISOString().slice(11, 23);
  page.on('response', (r) => events.push(`${at()} ${r.status()} ${r.request().method()} ${r.url()}`));
  page.on('requestfailed', (r) =>
    events.push(`${at()} failed ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? ''}`),
  );
  page.on('console', (m) => events.push(`${at()} console.${m.type()}: ${m.text()}`));
  return () => events.join('\n');
}

/** A `.catch` for a wait that rarely times out for reasons not known yet: the error says what the page showed and
 * what it loaded (from `recordTraffic`). */
export function explainTimeout(page: Page, traffic: () => string) {
  return async (err: Error): Promise<never> => {
    const shown = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch(() => '(nothing readable)');
    throw new Error(`${err.message}\nThe page at ${page.url()} showed:\n${shown}\nIt loaded:\n${traffic()}`);
  };
}

/** Puts a session into the page's storage (as a login would) so a test can start signed in. */
export async function useAccount(page: Page, account: Pick<Account, 'token' | 'user'>) {
  if (page.url() === 'about:blank') await page.goto('/login');
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('mm_token', token);
    localStorage.setItem('mm_user', JSON.stringify(user));
  }, account);
}

/** Runs axe-core in the page and fails on any serious or critical violation, naming the rule and elements. */
export async function expectNoAxeViolations(page: Page) {
  // Colours caught mid-transition (a button turning enabled) would be measured wrongly: let animations finish first.
  // Endless ones (a pulsing seat, a spinner) are left alone, and no page waits more than two seconds.
  await page.evaluate(() => {
    const finite = document
      .getAnimations()
      .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    return Promise.race([
      Promise.all(finite.map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]);
  });
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol, so the page's content security policy need not allow inline scripts.
  if (!loaded) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      // Every rule still runs and every violating node is reported; the passes and incomplete results, which this
      // check never reads, keep one node each instead of a selector built for every node of the page (about a fifth
      // of Chromium's CPU in the browser tests).
      resultTypes: ['violations'],
    }),
  );
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.slice(0, 300)),
    }));
  expect(serious, `axe violations on ${page.url()}`).toEqual([]);
}

/** Saves a full-page PNG under e2e/.artifacts/<name>.png (or `file` when given) and returns its path. */
export async function screenshot(page: Page, name: string, file?: string): Promise<string> {
  const target = file ?? path.join(artifacts, `${name}.png`);
  await mkdir(path.dirname(target), { recursive: true });
  await page.screenshot({ path: target, fullPage: true });
  return target;
}
