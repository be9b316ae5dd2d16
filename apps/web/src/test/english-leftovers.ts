import en from '../locales/en/common.json';
import de from '../locales/de/common.json';
import { flatten, leftoverFinder, type Tree } from '../locales/compare';

/** The English catalogue texts German writes differently: what a German page must not show. */
export const englishLeftovers = leftoverFinder(flatten(en as Tree), flatten(de as Tree));

/** Everything a person sees or hears in `root`: text nodes, and names given by aria-label, alt, title, placeholder. */
export function visibleTexts(root: ParentNode = document.body): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text && !node.parentElement?.closest('script, style, template')) texts.push(text);
  }
  for (const el of root.querySelectorAll('[aria-label], [alt], [title], [placeholder]')) {
    for (const name of ['aria-label', 'alt', 'title', 'placeholder']) {
      const value = el.getAttribute(name)?.trim();
      if (value) texts.push(value);
    }
  }
  return texts;
}
