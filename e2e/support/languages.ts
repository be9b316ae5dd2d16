import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
const catalogue = (file: string) => flatten(JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Tree);

/** A language's texts: the web app's common catalogue and the server's (errors, the test checkout page). */
export function texts(language: 'en' | 'es' | 'de') {
  return {
    web: catalogue(`apps/web/src/locales/${language}/common.json`),
    server: catalogue(`apps/server/src/locales/${language}/server.json`),
  };
}

/**
 * English catalogue texts that `language` writes differently, cut at their {{values}}: a visible text equal to one,
 * or containing one of three words or more, is English left on the page.
 */
export function leftoverFinder(language: 'es' | 'de') {
  const en = texts('en');
  const other = texts(language);
  const otherValues = [...Object.values(other.web), ...Object.values(other.server)];
  const pieces = (['web', 'server'] as const)
    .flatMap((side) =>
      Object.entries(en[side])
        .filter(([key, text]) => other[side][key] !== text)
        .flatMap(([, text]) => text.split(/\{\{\s*\w+\s*\}\}/)),
    )
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 1 && !otherValues.some((text) => text.includes(piece)));
  const whole = new Set(pieces);
  const phrases = pieces.filter((piece) => piece.split(/\s+/).length >= 3);
  return (shown: readonly string[]) => [
    ...new Set(shown.filter((text) => whole.has(text) || phrases.some((phrase) => text.includes(phrase)))),
  ];
}

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
