import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every catalogue under locales/<language>/<namespace>.json, compared with its English namesake: a key missing in
// one language, an extra one, a value left empty or a {{value}} that differs fails here, whatever the namespace.
const root = path.dirname(new URL(import.meta.url).pathname);
const languages = readdirSync(root).filter((name) => !name.includes('.'));
const namespaces = readdirSync(path.join(root, 'en')).filter((f) => f.endsWith('.json'));

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[prefix + key, value]]
        : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
const read = (language: string, file: string) =>
  flatten(JSON.parse(readFileSync(path.join(root, language, file), 'utf8')) as Tree);

const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(PLURAL, '');
const values = (text: string) => [...new Set([...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]))].sort();

describe.each(namespaces)('the %s catalogues', (file) => {
  const english = read('en', file);

  it.each(languages.filter((l) => l !== 'en'))('%s has every English key and no other', (language) => {
    const other = read(language, file);
    expect([...new Set(Object.keys(other).map(base))].sort()).toEqual(
      [...new Set(Object.keys(english).map(base))].sort(),
    );
    // A plural needs the forms the language uses (Intl.PluralRules), `other` always.
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const key of Object.keys(english).filter((k) => k.endsWith('_other'))) {
      const stem = base(key);
      for (const category of categories.filter((c) => c === 'one' || c === 'other'))
        expect(other, `${language}: ${stem}_${category}`).toHaveProperty([`${stem}_${category}`]);
    }
  });

  it.each(languages)('%s leaves no text empty and keeps every {{value}}', (language) => {
    const texts = read(language, file);
    for (const [key, text] of Object.entries(texts)) {
      expect(text.trim(), `${language} ${key}`).not.toBe('');
      const same = english[key] ?? english[`${base(key)}_other`];
      if (same !== undefined && !/_one$/.test(key))
        expect(values(text), `${language} ${key}`).toEqual(values(same));
    }
  });
});

describe('keys the code uses', () => {
  const src = path.resolve(root, '..');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? files(path.join(dir, entry.name))
        : /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
          ? [path.join(dir, entry.name)]
          : [],
    );
  const catalogues = Object.fromEntries(namespaces.map((f) => [f.replace(/\.json$/, ''), read('en', f)]));
  const exists = (ns: string, key: string) => {
    const texts = catalogues[ns] ?? {};
    return key in texts || `${key}_other` in texts;
  };

  it('are all in the English catalogues (a literal key with no text fails)', () => {
    const missing: string[] = [];
    for (const file of files(src)) {
      const code = readFileSync(file, 'utf8');
      const ns = /useTranslation\('(\w+)'\)/.exec(code)?.[1] ?? 'common';
      for (const m of code.matchAll(/\bt\(\s*'([\w.]+)'/g))
        if (!m[0].startsWith('i18n') && !exists(ns, m[1]!))
          missing.push(`${path.relative(src, file)}: ${ns}:${m[1]}`);
      for (const m of code.matchAll(/i18n\.t\(\s*'(\w+):([\w.]+)'/g))
        if (!exists(m[1]!, m[2]!)) missing.push(`${path.relative(src, file)}: ${m[1]}:${m[2]}`);
    }
    expect(missing).toEqual([]);
  });
});
