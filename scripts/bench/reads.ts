import http from 'node:http';
import autocannon from 'autocannon';
import { sleep } from './stats.ts';

export interface RouteRate {
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  bytesPerSecond: number;
  failed: number;
}

export interface ReadsResult {
  bare: RouteRate;
  seatMap: RouteRate;
  /** Bytes of the seat map's body as autocannon gets it, and as a browser (Accept-Encoding: gzip, …) gets it. */
  seatMapBytes: { plain: number; browser: number; browserEncoding: string };
  /** The bare route's body. */
  bareBytes: number;
  connections: number;
  seconds: number;
}

export async function hammer(
  url: string,
  connections: number,
  seconds: number,
  token?: string,
): Promise<RouteRate> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return {
    path: new URL(url).pathname,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerSecond: result.throughput.average,
    failed: result.non2xx + result.errors,
  };
}

function combine(a: RouteRate, b: RouteRate): RouteRate {
  return {
    path: a.path,
    requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    bytesPerSecond: (a.bytesPerSecond + b.bytesPerSecond) / 2,
    failed: a.failed + b.failed,
  };
}

/** One GET's body size in bytes (as sent, not decoded) and its Content-Encoding. */
export function bodyBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * The seat map as a browser gets it: gzipped once it has been read often (the server compresses a popular map in
 * the background and sends it as it is until then), so a few reads in a row.
 */
async function browserBytes(url: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br, zstd' };
  let read = await bodyBytes(url, headers);
  for (let i = 0; i < 20 && read.encoding === 'identity'; i++) {
    await sleep(5);
    read = await bodyBytes(url, headers);
  }
  return read;
}

/**
 * Seat-map reads against the cheapest route of the same process: GET /api/health/live (no database, no
 * session) and GET /api/showtimes/{id}/seats (600 seats, as a signed-in customer), after a short warm-up, taking
 * turns (half the time each, twice) so that a change in the machine's other load weighs on both alike. autocannon
 * sends no Accept-Encoding, so the map goes out uncompressed: autocannon decodes every body as UTF-8 text, which
 * for a gzipped body costs it (on the same cores) more than the smaller body saves the server.
 */
export async function seatMapReads(
  base: string,
  showtimeId: string,
  token: string,
  opts: { connections: number; seconds: number },
): Promise<ReadsResult> {
  const bareUrl = `${base}/api/health/live`;
  const seatUrl = `${base}/api/showtimes/${showtimeId}/seats`;
  const half = Math.max(1, Math.round(opts.seconds / 2));
  await hammer(bareUrl, opts.connections, 2);
  await hammer(seatUrl, opts.connections, 2, token);
  const bare1 = await hammer(bareUrl, opts.connections, half);
  const seat1 = await hammer(seatUrl, opts.connections, half, token);
  const seat2 = await hammer(seatUrl, opts.connections, half, token);
  const bare2 = await hammer(bareUrl, opts.connections, half);
  const plain = await bodyBytes(seatUrl, { authorization: `Bearer ${token}` });
  const browser = await browserBytes(seatUrl, token);
  const bareBody = await bodyBytes(bareUrl, {});
  return {
    bareBytes: bareBody.bytes,
    bare: combine(bare1, bare2),
    seatMap: combine(seat1, seat2),
    seatMapBytes: { plain: plain.bytes, browser: browser.bytes, browserEncoding: browser.encoding },
    connections: opts.connections,
    seconds: half * 2,
  };
}
