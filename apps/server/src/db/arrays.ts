// PGlite hands back an array column as PostgreSQL's text ('{A,"B C"}', '{160,320}'); node-postgres parses it.

/** A text[] from either engine. */
export function textArray(value: readonly string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return [...value];
  const inner = (value as string).slice(1, -1);
  if (!inner) return [];
  return [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) =>
    (m[1] ?? m[2]!).replace(/\\(.)/g, '$1'),
  );
}

/** An integer[] from either engine. */
export const intArray = (value: readonly number[] | string | null): number[] =>
  textArray(value === null || typeof value === 'string' ? value : value.map(String)).map(Number);
