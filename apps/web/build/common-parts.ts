import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { ALL_COMMON_PARTS, pickPart, type CommonPart } from '../src/locales/parts';

/**
 * `locales/<language>/common.json?part=<part>`: the sections of that language's `common` catalogue that belong to
 * the part (src/locales/parts.ts), as a module of its own, so that each part is a chunk of its own.
 */
export function commonParts(): Plugin {
  const file = /[\\/]locales[\\/][a-z]+[\\/]common\.json$/;
  return {
    name: 'common-parts',
    enforce: 'pre',
    async load(id) {
      const [path, query] = id.split('?');
      if (!query || !file.test(path!)) return null;
      const part = new URLSearchParams(query).get('part');
      if (part === null) return null;
      if (!(ALL_COMMON_PARTS as readonly string[]).includes(part))
        throw new Error(`${id}: no part "${part}" in src/locales/parts.ts`);
      this.addWatchFile(path!);
      const catalogue = JSON.parse(await readFile(path!, 'utf8')) as Record<string, unknown>;
      return {
        code: `export default ${JSON.stringify(pickPart(catalogue, part as CommonPart))};`,
        moduleType: 'js',
      };
    },
  };
}
