import type { FastifyInstance } from 'fastify';
import { encodePng } from '../modules/demo/png.ts';

/** A real 4×4 PNG image. */
export function tinyPng(): Buffer {
  const pixels = new Uint8Array(4 * 4 * 3).map((_, i) => (i * 37) % 256);
  return encodePng(4, 4, pixels);
}

export interface PosterFile {
  data: Buffer;
  filename?: string;
  type?: string;
}

/** Posts the Add Movie form as multipart, exactly as the browser sends it. */
export function postMovie(
  app: FastifyInstance,
  headers: Record<string, string>,
  fields: Record<string, string>,
  poster?: PosterFile,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (poster) {
    form.append(
      'poster',
      new Blob([new Uint8Array(poster.data)], { type: poster.type ?? 'image/png' }),
      poster.filename ?? 'poster.png',
    );
  }
  return app.inject({ method: 'POST', url: '/api/admin/movies', headers, payload: form });
}

/** An ISO timestamp `minutes` from now, on a whole minute. */
export function minutesFromNow(minutes: number): string {
  const d = new Date(Date.now() + minutes * 60_000);
  d.setUTCSeconds(0, 0);
  return d.toISOString();
}

/** `iso` shifted by `minutes`. */
export const shift = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString();
