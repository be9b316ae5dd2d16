import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type { SeatsUpdate } from '@cinema/contract';
import type { Customer, Hall } from './cinema.ts';
import { request } from './http.ts';
import { percentile, sleep } from './stats.ts';

export interface FanoutResult {
  clients: number;
  processes: number;
  holds: number;
  /** Milliseconds from the hold's 201 (as the holder saw it) to each client's seats_update; 0 when earlier. */
  p50: number;
  p99: number;
  max: number;
  /** The same, counted from the moment the hold request was sent (an upper bound on what a watcher waits). */
  fromRequestP50: number;
  fromRequestP99: number;
  /** Client × hold pairs where no seats_update arrived within 5 s. */
  missed: number;
}

async function openClient(base: string, showtimeId: string): Promise<Socket> {
  const socket = io(base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: 20_000,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const ack = (await socket.timeout(20_000).emitWithAck('join_showtime', showtimeId)) as { ok: boolean };
  if (!ack.ok) throw new Error(`join_showtime refused: ${JSON.stringify(ack)}`);
  return socket;
}

/**
 * Real-time fan-out: `clients` Socket.IO clients (WebSocket only) watching one showtime, spread evenly over the
 * given server processes; `holds` holds made one after another through the first process, each by its own
 * customer on seats nobody holds. For each, the time from its 201 to every client's seats_update.
 */
export async function fanOut(
  servers: string[],
  showtimeId: string,
  hall: Hall,
  holders: Customer[],
  opts: { clients: number; holds: number },
): Promise<FanoutResult> {
  const sockets: Socket[] = [];
  // holdIndex -> arrival times (performance.now()) of its seats_update at each client
  const arrivals = new Map<number, number[]>();
  const holdOfSeat = new Map<string, number>();
  try {
    for (let start = 0; start < opts.clients; start += 100) {
      const batch = Array.from({ length: Math.min(100, opts.clients - start) }, (_, i) =>
        openClient(servers[(start + i) % servers.length]!, showtimeId),
      );
      for (const socket of await Promise.all(batch)) {
        sockets.push(socket);
        socket.on('seats_update', (update: SeatsUpdate) => {
          const at = performance.now();
          const hold = holdOfSeat.get(update.seats[0]?.id ?? '');
          if (hold !== undefined && update.seats[0]!.status === 'HELD') arrivals.get(hold)!.push(at);
        });
      }
    }
    await sleep(500);

    const latencies: number[] = [];
    const fromRequest: number[] = [];
    let missed = 0;
    for (let k = 0; k < opts.holds; k++) {
      const row = hall.seatIds[k % hall.seatIds.length]!;
      const offset = 2 * Math.floor(k / hall.seatIds.length);
      const seatIds = [row[offset]!, row[offset + 1]!];
      seatIds.forEach((id) => holdOfSeat.set(id, k));
      arrivals.set(k, []);
      const sent = performance.now();
      const res = await request('POST', `${servers[0]}/api/showtimes/${showtimeId}/hold`, {
        token: holders[k]!.token,
        body: { seatIds },
      });
      if (res.status !== 201) throw new Error(`fan-out hold: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      const until = performance.now() + 5000;
      while (arrivals.get(k)!.length < sockets.length && performance.now() < until) await sleep(5);
      const got = arrivals.get(k)!;
      missed += sockets.length - got.length;
      for (const at of got) {
        latencies.push(Math.max(0, at - res.at));
        fromRequest.push(at - sent);
      }
      await sleep(100);
    }
    return {
      clients: sockets.length,
      processes: servers.length,
      holds: opts.holds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      fromRequestP50: percentile(fromRequest, 50),
      fromRequestP99: percentile(fromRequest, 99),
      missed,
    };
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
}
