import { ensureWebBuilt } from '../scripts/build-web.mjs';
import { hasChromium, reportSkippedWithoutChromium } from './support/browser.ts';

/** Browser tests run against the built SPA served by the real server: build it first when it is stale. */
export default function setup() {
  if (!hasChromium) {
    reportSkippedWithoutChromium('browser tests');
    return;
  }
  ensureWebBuilt();
}
