import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuilt, serverCommand } from '../../../../scripts/build-server.mjs';
import { copyMigratedPgliteDataDir } from './database-templates.ts';

/** The repository root (the server is started from there, as `npm start` does). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A TCP port nobody listens on right now. */
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

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last 200 kB the process printed (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
  /** SIGKILL at once: no shutdown hook runs, nothing is flushed or closed. */
  crash(): Promise<void>;
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
 * Starts the real server as `npm start` runs it (`node apps/server/dist/server.js`, bundled first when its sources
 * changed) on a free port with only the given configuration (nothing leaks in from the shell: no DATABASE_URL or
 * REDIS_URL unless given) and resolves once `/api/health/live` answers. `nodeArgs` go to node itself (a profiler,
 * say). An embedded engine's DATA_DIR that is missing or empty gets a copy of the migrated data directory first
 * (the server then starts as on a directory it has migrated before); `freshDataDir` leaves it as it is, for a test
 * of a truly first start.
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: {
    timeoutMs?: number;
    nodeArgs?: string[];
    /** copy the server's output to stderr */ echo?: boolean;
    /** start on DATA_DIR as it is, without the migrated copy */ freshDataDir?: boolean;
  } = {},
): Promise<ServerProcess> {
  if (!opts.freshDataDir && env.DATA_DIR && env.DATA_DIR !== 'memory://' && !env.DATABASE_URL) {
    const dataDir = path.resolve(repoRoot, env.DATA_DIR);
    if ((await readdir(dataDir).catch(() => [])).length === 0) await copyMigratedPgliteDataDir(dataDir);
  }
  if (env.PORT) return startOnPort(env, Number(env.PORT), opts);
  // A free port is closed again before the server binds it: another process may take it in between (scale-out's two
  // servers failed so once at load 10). The server then exits with EADDRINUSE, and starts again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(env, await freePort(), opts);
    } catch (err) {
      if (attempt >= 3 || !String(err).includes('EADDRINUSE')) throw err;
    }
  }
}

async function startOnPort(
  env: Record<string, string>,
  port: number,
  opts: { timeoutMs?: number; nodeArgs?: string[]; echo?: boolean },
): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _db, REDIS_URL: _redis, WORKERS: _workers, ...inherited } = process.env;
  await ensureServerBuilt({ log: () => {} });
  const command = serverCommand({
    ...inherited,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    SEED_DEMO: '0',
    RATE_LIMIT: 'off',
    // Test servers live for seconds and are started by the dozen: the rehearsal before listening (decision 042) would
    // only lengthen every start. warm-up.test.ts runs it; the benchmark's cold start turns it on.
    WARM_UP: 'off',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...command.args], {
    cwd: repoRoot,
    env: command.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
    if (opts.echo) process.stderr.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const stop = async () => {
    child.kill('SIGTERM');
    if (!(await exited(child, 10_000))) {
      child.kill('SIGKILL');
      await exited(child, 5_000);
    }
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited during start (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health/live`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer within the time allowed:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const crash = async () => {
    child.kill('SIGKILL');
    await exited(child, 10_000);
  };
  const rss = () => {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      return kb ? Number(kb) * 1024 : null;
    } catch {
      return null;
    }
  };
  return { url, pid: child.pid!, child, output: () => output, stop, crash, rss };
}
