import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverRoot } from '../paths.ts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { contentSecurityPolicy } from './security.ts';
import { translateMessage } from '../i18n.ts';

export const defaultWebDist = path.resolve(serverRoot, '../web/dist');

/**
 * Serves the built SPA: hashed assets cached for a year, every other page answered with index.html; each file as
 * the build compressed it (brotli or gzip, as the browser accepts), with `Vary: Accept-Encoding`.
 */
export const webPlugin = fp(
  async function webPlugin(app: FastifyInstance, opts: { dist?: string }) {
    const root = opts.dist ?? defaultWebDist;
    if (!existsSync(path.join(root, 'index.html'))) {
      app.log.warn({ root }, 'web app not built: only the API is served (run `npm run build`)');
      return;
    }
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The web build writes file.br and file.gz beside each file (apps/web/build/precompress.ts).
      preCompressed: true,
      // Not the build's own notes (.vite/manifest.json, read by `npm run bundle-report`).
      dotfiles: 'ignore',
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      if (url.startsWith('/api/') || url.startsWith('/socket.io/')) {
        return reply.status(404).send({
          error: translateMessage(`No route for ${request.method} ${url}`, request.language),
          code: 'not_found',
        });
      }
      const file = url.slice(1);
      if (file && !file.endsWith('/') && existsSync(path.join(root, file)) && !file.includes('..')) {
        return reply.sendFile(file);
      }
      reply.header('Cache-Control', 'no-cache');
      // The door scanner and the kitchen's hand-over decode QR codes with WebAssembly: only their pages may compile
      // it. The header belongs to the document, so the app's links to them load them as a new page.
      if (/^\/admin\/(scan|kitchen)\/?$/.test(url)) {
        reply.header('content-security-policy', contentSecurityPolicy({ wasm: true }));
      }
      // cacheControl: false, or @fastify/send would replace no-cache with its own `public, max-age=0`.
      return reply.sendFile('index.html', { cacheControl: false });
    });
  },
  { name: 'web', dependencies: ['security'] },
);
