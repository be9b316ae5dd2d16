import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const serverEntry = path.join(root, 'apps/server/src/server.ts');

export const CHILD_ADMIN = { email: 'admin@reliability.test', password: 'Projector#2026' } as const;

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything the process printed (the last 200 kB). */
  output(): string;
  /** Kills the process with SIGKILL: no shutdown hook runs, nothing is flushed or closed. */
  crash(): Promise<void>;
  /** SIGTERM, waiting for the graceful shutdown (SIGKILL after 10 s). */
  stop(): Promise<void>;
  /** Resident memory of the process in bytes (Linux), or null. */
  rss(): number | null;
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the REAL server (`node --import tsx apps/server/src/server.ts`) on the given data (a PGlite directory,
 * or DATABASE_URL in `env`) and resolves when /api/health answers. Nothing is cleaned up: restarts reuse the data.
 */
export async function startChildServer(opts: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ChildServer & { startMs: number }> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  // Only what this server should see: no DATABASE_URL/REDIS_URL leaking in from the shell running the tests.
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: opts.dataDir,
      ADMIN_EMAIL: CHILD_ADMIN.email,
      ADMIN_PASSWORD: CHILD_ADMIN.password,
      SEED_DEMO: '0',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const server: ChildServer = {
    url,
    child,
    output: () => output,
    crash: async () => {
      child.kill('SIGKILL');
      await exited(child, 10_000);
    },
    stop: async () => {
      child.kill('SIGTERM');
      if (!(await exited(child, 10_000))) {
        child.kill('SIGKILL');
        await exited(child, 5_000);
      }
    },
    rss: () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
        return kb ? Number(kb) * 1024 : null;
      } catch {
        return null;
      }
    },
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited during start (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`The server did not answer /api/health in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...server, startMs: Date.now() - started };
}
