import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: a single one on CI's 2 cores, idle while its test waits
    // for PostgreSQL, a child server or a timer. Two there, shared by every project: each e2e file starts its own server
    // on its own database and port, so two run side by side (with `fileParallelism: false` vitest ran them as a
    // one-worker group after everything else).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['./src/test/setup.ts'],
          // One module load per worker, not per file: the server's imports (Fastify, drizzle, PGlite, i18next) took
          // about 1.7 s of a worker per file, 226 s of a CI run. Each file builds its own app and database.
          isolate: false,
        },
      },
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // Property tests run hundreds of cases: room for a busy 2-core machine.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          // Screens render in jsdom with Testing Library; no browser needed.
          environment: 'jsdom',
          // A screen driven key by key (userEvent) takes seconds in jsdom on a busy 2-core machine.
          testTimeout: 15_000,
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['./global-setup.ts'],
        },
      },
    ],
  },
});
