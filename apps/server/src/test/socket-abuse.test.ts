import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { SOCKET_EVENTS } from '@cinema/contract';
import { SOCKET_LIMITS } from '../plugins/socket-guard.ts';
import { createShowtimeFixture, type ShowtimeFixture } from './fixtures.ts';
import { createTestApp, engines, type TestApp } from './helpers.ts';
import { garbageJoins, joinFlood, slowReaders } from './reliability/socket-abuse.ts';

const MB = 1024 * 1024;
const rss = () => process.memoryUsage().rss;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

describe.each(engines)('socket abuse on %s', (engine) => {
  let t: TestApp;
  let url: string;
  let show: ShowtimeFixture;
  let other: ShowtimeFixture;

  beforeAll(async () => {
    t = await createTestApp(engine);
    show = await createShowtimeFixture(t.app.database.db, { rows: 20, cols: 30 });
    other = await createShowtimeFixture(t.app.database.db, { rows: 2, cols: 2 });
    url = await listen(t.app);
  });
  afterAll(() => t.close());

  it('answers joins with garbage (non-strings, objects, huge or unknown ids) with an error, never a room', async () => {
    const report = await garbageJoins(url, show.showtimeId);
    expect(report.accepted).toEqual([]);
    expect(report.unanswered).toBe(0);
    expect(report.realJoinWorked).toBe(true);
    expect(t.app.realtime.io.of('/').adapter.rooms.size).toBeLessThan(50);
  });

  it('stays responsive under a flood of joins, disconnects the flooders and still serves a polite client', async () => {
    const report = await joinFlood({
      url,
      showtimeIds: [show.showtimeId, other.showtimeId],
      clients: 5,
      durationMs: 3000,
      rss,
    });
    console.info(
      `join flood: ${report.joinsSent} joins from ${report.clients} clients; health p50 ${report.healthP50Ms} ms, max ${report.healthMaxMs} ms`,
    );
    expect(report.joinsSent).toBeGreaterThanOrEqual(report.clients * SOCKET_LIMITS.dropsBeforeDisconnect);
    expect(report.disconnected).toBe(report.clients);
    expect(report.health.failed).toBe(0);
    expect(report.health.answered).toBeGreaterThan(5);
    expect(report.politeJoinWorked).toBe(true);
  });

  it('cuts off clients that never read while seat updates pour out: memory stays bounded, readers keep up', async () => {
    const seats = show.allSeatIds.map((id) => ({ id, status: 'HELD' as const }));
    const report = await slowReaders({
      url,
      showtimeId: show.showtimeId,
      clients: 40,
      durationMs: 4000,
      rss,
      openOnServer: () => t.app.realtime.io.engine.clientsCount,
      // Every update names all 600 seats (about 25 kB): the worst a busy showtime could send.
      update: async () => {
        t.app.realtime.broadcastSeats({ showtimeId: show.showtimeId, seats });
        await new Promise((r) => setImmediate(r));
      },
    });
    const growth = (report.rssPeak! - report.rssBefore!) / MB;
    console.info(
      `slow readers: ${report.updatesSent} updates of 600 seats; RSS +${growth.toFixed(0)} MB; health max ${report.healthMaxMs} ms`,
    );
    // Unguarded, this run grew the process by over 600 MB.
    expect(growth).toBeLessThan(250);
    expect(report.openOnServerAfter).toBe(1);
    expect(report.readerKeptUp).toBe(true);
    expect(report.health.failed).toBe(0);
  });

  it(`caps sockets per address at ${SOCKET_LIMITS.maxSocketsPerAddress} (rate limits on)`, async () => {
    const sockets: Socket[] = [];
    try {
      const outcomes = await Promise.all(
        Array.from({ length: SOCKET_LIMITS.maxSocketsPerAddress + 10 }, () => {
          const s = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
          sockets.push(s);
          return new Promise<string>((resolve) => {
            s.once('connect', () => resolve('ok'));
            s.once('connect_error', (err) => resolve(err.message));
          });
        }),
      );
      expect(outcomes.filter((o) => o === 'ok').length).toBe(SOCKET_LIMITS.maxSocketsPerAddress);
      expect(outcomes.filter((o) => o === 'Too many connections').length).toBe(10);
    } finally {
      for (const s of sockets) s.disconnect();
    }
    // Once they are gone, the address may connect again.
    await new Promise((r) => setTimeout(r, 200));
    const again = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      again.once('connect', () => resolve());
      again.once('connect_error', reject);
    });
    const ack = await again.timeout(5000).emitWithAck(SOCKET_EVENTS.joinShowtime, show.showtimeId);
    expect(ack).toEqual({ ok: true });
    again.disconnect();
  });
});
