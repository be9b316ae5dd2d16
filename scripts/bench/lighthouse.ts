// Lighthouse (mobile, its default: an emulated mid-range phone on a slow 4G line, simulated) on cold loads of
// /login and /movies, driving Debian's Chromium. /movies needs a customer: they sign in through the page first,
// in the same browser profile Lighthouse then audits in.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort } from '../../apps/server/src/test/server-process.ts';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The lowest Lighthouse mobile performance score the first-load routes aim for. */
export const PERFORMANCE_TARGET = 95;

export interface LighthouseAudit {
  route: string;
  /** 0–100, of the run with the median performance score. */
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** The performance score of every run, in order. */
  runs: number[];
}

async function audit(url: string, port: number) {
  const result = await lighthouse(url, {
    port,
    hostname: '127.0.0.1',
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    // Lighthouse's storage reset empties the HTTP cache (a cold load) and clears origin storage of the kinds in
    // `clearStorageTypes`, which by default leaves localStorage alone: the customer stays signed in.
    disableStorageReset: false,
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  // A guard sending the page elsewhere (a lost session) would audit the wrong screen.
  if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
    throw new Error(`Lighthouse on ${url} ended on ${lhr.finalDisplayedUrl}`);
  const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    tbtMs: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
  };
}

/**
 * `runs` audits of `url`; the one with the median performance score, with every run's score. A run that Lighthouse
 * itself could not record (its `runtimeError`, such as NO_NAVSTART on a busy machine) is run again, up to twice.
 */
async function medianAudit(route: string, url: string, port: number, runs: number): Promise<LighthouseAudit> {
  const results = [];
  const again = () => audit(url, port);
  for (let i = 0; i < runs; i++) results.push(await audit(url, port).catch(again).catch(again));
  const median = [...results].sort((a, b) => a.performance - b.performance)[Math.floor(runs / 2)]!;
  return { route, ...median, runs: results.map((r) => r.performance) };
}

/**
 * Audits a visitor's /login and /schedule, then signs `customer` in through the login form and audits /movies and
 * the seat map of the first showtime to come; each audit `runs` times (the median run is reported).
 */
export async function auditFirstLoads(
  baseUrl: string,
  customer: { email: string; password: string },
  { runs = 3, log = (_line: string) => {} } = {},
): Promise<LighthouseAudit[]> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'cinema-lighthouse-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME_PATH,
    headless: true,
    args: [...CHROME_FLAGS, `--remote-debugging-port=${port}`],
    // Lighthouse emulates the phone itself; a viewport of Playwright's would fight it on the audited page.
    viewport: null,
  });
  try {
    const times = `${runs} run${runs > 1 ? 's' : ''}`;
    log(`  /login (${times})`);
    const login = await medianAudit('/login', `${baseUrl}/login`, port, runs);
    log(`  /schedule, a visitor (${times})`);
    const schedule = await medianAudit('/schedule', `${baseUrl}/schedule`, port, runs);
    // The first showtime still to come: its seat map is audited signed in.
    const day = (await (await fetch(`${baseUrl}/api/schedule`)).json()) as { showtimes: { id: string }[] };
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const showtimeId =
      day.showtimes[0]?.id ??
      (
        (await (await fetch(`${baseUrl}/api/schedule?date=${tomorrow}`)).json()) as {
          showtimes: { id: string }[];
        }
      ).showtimes[0]?.id;

    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/movies`);
    await page.close();

    log(`  /movies, signed in (${times})`);
    const movies = await medianAudit('/movies', `${baseUrl}/movies`, port, runs);
    if (!showtimeId) return [login, schedule, movies];
    log(`  /showtimes/:id/seats, signed in (${times})`);
    const seats = await medianAudit(
      '/showtimes/:id/seats',
      `${baseUrl}/showtimes/${showtimeId}/seats`,
      port,
      runs,
    );
    return [login, schedule, movies, seats];
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
