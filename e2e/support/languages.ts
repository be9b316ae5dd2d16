import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { flatten, leftoverFinder as finder, type Tree } from '../../apps/web/src/locales/compare.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const catalogue = (file: string) => flatten(JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Tree);

/** A language's texts: the web app's common catalogue and the server's (errors, the test checkout page). */
export function texts(language: 'en' | 'es' | 'de') {
  return {
    web: catalogue(`apps/web/src/locales/${language}/common.json`),
    server: catalogue(`apps/server/src/locales/${language}/server.json`),
  };
}

/** A finder of English catalogue texts left on a page in `language` (the web app's and the server's). */
export function leftoverFinder(language: 'es' | 'de') {
  const en = texts('en');
  const other = texts(language);
  return finder({ ...en.web, ...prefixed(en.server) }, { ...other.web, ...prefixed(other.server) });
}
const prefixed = (texts: Record<string, string>) =>
  Object.fromEntries(Object.entries(texts).map(([key, text]) => [`server:${key}`, text]));

/**
 * Every text of the page a person sees or hears: visible text nodes (screen-reader-only ones too), the names given
 * by aria-label, alt, title and placeholder, and the tab's title.
 */
export function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = (el: Element | null) =>
      !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const found: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && shown(node.parentElement) && !node.parentElement!.closest('script, style'))
        found.push(text);
    }
    for (const el of Array.from(document.querySelectorAll('[aria-label], [alt], [title], [placeholder]'))) {
      if (!shown(el)) continue;
      for (const name of ['aria-label', 'alt', 'title', 'placeholder']) {
        const value = el.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
}
