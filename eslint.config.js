import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'tmp/**',
      'apps/server/drizzle/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: {
      // How import-x reads the modules it follows (no-cycle walks the import graph through them).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // An import cycle makes the order modules load in matter (app.ts ↔ routes was one): none allowed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The architecture, enforced: contract imports nothing of ours; web never imports server; features stay apart.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages/contract', from: './apps', message: 'The contract imports only zod.' },
            {
              target: './apps/web',
              from: './apps/server',
              message: 'The web app talks to the server over HTTP only.',
            },
            { target: './apps/server', from: './apps/web', message: 'The server never imports the web app.' },
            {
              target: './apps/web/src/features/*',
              from: './apps/web/src/features/*',
              except: ['./'],
              message: 'A feature does not import another feature; they meet in route files.',
            },
            {
              target: './apps/server/src/modules/*/*.routes.ts',
              from: './apps/server/src/db/schema',
              message: 'Route files do not touch the database; services do.',
            },
          ],
        },
      ],
    },
  },
  {
    // Orders send email in one place, on their events after commit (decision 034); tests may call the senders.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/modules/mail/mail.plugin.ts',
      // The sweep writes what the events' emails never wrote (decision 056).
      'apps/server/src/modules/mail/mail-sweep.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/mail/messages.ts', './messages.ts'],
              importNames: ['sendOrderConfirmation', 'orderConfirmation', 'sendRefundNotice'],
              message:
                'Order email is sent by modules/mail/mail.plugin.ts on order events: record an event instead.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/*/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Route files do not touch the database.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='invalidate']",
          message:
            'Route files do not touch the seat-map cache: services publish seat events (decision 016).',
        },
        {
          selector: "CallExpression[callee.property.name='publish']",
          message: 'Route files publish no events: the service that made the change does, after commit.',
        },
      ],
    },
  },
  {
    // The seat rules ship in the browser bundle too: they import each other and nothing else, not even zod.
    files: ['packages/contract/src/seat-rules/**/*.ts'],
    ignores: [
      'packages/contract/src/seat-rules/**/*.test.ts',
      'packages/contract/src/seat-rules/test-support.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\./[\\w.-]+$)', message: 'The seat rules import only their sibling files.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // zod stays out of the browser bundle: the web app takes types from the contract and values from its zod-free
    // entry.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@cinema/contract',
              allowTypeImports: true,
              message:
                "Import only types from '@cinema/contract'; values come from '@cinema/contract/constants'.",
            },
            { name: 'zod', allowTypeImports: true, message: 'zod stays out of the browser bundle.' },
          ],
          patterns: [
            { group: ['zod/*'], allowTypeImports: true, message: 'zod stays out of the browser bundle.' },
          ],
        },
      ],
    },
  },
);
