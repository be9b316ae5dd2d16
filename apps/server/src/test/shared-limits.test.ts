import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { SOCKET_LIMITS } from '../plugins/socket-guard.ts';
import { createTestApp, redisUrl, type TestApp } from './helpers.ts';

// DESIGN §6.1: with REDIS_URL every request-rate limit and the socket limits are one budget shared by all processes,
// and every per-address limit uses the client address after TRUST_PROXY, sockets included.

const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** Opens a socket as a browser behind the proxy would: resolves true once connected, false when refused. */
function openSocket(url: string, forwardedFor: string, sockets: Socket[]): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: { 'x-forwarded-for': forwardedFor },
    });
    sockets.push(socket);
    socket.once('connect', () => resolve(true));
    socket.once('connect_error', () => resolve(false));
  });
}

describe('socket limits behind a trusted proxy (one process)', () => {
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await createTestApp('pglite', { TRUST_PROXY: '1' });
    url = await listen(t.app);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  it('counts each browser by its forwarded address: 120 browsers behind one proxy all get live updates', async () => {
    const opened = await Promise.all(
      Array.from({ length: 120 }, () => openSocket(url, someAddress(), sockets)),
    );
    expect(opened.filter(Boolean)).toHaveLength(120);
  });

  it('still caps one client address at its limit', async () => {
    const address = someAddress();
    const opened = await Promise.all(
      Array.from({ length: SOCKET_LIMITS.maxSocketsPerAddress + 5 }, () => openSocket(url, address, sockets)),
    );
    expect(opened.filter(Boolean)).toHaveLength(SOCKET_LIMITS.maxSocketsPerAddress);
  });
});

describe.skipIf(!redisUrl)('one budget for every process through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let urls: string[];
  const sockets: Socket[] = [];
  beforeAll(async () => {
    const env = { TRUST_PROXY: '1', REDIS_URL: redisUrl! };
    [a, b] = await Promise.all([createTestApp('pglite', env), createTestApp('pglite', env)]);
    urls = [await listen(a.app), await listen(b.app)];
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('refuses the 31st sign-in a minute from one address whichever process answers', async () => {
    const from = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await (i % 2 ? b : a).app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `nobody-${i}@example.com`, password: 'Wrong#Password1' },
        remoteAddress: from,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    // Another address still has its whole budget.
    const other = await b.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'Wrong#Password1' },
      remoteAddress: someAddress(),
    });
    expect(other.statusCode).toBe(401);
  });

  it('lets one address open 100 sockets across both processes, not 100 on each', async () => {
    const address = someAddress();
    const opened = await Promise.all(
      Array.from({ length: 120 }, (_, i) => openSocket(urls[i % 2]!, address, sockets)),
    );
    expect(opened.filter(Boolean)).toHaveLength(SOCKET_LIMITS.maxSocketsPerAddress);
    // Closing sockets gives their places back.
    const open = sockets.filter(
      (s) => s.connected && s.io.opts.extraHeaders?.['x-forwarded-for'] === address,
    );
    for (const s of open.slice(0, 10)) s.disconnect();
    await new Promise((r) => setTimeout(r, 300));
    const again = await Promise.all(
      Array.from({ length: 12 }, (_, i) => openSocket(urls[i % 2]!, address, sockets)),
    );
    expect(again.filter(Boolean)).toHaveLength(10);
  });
});
