import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@cinema/contract';
import {
  canMountDisk,
  canRunPrivatePostgres,
  mountSmallDisk,
  hasRedisServer,
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from './dependencies.ts';
import { createPostgresDatabase, postgresUrl } from './helpers.ts';
import { CHILD_ADMIN } from './reliability/child-server.ts';
import {
  call,
  makeWorld,
  newTally,
  recoveryMs,
  runTraffic,
  serverErrors,
  type Tally,
} from './reliability/outage.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * Dependencies killed under load, for real: a private PostgreSQL cluster and a private redis-server, owned by the
 * test. No process dies, every request is answered (503 with Retry-After while a dependency is away, never a reset
 * or a 500), live updates resume, and the database afterwards holds every acknowledged hold and payment once.
 */

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const adminEnv = {
  ADMIN_EMAIL: CHILD_ADMIN.email,
  ADMIN_PASSWORD: CHILD_ADMIN.password,
  HOLD_MINUTES: '120',
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean().catch(() => undefined);
});

/** Every acknowledged hold and payment in the database exactly once; no seat with two live bookings. */
async function checkDatabase(databaseUrl: string, tally: Tally) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const problems: string[] = [];
    const acked = tally.holds.flatMap((h) => h.bookingIds);
    const { rows } = await client.query<{ id: string; status: string }>(
      'select id, status from bookings where id = any($1::uuid[])',
      [acked],
    );
    const status = new Map(rows.map((r) => [r.id, r.status]));
    for (const id of acked) if (!status.has(id)) problems.push(`acknowledged hold ${id} lost`);
    for (const p of tally.payments)
      for (const id of p.bookingIds)
        if (status.get(id) !== 'CONFIRMED') problems.push(`paid booking ${id} is ${status.get(id)}`);
    const doubled = await client.query<{ seat_id: string; n: number }>(`
      select seat_id, count(*)::int as n from bookings
      where status = 'CONFIRMED' or (status = 'HELD' and expires_at > now())
      group by showtime_id, seat_id having count(*) > 1`);
    for (const r of doubled.rows) problems.push(`seat ${r.seat_id} has ${r.n} live bookings`);
    const paid = await client.query<{ n: number }>(
      `select count(*)::int as n from bookings where status = 'CONFIRMED'`,
    );
    return { problems, confirmed: paid.rows[0]!.n };
  } finally {
    await client.end();
  }
}

const alive = (server: ServerProcess) => server.child.exitCode === null && server.child.signalCode === null;

describe.skipIf(!canRunPrivatePostgres)('PostgreSQL killed and restarted under load', () => {
  it('answers 503 with Retry-After meanwhile, never a reset or a 500, comes back by itself, loses and doubles nothing', async () => {
    const database: PrivatePostgres = await startPrivatePostgres();
    cleanups.push(() => database.destroy());
    const server = await startServerProcess({
      ...adminEnv,
      DATABASE_URL: database.url,
      DB_CONNECT_TIMEOUT_MS: '1000',
    });
    cleanups.push(() => server.stop());
    const world = await makeWorld(server.url, 8);
    const tally = newTally();
    const traffic = runTraffic(server.url, world, tally);

    await wait(2000);
    // A crash of the database: every connection drops in the middle of holds and payments; down for 3 s.
    await database.kill();
    const killedAt = Date.now();
    await wait(3000);
    const before = tally.statuses[503] ?? 0;
    // The hosted checkout page says so in HTML.
    const page = await call(server.url, 'GET', `/api/pay/local/${crypto.randomUUID()}`);
    await database.start();
    const backAt = Date.now();
    await wait(3000);
    // A fast restart: connections are terminated, PostgreSQL comes straight back.
    const restartAt = Date.now();
    await database.restart();
    await wait(3000);
    await traffic.stop();

    expect(alive(server)).toBe(true);
    expect(tally.unanswered).toEqual([]);
    expect(serverErrors(tally)).toBe(0);
    expect(before).toBeGreaterThan(0);
    expect(tally.bad503).toEqual([]);
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('Checkout briefly unavailable');
    const recovered = recoveryMs(tally, backAt);
    expect(recovered).not.toBeNull();
    expect(recovered!).toBeLessThan(5000);
    expect(recoveryMs(tally, restartAt)).not.toBeNull();
    expect(tally.holds.length).toBeGreaterThan(10);
    expect(tally.payments.length).toBeGreaterThan(0);

    // Health says the database is back; the outage was logged once per outage, not once per request.
    const health = await call(server.url, 'GET', '/api/health');
    expect(health.status).toBe(200);
    const outages = server.output().split('the database is unavailable').length - 1;
    expect(outages).toBeGreaterThanOrEqual(1);
    expect(outages).toBeLessThanOrEqual(2);
    expect(server.output()).not.toContain('request failed');

    const { problems } = await checkDatabase(database.url, tally);
    expect(problems).toEqual([]);
    console.info(
      `PostgreSQL outage: ${tally.sent} requests, all answered; ${tally.statuses[503] ?? 0} × 503; ` +
        `holds again ${recovered} ms after the database was back (down ${backAt - killedAt} ms), ` +
        `${tally.holds.length} holds and ${tally.payments.length} payments acknowledged, none lost or doubled`,
    );
  }, 90_000);
});

const workerPids = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0)
    .sort();

describe.skipIf(!hasRedisServer || !postgresUrl)('Redis killed under load with WORKERS=2', () => {
  afterAll(() => undefined);

  it('keeps both workers, answers everything, resyncs every open seat map and carries updates again', async () => {
    const redis: PrivateRedis = await startPrivateRedis();
    cleanups.push(() => redis.stop());
    const fresh = await createPostgresDatabase();
    cleanups.push(() => fresh.drop());
    const server = await startServerProcess({
      ...adminEnv,
      WORKERS: '2',
      DATABASE_URL: fresh.url,
      REDIS_URL: redis.url,
    });
    cleanups.push(() => server.stop());
    const until = Date.now() + 30_000;
    while (workerPids(server.pid).length < 2 && Date.now() < until) await wait(100);
    const workers = workerPids(server.pid);
    expect(workers).toHaveLength(2);
    const world = await makeWorld(server.url, 6);

    // Six open seat maps, spread over both workers by the primary.
    const sockets: Socket[] = [];
    const resynced = new Set<Socket>();
    const updates = new Map<Socket, number>();
    for (let i = 0; i < 6; i++) {
      const socket = connect(server.url, { transports: ['websocket'], forceNew: true });
      cleanups.push(async () => socket.close());
      socket.on(SOCKET_EVENTS.seatsResync, () => resynced.add(socket));
      socket.on(SOCKET_EVENTS.seatsUpdate, () => updates.set(socket, (updates.get(socket) ?? 0) + 1));
      const ack = await new Promise<{ ok: boolean }>((resolve) =>
        socket.emit(SOCKET_EVENTS.joinShowtime, world.showtimeId, resolve),
      );
      expect(ack.ok).toBe(true);
      sockets.push(socket);
    }

    const tally = newTally();
    const traffic = runTraffic(server.url, world, tally);
    await wait(2000);
    await redis.kill();
    const killedAt = Date.now();
    await wait(5000);
    await redis.start();
    const backAt = Date.now();
    // Every open seat map is told to read itself again.
    const deadline = Date.now() + 15_000;
    while (resynced.size < sockets.length && Date.now() < deadline) await wait(100);
    const resyncMs = Date.now() - backAt;
    await traffic.stop();

    expect(workerPids(server.pid)).toEqual(workers);
    expect(alive(server)).toBe(true);
    expect(tally.unanswered).toEqual([]);
    expect(serverErrors(tally)).toBe(0);
    expect(tally.bad503).toEqual([]);
    expect(resynced.size).toBe(sockets.length);

    // Live updates cross workers again: one hold reaches every open seat map.
    updates.clear();
    const seat = world.seats.at(-1)!;
    // A customer of their own: the traffic's customers may already hold as many seats as one may (a 409 hold_limit).
    const newcomer = await call(server.url, 'POST', '/api/auth/register', {
      body: {
        name: 'Late Customer',
        email: `outage-late-${Date.now()}@example.com`,
        password: 'Popcorn#2026',
      },
    });
    expect(newcomer.status).toBe(201);
    const hold = await call(server.url, 'POST', `/api/showtimes/${world.showtimeId}/hold`, {
      token: newcomer.body.token as string,
      body: { seatIds: [seat] },
    });
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const heard = Date.now() + 5000;
    while (updates.size < sockets.length && Date.now() < heard) await wait(50);
    expect(updates.size).toBe(sockets.length);

    // The seat map shows the hold whichever worker answers.
    for (let i = 0; i < 4; i++) {
      const map = await call(server.url, 'GET', `/api/showtimes/${world.showtimeId}/seats`);
      expect(map.body.seats.find((s: { id: string }) => s.id === seat).status).toBe('HELD');
    }
    // Every connection to Redis is back (each retries on its own, at most 2 s apart).
    let health = await call(server.url, 'GET', '/api/health');
    for (let i = 0; i < 20 && health.status !== 200; i++) {
      await wait(250);
      health = await call(server.url, 'GET', '/api/health');
    }
    expect(health.body.checks).toMatchObject({ database: 'up', redis: 'up' });

    const { problems } = await checkDatabase(fresh.url, tally);
    expect(problems).toEqual([]);
    console.info(
      `Redis outage (WORKERS=2): ${tally.sent} requests, all answered, ${tally.statuses[503] ?? 0} × 503, ` +
        `no worker died; down ${backAt - killedAt} ms, every open seat map resynced within ${resyncMs} ms`,
    );
  }, 90_000);
});

describe.skipIf(!hasRedisServer)('Redis away at start', () => {
  it('starts without it, naming REDIS_URL, reports it down, and uses it once it answers', async () => {
    const port = await freePort();
    const started = Date.now();
    // A data directory on disk, so the harness starts it from a migrated copy (memory:// runs initdb each time).
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cinema-redis-away-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startServerProcess(
      { ...adminEnv, DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${port}` },
      { timeoutMs: 60_000 },
    );
    cleanups.push(() => server.stop());
    const startMs = Date.now() - started;
    expect(server.output()).toContain('REDIS_URL');
    const down = await call(server.url, 'GET', '/api/health');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBeTruthy();
    expect(down.body).toMatchObject({
      code: 'service_unavailable',
      checks: { database: 'up', redis: 'down' },
    });
    // Everything else works meanwhile.
    const world = await makeWorld(server.url, 1);
    const hold = await call(server.url, 'POST', `/api/showtimes/${world.showtimeId}/hold`, {
      token: world.customers[0]!.token,
      body: { seatIds: [world.seats[0]] },
    });
    expect(hold.status).toBe(201);

    const redis = await startPrivateRedis(port);
    cleanups.push(() => redis.stop());
    const deadline = Date.now() + 15_000;
    let health = down;
    while (health.status !== 200 && Date.now() < deadline) {
      await wait(200);
      health = await call(server.url, 'GET', '/api/health');
    }
    if (health.status !== 200) console.error(server.output());
    expect(health.body).toMatchObject({ ok: true, checks: { database: 'up', redis: 'up' } });
    expect(alive(server)).toBe(true);
    console.info(`Redis away at start: listening after ${startMs} ms`);
  }, 90_000);
});

describe.skipIf(!canMountDisk)('a full disk under the embedded engine', () => {
  it('answers 503 (never hangs or 500s), reports the disk in health, and sells again once room is freed', async () => {
    const disk = mountSmallDisk(120);
    cleanups.push(() => disk.destroy());
    // Its data directory made on the small disk by the server itself, as an operator's first start makes it.
    const server = await startServerProcess(
      { ...adminEnv, DATA_DIR: `${disk.dir}/data` },
      { timeoutMs: 90_000, freshDataDir: true },
    );
    cleanups.push(() => server.stop());
    const world = await makeWorld(server.url, 4);
    const tally = newTally();
    const traffic = runTraffic(server.url, world, tally);
    await wait(1500);
    disk.fill();
    const filledAt = Date.now();
    // New accounts need new pages in the tables' files: with no room for them, they are refused with a 503.
    const signUps: number[] = [];
    // (A table's last page may have room for a few: sign-ups go on until one needs a new page.)
    for (let i = 0; i < 150 && !signUps.includes(503); i++) {
      const res = await call(server.url, 'POST', '/api/auth/register', {
        body: {
          name: `Full Disk ${i}`,
          email: `full-${i}-${Date.now()}@example.com`,
          password: 'Popcorn#2026',
        },
      });
      signUps.push(res.status);
    }
    await wait(1000);
    const full = await call(server.url, 'GET', '/api/health');
    const during503 = (tally.statuses[503] ?? 0) + signUps.filter((s) => s === 503).length;
    disk.free();
    const freedAt = Date.now();
    await wait(4000);
    await traffic.stop();

    expect(alive(server)).toBe(true);
    expect(tally.unanswered).toEqual([]);
    expect(serverErrors(tally)).toBe(0);
    expect(tally.bad503).toEqual([]);
    expect(signUps.every((s) => s === 201 || s === 503)).toBe(true);
    expect(during503).toBeGreaterThan(0);
    expect(full.status).toBe(503);
    expect(full.body.checks).toMatchObject({
      database: 'up',
      disk: 'down',
      diskFreeBytes: expect.any(Number),
    });
    const recovered = recoveryMs(tally, freedAt);
    expect(recovered).not.toBeNull();
    const health = await call(server.url, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body.checks).toMatchObject({ database: 'up', disk: 'up' });
    console.info(
      `Full disk (embedded): ${tally.sent} requests, all answered; ${during503} × 503 while full ` +
        `(${freedAt - filledAt} ms); holds again ${recovered} ms after room was freed`,
    );
  }, 150_000);
});
