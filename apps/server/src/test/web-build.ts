import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The app (embedded engine) serving a stand-in for the built SPA made of `files` (path under dist → content), so
 * pages and assets are served as in production; `close` also removes the files.
 */
export async function createTestAppWithWebBuild(files: Record<string, string | Buffer>): Promise<TestApp> {
  const webDist = await mkdtemp(path.join(tmpdir(), 'cinema-web-'));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(webDist, file)), { recursive: true });
    await writeFile(path.join(webDist, file), content);
  }
  const t = await createTestApp('pglite', { WEB_DIST: webDist });
  return {
    ...t,
    close: async () => {
      await t.close();
      await rm(webDist, { recursive: true, force: true });
    },
  };
}
