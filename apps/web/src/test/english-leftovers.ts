import en from '../locales/en/common.json';
import de from '../locales/de/common.json';

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );

const german = flatten(de as Tree);
/** English catalogue texts that German says differently, with their interpolations cut out ("Order {{ref}}" → "Order "). */
const englishOnly = Object.entries(flatten(en as Tree))
  .filter(([key, text]) => german[key] !== text)
  .flatMap(([, text]) => text.split(/\{\{\s*\w+\s*\}\}/))
  .map((piece) => piece.trim())
  // A piece is telling when it is a whole text, or a phrase of three words or more.
  .filter((piece) => piece.length > 1 && !Object.values(german).some((g) => g.includes(piece)));
const phrases = englishOnly.filter((piece) => piece.split(/\s+/).length >= 3);
const whole = new Set(englishOnly);

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

/** The texts that are English catalogue texts German does not share: what a German page must not show. */
export function englishLeftovers(texts: readonly string[]): string[] {
  return [
    ...new Set(texts.filter((text) => whole.has(text) || phrases.some((phrase) => text.includes(phrase)))),
  ];
}
