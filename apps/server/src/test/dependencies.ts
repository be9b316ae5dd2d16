import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.ts';

/**
 * Dependencies a test owns and may kill: a private `redis-server` and a private PostgreSQL cluster (Debian's
 * initdb/pg_ctl, run as the `postgres` user), each on a free port, gone when the test stops them.
 */

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL: no save, connections drop at once. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const hasRedisServer = existsSync('/usr/bin/redis-server');

export async function startPrivateRedis(port?: number): Promise<PrivateRedis> {
  const p = port ?? (await freePort());
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      try {
        execFileSync('redis-cli', ['-p', String(p), 'ping'], { stdio: 'pipe' });
        return;
      } catch {
        await wait(50);
      }
    }
    throw new Error(`redis-server did not start on port ${p}`);
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  };
  await start();
  return { url: `redis://127.0.0.1:${p}`, port: p, kill, start, stop: kill };
}

const pgBin = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort().at(-1);
  const bin = version ? path.join(root, version, 'bin') : null;
  return bin && existsSync(path.join(bin, 'pg_ctl')) ? bin : null;
})();

/** Whether this machine can run a private PostgreSQL cluster (Debian's binaries, root to become `postgres`). */
export const canRunPrivatePostgres = pgBin !== null && process.getuid?.() === 0;

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl stop -m immediate`: every connection drops, no checkpoint (as a crash). */
  kill(): Promise<void>;
  /** `pg_ctl restart -m fast`: connections are terminated, then it comes back. */
  restart(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

function asPostgres(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('runuser', ['-u', 'postgres', '--', path.join(pgBin!, command), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}: ${code}\n${output}`)),
    );
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!pgBin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'cinema-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  execFileSync('chown', ['postgres', dir]);
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const ctl = (...args: string[]) => asPostgres('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), ...args]);
  const start = () => ctl('start', '-w', '-o', options);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    kill: () => ctl('stop', '-m', 'immediate', '-w'),
    restart: () => ctl('restart', '-m', 'fast', '-w', '-o', options),
    start,
    async destroy() {
      await ctl('stop', '-m', 'immediate', '-w').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small file system of its own (tmpfs, root only), to fill up. */
export interface SmallDisk {
  dir: string;
  /** Writes a file taking all the room that is left. */
  fill(): void;
  /** Removes that file. */
  free(): void;
  destroy(): Promise<void>;
}

export const canMountDisk = process.getuid?.() === 0 && process.platform === 'linux';

export function mountSmallDisk(megabytes: number): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), 'cinema-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M'], { stdio: 'ignore' });
      } catch {
        // dd stops with an error once the disk is full: that is the point
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    async destroy() {
      for (let i = 0; i < 20; i++) {
        try {
          execFileSync('umount', [dir], { stdio: 'ignore' });
          break;
        } catch {
          await wait(250);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
