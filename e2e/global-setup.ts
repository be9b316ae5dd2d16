import { ensureWebBuilt } from '../scripts/build-web.mjs';
import { hasChromium } from './support/browser.ts';

/** Browser tests run against the built SPA served by the real server: build it first when it is stale. */
export default function setup() {
  if (!hasChromium) {
    console.warn(
      'Chromium not found (CHROMIUM_PATH, /usr/bin/chromium-headless-shell or /usr/bin/chromium): browser tests are skipped.',
    );
    return;
  }
  ensureWebBuilt();
}
