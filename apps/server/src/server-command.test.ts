import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBundle, serverCommand } from '../../../scripts/build-server.mjs';
import { startServerProcess, type ServerProcess } from './test/server-process.ts';

// The memory settings `npm start` runs the server with (docs/decisions/013-server-memory.md).
const MALLOC = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '32768' };

describe('how npm start runs the server', () => {
  it('gives the embedded engine the small-machine heap and every server the malloc settings', () => {
    const embedded = serverCommand({ NODE_ENV: 'production', DATA_DIR: './data' });
    expect(embedded.args).toEqual(['--heap-growing-percent=30', serverBundle]);
    expect(embedded.env).toEqual({ ...MALLOC, NODE_ENV: 'production', DATA_DIR: './data' });

    const postgres = serverCommand({ DATABASE_URL: 'postgres://db.example/cinema' });
    expect(postgres.args).toEqual([serverBundle]);
    expect(postgres.env).toEqual({ ...MALLOC, DATABASE_URL: 'postgres://db.example/cinema' });
  });

  it("keeps an operator's own malloc settings", () => {
    const { env } = serverCommand({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(env).toEqual({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' });
  });
});

describe('the real server process, started as npm start starts it', () => {
  let dataDir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-command-'));
    server = await startServerProcess({ DATA_DIR: dataDir });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs with the settings in its environment and on its command line', () => {
    const environ = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
    expect(environ).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=1', 'MALLOC_MMAP_THRESHOLD_=32768']));
    const cmdline = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toEqual(expect.arrayContaining(['--heap-growing-percent=30', serverBundle]));
  });
});
