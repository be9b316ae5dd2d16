import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { commonParts } from './apps/web/build/common-parts';
import { importsReact, preactCompat } from './apps/web/build/preact';

/**
 * The slowest files of a CI run (seconds of one worker, three workers on 2 cores: a whole `npm test` on a quiet
 * machine, 2026-11-28), started first whatever their project: vitest otherwise runs the projects one after another by
 * name and, on a fresh clone with no timings cached, each project's files largest first, so a 90 s file could start
 * last and leave the other workers idle meanwhile.
 */
const SLOWEST_FIRST = [
  'apps/server/src/test/bad-input.test.ts', // 154 s
  'apps/server/src/test/outage.test.ts', // 87 s
  'e2e/staff-german.test.ts', // 47 s
  'apps/server/src/test/crash.test.ts', // 47 s
  'apps/server/src/test/security.test.ts', // 46 s
  'e2e/scanner.test.ts', // 36 s
  'e2e/schedule.test.ts', // 35 s
  'e2e/gift-cards.test.ts', // 34 s
  'apps/server/src/modules/backup/backup.test.ts', // 34 s
  'e2e/halls.test.ts', // 32 s
  'apps/server/src/modules/accounts/admin-bootstrap.test.ts', // 26 s
  'e2e/accounts.test.ts', // 25 s
  'e2e/concessions.test.ts', // 24 s
  'apps/server/src/test/authorization.test.ts', // 24 s
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    // A stable sort: the rest keep vitest's order.
    return sorted
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.spec);
  }
}

// Passwords are hashed with a test-only cost (64 KiB, 1 pass) in every test process and the servers they start:
// the suite hashes thousands of them, at 18 ms of CPU each with the real cost (decision 050). `=0` runs it with the
// real cost; password-hashing.test.ts checks that a server without the setting uses the library's defaults.
process.env.INSECURE_TEST_PASSWORD_HASHES ??= '1';

export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: a single one on CI's 2 cores, idle while its test waits
    // for PostgreSQL, a child server, Chromium or a timer. One more than the cores, shared by every project: with two
    // on 2 cores the CPU was still idle 8% of a run (files waiting for the servers and browsers they started), with
    // three 2% (a whole `npm test` 663 → 566 s, with axe's cheaper results in the second run too; docs/benchmarks.md).
    // Each e2e file starts its own server on its own database and port, so they run side by side (with
    // `fileParallelism: false` vitest ran them as a one-worker group after everything else).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: SlowestFirst },
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
        // The parts of the `common` catalogues (`common.json?part=`) are cut as in the build, and `react` is Preact
        // as in the build (decision 054).
        plugins: [preactCompat(), commonParts()],
        // The libraries that import React are loaded as ES modules, whose imports the aliases reach: react-router's
        // `node` export and Testing Library's `main` are CommonJS, whose `require('react')` Node would answer with
        // React itself. (Testing Library's ES build is named by path: a `module` main field for every package would
        // also give it the ES build of its DOM helpers, a second copy beside the one user-event imports.)
        resolve: {
          conditions: ['module', 'node', 'development|production'],
          alias: [
            {
              find: /^@testing-library\/react$/,
              replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
            },
          ],
        },
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          // Screens render in jsdom with Testing Library; no browser needed.
          environment: 'jsdom',
          // A screen driven key by key (userEvent) takes seconds in jsdom on a busy 2-core machine.
          testTimeout: 15_000,
          setupFiles: ['./src/test/setup.ts'],
          // Through Vite, not Node, so that the aliases reach them.
          server: { deps: { inline: importsReact } },
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
          // A screen on a busy 2-core machine may take more than expect.poll's default second to show what the test
          // waits for (the release tab in accounts.test.ts failed so at load 9–10); a poll still fails when it never does.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['./global-setup.ts'],
          // Each file starts its own server and browser: the support modules (Playwright, the HTTP helpers) load once
          // per worker.
          isolate: false,
        },
      },
    ],
  },
});
