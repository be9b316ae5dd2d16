import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../test/helpers.ts';
import { createTestAppWithWebBuild } from '../test/web-build.ts';

const INDEX =
  '<!doctype html><title>Cinema</title><div id="root"></div><script type="module" src="/assets/app.js">';
const SCRIPT = `console.log(${JSON.stringify('the app '.repeat(200))})`;
const ICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';

describe('the built web app, as the browser gets it', () => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    // A build as `vite build` leaves it: index.html and a hashed asset with their .br and .gz beside them.
    const withCompressedCopies = (file: string, text: string) => ({
      [file]: text,
      [`${file}.br`]: brotliCompressSync(text),
      [`${file}.gz`]: gzipSync(text),
    });
    t = await createTestAppWithWebBuild({
      ...withCompressedCopies('index.html', INDEX),
      ...withCompressedCopies('assets/app.js', SCRIPT),
      'favicon.svg': ICON,
      '.vite/manifest.json': '{"index.html":{"file":"assets/app.js","isEntry":true}}',
    });
    app = t.app;
  });
  afterAll(() => t?.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends a hashed asset brotli-compressed to a browser that accepts it, cached for good', async () => {
    const res = await get('/assets/app.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip where brotli is not accepted, and the file itself where nothing is', async () => {
    const gz = await get('/assets/app.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends a file that has no compressed copy as it is', async () => {
    const res = await get('/favicon.svg', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(ICON);
  });

  it("keeps the build's own notes to itself: no .vite/manifest.json", async () => {
    const res = await get('/.vite/manifest.json', 'br, gzip');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('isEntry');
  });

  it('answers every page with the compressed index.html, never cached without asking again', async () => {
    for (const url of ['/login', '/movies', '/showtimes/abc/seats']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers['content-security-policy'])).not.toContain('wasm-unsafe-eval');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
    }
  });

  it("keeps the scanner page's own policy (WebAssembly allowed) with the compressed index.html", async () => {
    const res = await get('/admin/scan', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers['content-security-policy'])).toContain("'wasm-unsafe-eval'");
    expect(gunzipSync(res.rawPayload).toString()).toBe(INDEX);
  });
});
