import type { Alias, Plugin } from 'vite';

/**
 * The app is written against React's API and runs on Preact through `preact/compat` (decision 054): every import of
 * `react`, `react-dom` and the JSX runtime, the app's own and those of react-router, react-query and Testing Library,
 * resolves to Preact. Shared by the build (vite.config.ts) and the web unit tests (vitest.config.ts), so both run the
 * same library.
 */
export const preactAliases: Alias[] = [
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react(-dom)?$/, replacement: 'preact/compat' },
];

/**
 * Libraries that import React themselves: in the unit tests vitest hands node_modules to Node unchanged, where the
 * aliases above do not apply, so these go through Vite instead (a second copy of the renderer, real React beside
 * Preact, would break every hook they call).
 */
export const importsReact = ['react-router', '@tanstack/react-query', '@testing-library/react'];

/** JSX compiled by Vite's own transform (Oxc) to the automatic runtime, `react/jsx-runtime`, aliased above. */
export function preactCompat(): Plugin {
  return {
    name: 'preact-compat',
    config: () => ({
      resolve: { alias: preactAliases, dedupe: ['preact'] },
      oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    }),
  };
}
