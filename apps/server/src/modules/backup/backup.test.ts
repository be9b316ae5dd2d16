import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { serverRoot } from '../../paths.ts';
import { copyMigratedPgliteDataDir } from '../../test/database-templates.ts';
import { createShowtimeFixture } from '../../test/fixtures.ts';
import { signedInUser, STRONG_PASSWORD } from '../../test/helpers.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(serverRoot, '../..');

async function startOn(dataDir: string): Promise<FastifyInstance> {
  const database = await openDatabase({ dataDir });
  const app = await buildApp(testConfig({ DATA_DIR: dataDir, SWEEP_SECONDS: '3600' }), { database });
  await app.ready();
  return app;
}

describe('npm run backup / npm run restore (embedded engine)', () => {
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(path.join(tmpdir(), `cinema-${name}-`));
    dirs.push(dir);
    return dir;
  };

  it('backs up a running server and restores into a fresh data directory with every paid ticket', async () => {
    const live = await tempDir('live');
    // A migrated data directory, as a server's first start leaves it (initdb and the migrations are not what this
    // test is about; the next test starts on an empty one).
    await copyMigratedPgliteDataDir(live);
    const app = await startOn(live);
    apps.push(app);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const show = await createShowtimeFixture(app.database.db);
    const admin = await signedInUser(app, { role: 'ADMIN', password: STRONG_PASSWORD });
    const customers = [await signedInUser(app), await signedInUser(app)];

    // Each customer pays for two seats through the local hosted checkout.
    for (const [i, who] of customers.entries()) {
      const held = await app.inject({
        method: 'POST',
        url: `/api/showtimes/${show.showtimeId}/hold`,
        headers: who.headers,
        payload: { seatIds: show.allSeatIds.slice(i * 2, i * 2 + 2) },
      });
      expect(held.statusCode, held.body).toBe(201);
      const checkout = await app.inject({
        method: 'POST',
        url: '/api/pay/checkout',
        headers: who.headers,
        payload: { bookingIds: (held.json() as { bookingIds: string[] }).bookingIds },
      });
      const { sessionId } = checkout.json() as { sessionId: string };
      const paid = await app.inject({ method: 'POST', url: `/api/pay/local/${sessionId}/pay` });
      expect(paid.statusCode).toBe(303);
    }
    const ticketsOf = (on: FastifyInstance) =>
      Promise.all(
        customers.map(async (who) => {
          const res = await on.inject({ method: 'GET', url: '/api/me/tickets', headers: who.headers });
          expect(res.statusCode, res.body).toBe(200);
          return (res.json() as { tickets: unknown[] }).tickets;
        }),
      );
    const before = await ticketsOf(app);
    expect(before.map((t) => t.length)).toEqual([2, 2]);

    // The server keeps running (and selling) while the backup is taken.
    const file = path.join(await tempDir('backup'), 'cinema.tar.gz');
    const holdDuring = app.inject({
      method: 'POST',
      url: `/api/showtimes/${show.showtimeId}/hold`,
      headers: customers[0]!.headers,
      payload: { seatIds: [show.allSeatIds[10]!] },
    });
    const backup = await run(process.execPath, ['scripts/backup.mjs', '--out', file], {
      cwd: repoRoot,
      env: { ...process.env, BACKUP_URL: address, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: STRONG_PASSWORD },
    });
    expect(backup.stdout).toContain('Backup written');
    expect((await holdDuring).statusCode).toBe(201);
    // Who took a copy of everyone's data is in the audit log.
    const audit = await app.inject({ method: 'GET', url: '/api/admin/audit', headers: admin.headers });
    expect((audit.json() as { entries: { action: string; actor: string }[] }).entries[0]).toMatchObject({
      action: 'database.backup',
      actor: admin.email,
    });
    await app.close();

    const fresh = path.join(await tempDir('restored'), 'data');
    const restore = await run(process.execPath, ['scripts/restore.mjs', file], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: fresh },
    });
    expect(restore.stdout).toContain('(4 paid seats)');
    // Restoring over a database is refused.
    await expect(
      run(process.execPath, ['scripts/restore.mjs', file], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: fresh },
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('is not empty') });

    const restored = await startOn(fresh);
    apps.push(restored);
    expect(await ticketsOf(restored)).toEqual(before);
  }, 240_000);

  it('keeps the data directory private, and writes backups with relative member names and private modes', async () => {
    /** Paths under `dir` that anyone but the owner may read, write or enter. */
    const shared = async (dir: string) =>
      (await readdir(dir, { recursive: true }))
        .concat('')
        .filter((entry) => (statSync(path.join(dir, entry)).mode & 0o077) !== 0);
    /** `tar -tvzf`: each member's mode and name. */
    const members = async (file: string) =>
      (await run('tar', ['-tvzf', file])).stdout
        .trim()
        .split('\n')
        .map((line) => {
          const parts = line.split(/\s+/);
          return { mode: parts[0]!, name: parts.at(-1)! };
        });
    const expectPrivate = async (file: string) => {
      const listed = await members(file);
      expect(listed.length).toBeGreaterThan(100);
      expect(listed.filter((m) => m.name.startsWith('/'))).toEqual([]);
      expect(listed.find((m) => m.name === 'PG_VERSION')).toEqual({ mode: '-rw-------', name: 'PG_VERSION' });
      expect(new Set(listed.map((m) => m.mode))).toEqual(new Set(['-rw-------', 'drwx------']));
      expect(statSync(file).mode & 0o777).toBe(0o600);
    };

    const live = await tempDir('private');
    const app = await startOn(live);
    apps.push(app);
    expect(statSync(live).mode & 0o777).toBe(0o700);
    expect(await shared(live)).toEqual([]);

    // Through the running server, as `npm run backup` takes it.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await signedInUser(app, { role: 'ADMIN', password: STRONG_PASSWORD });
    const online = path.join(await tempDir('backup'), 'online.tar.gz');
    await run(process.execPath, ['scripts/backup.mjs', '--out', online], {
      cwd: repoRoot,
      env: { ...process.env, BACKUP_URL: address, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: STRONG_PASSWORD },
    });
    await expectPrivate(online);
    await app.close();
    // Still private after the server wrote to it and stopped.
    expect(await shared(live)).toEqual([]);

    // Offline, from the data directory itself.
    const offline = path.join(await tempDir('backup'), 'offline.tar.gz');
    await run(process.execPath, ['scripts/backup.mjs', '--offline', '--out', offline], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: live },
    });
    await expectPrivate(offline);

    // Restored: private too, and a server starts on it.
    const fresh = path.join(await tempDir('restored'), 'data');
    await run(process.execPath, ['scripts/restore.mjs', online], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: fresh },
    });
    expect(await shared(fresh)).toEqual([]);
    const restored = await startOn(fresh);
    apps.push(restored);
    const login = await restored.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  }, 240_000);
});
