// Regenerates docs/screenshot.png from the real app with the demo catalogue:
//   node --import tsx e2e/tools/readme-screenshot.ts [path]
// It shows the seat map of the first showtime when there is one, else the movie list.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBuilt } from '../../scripts/build-web.mjs';
import {
  closeBrowsers,
  DESKTOP,
  launchBrowser,
  openPage,
  screenshot,
  useAccount,
} from '../support/browser.ts';
import { apiAs, registerUser, startServer } from '../support/server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const target = path.resolve(process.argv[2] ?? path.join(root, 'docs/screenshot.png'));

ensureWebBuilt();
const server = await startServer({ SEED_DEMO: '1' });
const browser = await launchBrowser();
try {
  const account = await registerUser(server.url, { name: 'Maya Moviegoer' });
  const movies = await apiAs(server.url, account.token)
    .get<{ id: string }[]>('/movies')
    .catch(() => []);
  let screen = '/movies';
  for (const movie of movies) {
    const showtimes = await apiAs(server.url, account.token)
      .get<{ id: string }[]>(`/movies/${movie.id}/showtimes`)
      .catch(() => []);
    const showtime = showtimes[0];
    if (showtime) {
      screen = `/showtimes/${showtime.id}/seats`;
      // Another customer holds a few seats in the middle so the map shows more than one state.
      const other = await registerUser(server.url, { name: 'Omar Other' });
      const { seats } = await apiAs(server.url, other.token).get<{
        seats: { id: string; row: number; number: number }[];
      }>(`/showtimes/${showtime.id}/seats`);
      const middle = Math.ceil(Math.max(...seats.map((s) => s.row)) / 2);
      const held = seats.filter((s) => s.row === middle && s.number >= 6 && s.number <= 9).map((s) => s.id);
      await apiAs(server.url, other.token)
        .post(`/showtimes/${showtime.id}/hold`, { seatIds: held })
        .catch((err) => console.warn(`Could not hold seats for the picture: ${err}`));
      break;
    }
  }
  const { page, close } = await openPage(browser, server.url, DESKTOP);
  await useAccount(page, account);
  await page.goto(screen, { waitUntil: 'networkidle' });
  // Let posters finish decoding and any entrance transition settle.
  await page.waitForTimeout(500);
  await page.screenshot({ path: target });
  await screenshot(page, 'readme-full');
  await close();
  console.log(`Saved ${screen} to ${path.relative(root, target)}`);
} finally {
  await browser.close();
  await closeBrowsers();
  await server.stop();
}
