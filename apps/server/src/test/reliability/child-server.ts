import { startServerProcess, type ServerProcess } from '../server-process.ts';

export { freePort } from '../server-process.ts';

export const CHILD_ADMIN = { email: 'admin@reliability.test', password: 'Projector#2026' } as const;

export type ChildServer = ServerProcess;

/**
 * Starts the REAL server on the given data (a PGlite directory, or DATABASE_URL in `env`) with a known admin and
 * resolves when it answers. Nothing is cleaned up: restarts reuse the data.
 */
export async function startChildServer(opts: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ChildServer & { startMs: number }> {
  const started = Date.now();
  const server = await startServerProcess(
    {
      DATA_DIR: opts.dataDir,
      ADMIN_EMAIL: CHILD_ADMIN.email,
      ADMIN_PASSWORD: CHILD_ADMIN.password,
      ...(opts.port ? { PORT: String(opts.port) } : {}),
      ...opts.env,
    },
    { timeoutMs: opts.timeoutMs },
  );
  return { ...server, startMs: Date.now() - started };
}
