// Helpers for the tests that compare catalogues (unit and browser tests): no runtime code uses them.

/** A catalogue as i18next reads it: nested objects of texts. */
export type Tree = { [key: string]: string | Tree };

/** "auth.login.title" → text. */
export const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );

/**
 * A finder of English left on a page in another language: English catalogue texts that the other language writes
 * differently, cut at their {{values}}; a shown text equal to one, or containing one of three words or more, is
 * English. Pieces the other language also uses ("Tickets", "Name") never count.
 */
export function leftoverFinder(english: Record<string, string>, other: Record<string, string>) {
  const otherTexts = Object.values(other);
  const pieces = Object.entries(english)
    .filter(([key, text]) => other[key] !== text)
    .flatMap(([, text]) => text.split(/\{\{\s*\w+\s*\}\}/))
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 1 && !otherTexts.some((text) => text.includes(piece)));
  const whole = new Set(pieces);
  const phrases = pieces.filter((piece) => piece.split(/\s+/).length >= 3);
  return (shown: readonly string[]): string[] => [
    ...new Set(shown.filter((text) => whole.has(text) || phrases.some((phrase) => text.includes(phrase)))),
  ];
}
