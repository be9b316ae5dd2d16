import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * How the built files are compressed ahead of time, as the server sends them: the strongest settings, since this
 * runs once per build and every visitor gains from it.
 */
export const compressors = {
  br: (data: Buffer) =>
    brotliAsync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gz: (data: Buffer) => gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }),
};

/** Files worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|wasm|txt|xml|webmanifest)$/;

/** Every file under `dir` (relative paths), but not the build's own `.vite` folder (the manifest). */
async function builtFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((file) => !file.startsWith(`.vite${path.sep}`));
}

/**
 * Writes `file.br` and `file.gz` beside every compressible built file (public files and index.html included) when
 * they are smaller than the file itself: the server sends them as they are (@fastify/static `preCompressed`).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'cinema:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await builtFiles(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(path.join(outDir, file));
          for (const [extension, compress] of Object.entries(compressors)) {
            const compressed = await compress(data);
            if (compressed.length < data.length)
              await writeFile(path.join(outDir, `${file}.${extension}`), compressed);
          }
        }),
      );
    },
  };
}
