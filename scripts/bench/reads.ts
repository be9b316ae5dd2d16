import autocannon from 'autocannon';

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
  connections: number;
  seconds: number;
}

async function hammer(url: string, connections: number, seconds: number, token?: string): Promise<RouteRate> {
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

/**
 * Seat-map reads against the cheapest route of the same process: GET /api/health/live (no database, no
 * session) and GET /api/showtimes/{id}/seats (600 seats, as a signed-in customer), after a short warm-up, taking
 * turns (half the time each, twice) so that a change in the machine's other load weighs on both alike.
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
  return {
    bare: combine(bare1, bare2),
    seatMap: combine(seat1, seat2),
    connections: opts.connections,
    seconds: half * 2,
  };
}
