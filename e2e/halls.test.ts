import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  expectNoAxeViolations,
  hasChromium,
  launchBrowser,
  reportSkippedWithoutChromium,
  screenshot,
  signedInPages,
} from './support/browser.ts';
import { scheduleShowtime } from './support/flows.ts';
import {
  apiAs,
  HttpError,
  registerUser,
  signIn,
  startServer,
  type Account,
  type RunningServer,
} from './support/server.ts';

reportSkippedWithoutChromium(
  'e2e/halls.test.ts (layout editor, seat types, single-seat gaps, best available)',
);

/** The width the issue asks a phone to be measured at. */
const PHONE_390 = { width: 390, height: 844 } as const;

/** A seat by the start of its accessible name ("Row C, seat 4") or the whole of it. */
const seat = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}(, |$)`) });
const statusOf = (page: Page, name: string) => seat(page, name).getAttribute('data-status');
const cell = (page: Page, r: number, c: number) => page.locator(`[data-cell="${r}:${c}"]`);
/** The selected seats' names, without the ", selected". */
const selected = (page: Page) =>
  page
    .locator('[data-status="SELECTED"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')!.replace(/, selected$/, '')));
/** True when the page itself scrolls sideways (a box of its own that scrolls, such as the seat grid's, is fine). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

interface LayoutAnswer {
  id: string;
  name: string;
  rows: { label: string; cells: { kind: string; type?: string; blocked?: boolean; pairId?: string }[] }[];
}
const letters: Record<string, string> = {
  STANDARD: 's',
  SOFA: '=',
  WHEELCHAIR: 'w',
  COMPANION: 'c',
  PREMIUM: 'p',
};
/** A layout's rows as text: `s` standard, `=` sofa, `w` wheelchair, `c` companion, `p` premium, `x` blocked, `.` gap. */
const drawn = (layout: LayoutAnswer) =>
  layout.rows.map(
    (row) =>
      `${row.label}:${row.cells.map((c) => (c.kind === 'GAP' ? '.' : c.blocked ? 'x' : letters[c.type!])).join('')}`,
  );

describe.skipIf(!hasChromium)('halls with real layouts in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Account;
  /** A showtime in Hall 1, a demo hall: aisles, premium seats, sofas, wheelchair spaces, house seats. */
  let demoShowtimeId: string;
  /** The showtime the admin schedules in the hall they build. */
  let studioShowtimeId: string;
  const pages = signedInPages();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await signIn(server.url, server.admin.email, server.admin.password);
    ({ showtimeId: demoShowtimeId } = await scheduleShowtime(server, {
      title: 'The Demo Hall',
      hoursFromNow: 50,
    }));
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.stop();
  });

  const pageAs = (account: Account, viewport: { width: number; height: number } = DESKTOP) =>
    pages.open(browser, server.url, account, viewport);

  async function seatMap(account: Account, showtimeId: string, viewport?: { width: number; height: number }) {
    const o = await pageAs(account, viewport);
    await o.page.goto(`/showtimes/${showtimeId}/seats`);
    await o.page.getByRole('group', { name: 'Seats' }).waitFor();
    return o;
  }

  async function hold(page: Page) {
    await page.getByRole('button', { name: 'Hold seats' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Seats held/ })
      .waitFor();
  }

  /** From a seat map with a hold: Checkout, Pay on the test checkout page; resolves with the success page's tickets. */
  async function checkoutAndPay(page: Page) {
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL(/\/api\/pay\/local\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=/);
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor();
    const tickets = page.getByRole('list', { name: 'Tickets' });
    await tickets.getByRole('listitem').first().waitFor();
    return tickets;
  }

  it('lets an admin build a hall with an aisle and a sofa row, by mouse and by keyboard, then a showtime in it', async () => {
    const { page, pageErrors } = await pageAs(admin);
    await page.goto('/admin');
    await page.getByRole('link', { name: 'Halls and layouts' }).click();
    await page.getByRole('heading', { name: 'Halls' }).waitFor();
    // Halls are one click away on Admin, not in the header (which keeps the daily desks).
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Halls' }).count(),
    ).toBe(0);
    // The demo halls, each with its size and a link to its layout.
    await page.getByRole('rowheader', { name: 'Hall 1' }).waitFor();
    expect(await page.getByRole('rowheader').allTextContents()).toEqual(['Hall 1', 'Hall 2', 'Hall 3']);
    expect(await page.getByRole('link', { name: /^Edit layout of Hall \d$/ }).count()).toBe(3);
    await page.getByRole('link', { name: 'New hall' }).click();
    await page.getByRole('heading', { name: 'New hall' }).waitFor();

    await page.getByRole('textbox', { name: 'Name' }).fill('Studio 5');
    await page.getByRole('spinbutton', { name: 'Rows' }).fill('4');
    await page.getByRole('spinbutton', { name: 'Columns' }).fill('9');
    // Enter sets the size; it does not create the hall.
    await page.getByRole('spinbutton', { name: 'Columns' }).press('Enter');
    await expect.poll(() => page.locator('[data-cell]').count()).toBe(36);
    expect(page.url()).toMatch(/\/admin\/halls\/new$/);

    // By mouse: the aisle, dragged down the fifth column.
    await page.getByText('Gap (aisle, stairs)').click();
    const top = (await cell(page, 0, 4).boundingBox())!;
    const bottom = (await cell(page, 3, 4).boundingBox())!;
    await page.mouse.move(top.x + top.width / 2, top.y + top.height / 2);
    await page.mouse.down();
    await page.mouse.move(bottom.x + bottom.width / 2, bottom.y + bottom.height / 2, { steps: 10 });
    await page.mouse.up();
    for (let r = 0; r < 4; r++) expect(await cell(page, r, 4).getAttribute('data-kind')).toBe('GAP');
    expect(await cell(page, 0, 3).getAttribute('data-kind')).toBe('STANDARD');

    // By keyboard: the back row becomes sofas, each side of the aisle; Shift and an arrow paint as they move.
    const sofaTool = page.getByRole('radio', { name: 'Sofa (two seats)' });
    await sofaTool.focus();
    await page.keyboard.press('Space');
    expect(await sofaTool.isChecked()).toBe(true);
    await page.locator('[data-cell][tabindex="0"]').focus();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(await focused()).toBe('Row A, column 5: gap');
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'Home']) await page.keyboard.press(key);
    expect(await focused()).toBe('Row D, column 1: standard seat 1');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    expect(await focused()).toBe('Row D, column 3: sofa seat 3');
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'Enter']) await page.keyboard.press(key);
    for (const key of ['Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowRight'])
      await page.keyboard.press(key);
    expect(await focused()).toBe('Row D, column 9: sofa seat 8');

    // A house seat, blocked by keyboard; the back row named S.
    await page.getByText('Block or unblock').click();
    await page.locator('[data-cell][tabindex="0"]').focus();
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowUp', 'Home', 'Space']) await page.keyboard.press(key);
    expect(await focused()).toBe('Row A, column 1: standard seat 1, blocked');
    await page.getByRole('textbox', { name: 'Label of row 4' }).fill('S');
    expect(await page.getByTestId('layout-summary').textContent()).toBe(
      '32 seats: 8 sofa seats; 1 blocked (not sold online)',
    );

    // The preview is the customer's seat map.
    const preview = page.getByRole('group', { name: 'Preview of the seat map' });
    expect(await preview.getByRole('button', { name: 'Row S, seat 1, sofa seat, available' }).count()).toBe(
      1,
    );
    expect(await preview.getByRole('button', { name: 'Row A, seat 1, not for sale' }).count()).toBe(1);
    expect(
      await preview.getByRole('button', { name: 'Row B, seat 5, available' }).getAttribute('data-col'),
    ).toBe('5');

    await expectNoAxeViolations(page);
    await screenshot(page, 'halls-editor-desktop');
    await page.setViewportSize(PHONE_390);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'halls-editor-phone');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Create hall' }).click();
    await page.waitForURL(/\/admin\/halls\/[0-9a-f-]{36}$/);
    await page.getByRole('status').filter({ hasText: 'Hall created.' }).waitFor();
    const hallId = page.url().split('/').pop()!;
    const saved = await apiAs(server.url, admin.token).get<LayoutAnswer>(`/admin/halls/${hallId}/layout`);
    expect(saved.name).toBe('Studio 5');
    expect(drawn(saved)).toEqual(['A:xsss.ssss', 'B:ssss.ssss', 'C:ssss.ssss', 'S:====.====']);
    // Four whole sofas.
    const pairIds = saved.rows[3]!.cells.flatMap((c) => (c.pairId ? [c.pairId] : []));
    expect(pairIds).toHaveLength(8);
    expect(new Set(pairIds).size).toBe(4);

    // A showtime in it, from the admin dashboard.
    const form = new FormData();
    form.set('title', 'The Studio Picture');
    form.set('durationMinutes', '90');
    const movie = await apiAs(server.url, admin.token).post<{ id: string }>('/admin/movies', form);
    await page.goto('/admin');
    await page.getByRole('combobox', { name: 'Movie' }).selectOption({ label: 'The Studio Picture' });
    await page.getByRole('combobox', { name: 'Hall' }).selectOption({ label: 'Studio 5 (32 seats)' });
    const start = await page.evaluate(() => {
      const d = new Date(Date.now() + 4 * 24 * 3600_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T20:00`;
    });
    await page.getByLabel('Starts at (your local time)').fill(start);
    await page.getByRole('button', { name: 'Add showtime' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Showtime added/ })
      .waitFor();
    const showtimes = await apiAs(server.url, admin.token).get<{ id: string }[]>(
      `/admin/showtimes?movieId=${movie.id}`,
    );
    expect(showtimes).toHaveLength(1);
    studioShowtimeId = showtimes[0]!.id;
    expect(pageErrors).toEqual([]);
  });

  it('sells a sofa whole: one click takes both seats, and half of one is refused', async () => {
    expect(studioShowtimeId).toBeTruthy();
    const customer = await registerUser(server.url, { name: 'Sofa Couple' });
    const { page, pageErrors } = await seatMap(customer, studioShowtimeId);
    // The aisle is space: the first seat after it stands in the sixth column.
    expect(await seat(page, 'Row B, seat 5').getAttribute('data-col')).toBe('5');
    expect(await statusOf(page, 'Row A, seat 1, not for sale')).toBe('BLOCKED');

    // Each click is awaited on screen before the next (on a busy machine a re-render may lag the click).
    const sofa = ['Row S, seat 3, sofa seat', 'Row S, seat 4, sofa seat'];
    await seat(page, 'Row S, seat 3, sofa seat').click();
    await expect.poll(() => selected(page)).toEqual(sofa);
    await seat(page, 'Row S, seat 4, sofa seat').click();
    await expect.poll(() => selected(page)).toEqual([]);
    await seat(page, 'Row S, seat 4, sofa seat').click();
    await expect.poll(() => selected(page)).toEqual(sofa);

    // Half a sofa, asked for over HTTP, is refused.
    const customerApi = apiAs(server.url, customer.token);
    const map = await customerApi.get<{ seats: { id: string; rowLabel: string; number: number }[] }>(
      `/showtimes/${studioShowtimeId}/seats`,
    );
    const s1 = map.seats.find((s) => s.rowLabel === 'S' && s.number === 1)!;
    const half = await customerApi
      .post(`/showtimes/${studioShowtimeId}/hold`, { seatIds: [s1.id] })
      .catch((err: unknown) => err);
    expect(half).toBeInstanceOf(HttpError);
    expect((half as HttpError).status).toBe(409);
    expect((half as HttpError).body).toMatchObject({ code: 'sofa_pair' });

    await hold(page);
    expect(await statusOf(page, 'Row S, seat 3, sofa seat, held by you')).toBe('HELD');
    const tickets = await checkoutAndPay(page);
    const text = await tickets.textContent();
    expect(text).toContain('Row S, Seat 3 · sofa');
    expect(text).toContain('Row S, Seat 4 · sofa');

    // The door's lists say so too.
    const staff = await pageAs(admin);
    await staff.page.goto(`/admin/showtimes/${studioShowtimeId}/booked`);
    await staff.page.getByRole('rowheader', { name: 'Row S, Seat 3 · sofa' }).waitFor();
    await staff.page.goto(`/admin/showtimes/${studioShowtimeId}/tickets`);
    await staff.page.getByRole('heading', { name: 'Row S, Seat 4 · sofa' }).waitFor();
    expect(pageErrors).toEqual([]);
    expect(staff.pageErrors).toEqual([]);
  });

  it('refuses an edit that would move seats sold for a coming showtime, naming and outlining them', async () => {
    expect(studioShowtimeId).toBeTruthy();
    const { page, pageErrors } = await pageAs(admin);
    await page.goto('/admin/halls');
    await page.getByRole('link', { name: 'Edit layout of Studio 5' }).click();
    await page.getByRole('heading', { name: 'Hall layout: Studio 5' }).waitFor();
    // The sofa sold in the test before (Row S, seats 3 and 4) becomes an aisle.
    await page.getByText('Gap (aisle, stairs)').click();
    await cell(page, 3, 2).click();
    await page.getByRole('button', { name: 'Save layout' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'held or sold for a coming showtime' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Row S, seats 3 and 4 are held or sold for a coming showtime/);
    // Where they stood is outlined and says so.
    expect(await cell(page, 3, 2).getAttribute('aria-label')).toBe(
      'Row S, column 3: gap, held or sold for a coming showtime',
    );
    expect(await cell(page, 3, 3).getAttribute('aria-label')).toBe(
      'Row S, column 4: standard seat 3, held or sold for a coming showtime',
    );
    await expectNoAxeViolations(page);
    await screenshot(page, 'halls-editor-seats-at-stake');
    // Nothing changed on the server; undoing puts the sofa back.
    const layout = await apiAs(server.url, admin.token).get<LayoutAnswer>(
      `/admin/halls/${page.url().split('/').pop()}/layout`,
    );
    expect(drawn(layout)[3]).toBe('S:====.====');
    await page.getByRole('button', { name: 'Undo all changes' }).click();
    expect(await cell(page, 3, 2).getAttribute('data-kind')).toBe('SOFA');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('sells a wheelchair space with its companion seat, and explains a companion seat chosen alone', async () => {
    const customer = await registerUser(server.url, { name: 'Wheelchair User' });
    const { page, pageErrors } = await seatMap(customer, demoShowtimeId);
    const holdButton = page.getByRole('button', { name: 'Hold seats' });
    await seat(page, 'Row A, seat 4, companion seat').click();
    await page.getByText('Row A, seat 4 is a companion seat').waitFor();
    expect(await holdButton.isDisabled()).toBe(true);
    await seat(page, 'Row A, seat 3, wheelchair space').click();
    await expect.poll(() => page.getByText('is a companion seat').count()).toBe(0);
    expect(await holdButton.isEnabled()).toBe(true);
    await hold(page);
    const tickets = await checkoutAndPay(page);
    const text = await tickets.textContent();
    expect(text).toContain('Row A, Seat 3 · wheelchair space');
    expect(text).toContain('Row A, Seat 4 · companion');
    expect(pageErrors).toEqual([]);
  });

  it('keeps accessible seats for those who need them until staff release them early (issue 37), at 390 and 1280 px', async () => {
    const { showtimeId } = await scheduleShowtime(server, {
      title: 'The Accessible Release',
      hoursFromNow: 52,
    });
    const customer = await registerUser(server.url, { name: 'Late Booker' });
    const { page, pageErrors } = await seatMap(customer, showtimeId);
    const note = page.getByTestId('accessible-note');
    await note.waitFor();
    expect(await note.textContent()).toMatch(
      /^Wheelchair spaces and companion seats are kept for those who need them until /,
    );
    await seat(page, 'Row A, seat 4, companion seat').click();
    await page.getByText('Row A, seat 4 is a companion seat').waitFor();
    expect(await page.getByRole('button', { name: 'Hold seats' }).isDisabled()).toBe(true);

    // Staff on a phone release them for this showtime, after a confirmation.
    const staff = await pageAs(admin, PHONE_390);
    await staff.page.goto(`/admin/showtimes/${showtimeId}/booked`);
    const panel = staff.page.getByRole('region', { name: 'Wheelchair spaces and companion seats' });
    await panel.getByText(/^Kept for those who need them until /).waitFor();
    await panel.getByRole('button', { name: 'Release them now' }).click();
    await panel.getByText('Put them on sale to everyone now? This cannot be undone.').waitFor();
    await expectNoAxeViolations(staff.page);
    await screenshot(staff.page, 'accessible-release-390');
    await panel.getByRole('button', { name: 'Release now' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: /^Released at / })
      .waitFor();
    await panel.getByText('On sale to everyone now, as standard seats.').waitFor();
    expect(await panel.getByRole('button', { name: 'Release them now' }).count()).toBe(0);
    expect(await scrollsSideways(staff.page)).toBe(false);

    // The customer's map says so, and the companion seat sells alone.
    await page.reload();
    await note.filter({ hasText: 'now on sale to everyone' }).waitFor();
    await seat(page, 'Row A, seat 4, companion seat').click();
    await expect.poll(() => selected(page)).toEqual(['Row A, seat 4, companion seat']);
    expect(await page.getByText('is a companion seat').count()).toBe(0);
    await hold(page);
    expect(await statusOf(page, 'Row A, seat 4, companion seat, held by you')).toBe('HELD');
    await expectNoAxeViolations(page);
    await screenshot(page, 'accessible-release-1280');
    expect(pageErrors).toEqual([]);
    expect(staff.pageErrors).toEqual([]);
  });

  it('explains a choice that would leave a seat alone, and applies the better choice it offers', async () => {
    const customer = await registerUser(server.url, { name: 'Gap Minder' });
    const { page, pageErrors } = await seatMap(customer, demoShowtimeId);
    // C3 stands between the aisle and C4.
    await seat(page, 'Row C, seat 4').click();
    await page.getByText('This choice would leave Row C, seat 3 alone').waitFor();
    // warn: Hold seats still works, as the spec has it.
    expect(await page.getByRole('button', { name: 'Hold seats' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Take Row C, seat 3 instead' }).click();
    expect(await selected(page)).toEqual(['Row C, seat 3']);
    expect(await page.getByText('would leave').count()).toBe(0);
    await hold(page);
    expect(await statusOf(page, 'Row C, seat 3, held by you')).toBe('HELD');
    expect(pageErrors).toEqual([]);
  });

  it('finds N seats side by side with "Find me N seats"', async () => {
    const customer = await registerUser(server.url, { name: 'Group Leader' });
    const { page, pageErrors } = await seatMap(customer, demoShowtimeId);
    await page.getByRole('spinbutton', { name: 'Seats together' }).fill('3');
    await page.getByRole('button', { name: 'Find me 3 seats' }).click();
    await expect.poll(() => page.locator('[data-status="SELECTED"]').count()).toBe(3);
    const found = await page.locator('[data-status="SELECTED"]').evaluateAll((els) =>
      els.map((el) => ({
        row: el.closest('[role="group"]')!.getAttribute('aria-label'),
        col: Number(el.getAttribute('data-col')),
      })),
    );
    expect(new Set(found.map((s) => s.row)).size).toBe(1);
    const cols = found.map((s) => s.col).sort((a, b) => a - b);
    expect(cols).toEqual([cols[0], cols[0]! + 1, cols[0]! + 2]);
    await hold(page);
    await expect.poll(() => page.locator('[data-mine="true"]').count()).toBe(3);

    // More than the hall can seat together: said plainly.
    await page.getByRole('spinbutton', { name: 'Seats together' }).fill('10');
    await page.getByRole('checkbox', { name: 'With a wheelchair space' }).check();
    await page.getByRole('button', { name: 'Find me 10 seats' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'There are no 10 seats together with a wheelchair space left for this showtime.' })
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('draws a demo hall accessibly at 1280 px and at 390 px, without sideways scrolling of the page', async () => {
    const customer = await registerUser(server.url, { name: 'Looker' });
    const desktop = await seatMap(customer, demoShowtimeId);
    const types = desktop.page.getByRole('list', { name: 'Seat types' });
    expect(await types.getByRole('listitem').allTextContents()).toEqual([
      'Premium seat',
      'Sofa for two, sold whole',
      'Wheelchair space',
      'Companion seat, with a wheelchair space',
    ]);
    // A seat not for sale is aria-disabled, so the click is forced; in the middle of the view, clear of the basket bar.
    const houseSeat = seat(desktop.page, 'Row F, seat 5, premium seat, not for sale');
    await houseSeat.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await houseSeat.click({ force: true });
    await desktop.page.getByRole('status').filter({ hasText: 'Seat not for sale online' }).waitFor();
    await seat(desktop.page, 'Row B, seat 6').click();
    await expectNoAxeViolations(desktop.page);
    await screenshot(desktop.page, 'seat-map-layout-desktop');

    const phone = await seatMap(customer, demoShowtimeId, PHONE_390);
    expect(await scrollsSideways(phone.page)).toBe(false);
    await expectNoAxeViolations(phone.page);
    await screenshot(phone.page, 'seat-map-layout-phone');
    expect(desktop.pageErrors).toEqual([]);
    expect(phone.pageErrors).toEqual([]);
  });
});
