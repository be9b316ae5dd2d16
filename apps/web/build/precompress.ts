import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * How the built files are compressed ahead of time, as the server sends them: the strongest settings, since this
 * runs once per build and every visitor gains from it.
 */
export const compressors = {
  br: (data: Buffer) =>
    brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gz: (data: Buffer) => gzipSync(data, { level: constants.Z_BEST_COMPRESSION }),
};
