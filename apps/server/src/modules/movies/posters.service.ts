import { createHash } from 'node:crypto';
import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import { MAX_POSTER_BYTES } from '@cinema/contract';
import type { Db, Queryable } from '../../db/database.ts';
import { posterVariants, posters } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import { detectPosterType } from './poster-image.ts';

/** The widths a poster is stored at: a grid card on a phone, the same at 2×, and the widest shown anywhere. */
export const POSTER_WIDTHS = [160, 320, 640] as const;
/** Larger than any poster; a bigger image is refused before it is decoded (a 30000 × 30000 PNG fits in 1 MB). */
export const MAX_POSTER_PIXELS = 40_000_000;

type Sharp = (typeof import('sharp'))['default'];
let sharpModule: Promise<Sharp> | undefined;

/** sharp (libvips) is loaded on the first poster only: a server that never sees one does not carry it in memory. */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then((m): Sharp => {
    const sharp = m.default;
    // A poster now and then: no cache of decoded images kept, one thread (the server's cores serve requests).
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

const etagOf = (data: Buffer) => `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;

export interface PreparedPoster {
  width: number;
  height: number;
  /** The default copy (the widest stored), then the narrower ones, each WebP. */
  copies: { width: number; data: Buffer }[];
}

/**
 * Checks an uploaded poster and re-encodes it: 413 over 5 MB; 415 unless it is a JPEG, PNG or WebP that decodes,
 * of at most 40 megapixels. Stored as WebP at each of POSTER_WIDTHS up to its own width (never enlarged), without
 * its metadata (EXIF, location).
 */
export async function preparePoster(data: Buffer): Promise<PreparedPoster> {
  if (data.length > MAX_POSTER_BYTES)
    throw new AppError(413, 'payload_too_large', 'Poster must be at most 5 MB');
  if (!detectPosterType(data)) {
    throw new AppError(415, 'unsupported_media_type', 'Poster must be a JPEG, PNG or WebP image');
  }
  const sharp = await loadSharp();
  let meta;
  try {
    // Only the header is read here (no pixels are decoded), so its size can be checked before anything is.
    meta = await sharp(data, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch {
    throw new AppError(415, 'unsupported_media_type', 'Poster could not be read as an image');
  }
  const { width, height } = meta;
  if (!width || !height)
    throw new AppError(415, 'unsupported_media_type', 'Poster could not be read as an image');
  if (width * height > MAX_POSTER_PIXELS) {
    throw new AppError(415, 'unsupported_media_type', 'Poster must be at most 40 megapixels');
  }
  const widths = [...new Set(POSTER_WIDTHS.map((w) => Math.min(w, width)))].sort((a, b) => b - a);
  try {
    const copies = await Promise.all(
      widths.map(async (w) => ({
        width: w,
        data: await sharp(data, { limitInputPixels: MAX_POSTER_PIXELS, failOn: 'error' })
          .rotate() // honour the camera's orientation, then drop the metadata
          .resize({ width: w, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer(),
      })),
    );
    return { width, height, copies };
  } catch {
    throw new AppError(415, 'unsupported_media_type', 'Poster could not be read as an image');
  }
}

/** The poster row's own columns for a prepared poster: its widest copy. */
function mainCopy(poster: PreparedPoster) {
  const main = poster.copies[0]!;
  return {
    contentType: 'image/webp',
    data: main.data,
    sizeBytes: main.data.length,
    etag: etagOf(main.data),
    width: main.width,
    height: Math.round((poster.height * main.width) / poster.width),
  };
}

/** Stores a poster's narrower copies (in the caller's transaction). */
async function insertVariants(tx: Queryable, posterId: string, poster: PreparedPoster) {
  const narrower = poster.copies.slice(1);
  if (narrower.length === 0) return;
  await tx.insert(posterVariants).values(
    narrower.map((c) => ({
      posterId,
      width: c.width,
      contentType: 'image/webp',
      data: c.data,
      sizeBytes: c.data.length,
      etag: etagOf(c.data),
    })),
  );
}

/** Stores a prepared poster (in the caller's transaction); returns its id. */
export async function insertPoster(tx: Queryable, poster: PreparedPoster): Promise<string> {
  const [stored] = await tx.insert(posters).values(mainCopy(poster)).returning({ id: posters.id });
  await insertVariants(tx, stored!.id, poster);
  return stored!.id;
}

export interface StoredPoster {
  contentType: string;
  data: Buffer;
  etag: string;
}

/** A stored poster at the narrowest width of at least `width` (default: its widest), or 404. */
export async function getPoster(db: Queryable, id: string, width?: number): Promise<StoredPoster> {
  if (width !== undefined) {
    const [variant] = await db
      .select({
        contentType: posterVariants.contentType,
        data: posterVariants.data,
        etag: posterVariants.etag,
      })
      .from(posterVariants)
      .where(and(eq(posterVariants.posterId, id), gte(posterVariants.width, width)))
      .orderBy(asc(posterVariants.width))
      .limit(1);
    if (variant) return variant;
  }
  const [row] = await db
    .select({ contentType: posters.contentType, data: posters.data, etag: posters.etag })
    .from(posters)
    .where(eq(posters.id, id))
    .limit(1);
  if (!row) throw notFound('Poster not found');
  return row;
}

/** The `srcset` of a poster stored at these widths: each narrower copy, then the poster itself (its widest). */
export function posterSrcSet(
  posterUrl: string,
  width: number | null,
  variantWidths: number[],
): string | null {
  if (width === null) return null;
  return [...variantWidths.map((w) => `${posterUrl}?w=${w} ${w}w`), `${posterUrl} ${width}w`].join(', ');
}

/**
 * Re-encodes the posters stored before posters were decoded and re-encoded (width unknown): done once, at start.
 * A poster that does not decode is left as it was. Returns how many were converted.
 */
export async function convertLegacyPosters(db: Db): Promise<number> {
  const legacy = await db
    .select({ id: posters.id, data: posters.data })
    .from(posters)
    .where(isNull(posters.width));
  let converted = 0;
  for (const old of legacy) {
    let prepared: PreparedPoster;
    try {
      prepared = await preparePoster(old.data);
    } catch {
      continue;
    }
    await db.transaction(async (tx) => {
      await tx.update(posters).set(mainCopy(prepared)).where(eq(posters.id, old.id));
      await tx.delete(posterVariants).where(eq(posterVariants.posterId, old.id));
      await insertVariants(tx, old.id, prepared);
    });
    converted++;
  }
  return converted;
}
