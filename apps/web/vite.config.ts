import { defineConfig } from 'vite';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './build/precompress';
import { pureReactRouter, withoutWebTransport } from './build/lean-deps';
import { commonParts } from './build/common-parts';
import { preactCompat } from './build/preact';

const api = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    preactCompat(),
    tailwindcss(),
    commonParts(),
    pureReactRouter(),
    withoutWebTransport(),
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/socket.io': { target: api, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph `npm run bundle-report` follows to count what each route loads.
    manifest: true,
    rolldownOptions: {
      // react-query marks its modules "use client" (for React Server Components), which means nothing in a browser
      // bundle; @vitejs/plugin-react silenced these warnings before decision 054.
      checks: { moduleLevelDirective: false },
      output: {
        codeSplitting: {
          // react-query as one chunk, loaded with the first screen that reads data (the sign-in screens do
          // without), instead of a handful of small ones; Preact (what `react` resolves to) in a chunk of its own
          // first, so that the react-query group (which takes its dependencies along) leaves it to the entry.
          groups: [
            { name: 'preact', test: /node_modules[\\/]preact[\\/]/, priority: 2 },
            { name: 'react-query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
