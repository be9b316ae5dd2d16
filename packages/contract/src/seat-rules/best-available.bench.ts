// Micro-benchmark for bestAvailable (DESIGN §6.2: under 2 ms for a 1,000-seat hall). A hall of 25 rows of 40
// seats with two aisles (10 | 20 | 10), premium rows at the back third, sofa pairs in the last row and wheelchair
// spaces with companions at the ends of row A; half the seats taken at random. The caller brings the random source
// (the bench's seededRandom from apps/server/src/modules/demo, so every run measures the same halls). Each request
// asks for 1 to 10 seats, now and then of a type.
import { bestAvailable, type BestAvailableOptions } from './best-available.ts';
import type { RuleCell, RuleRow, SeatType } from './types.ts';

// The contract is compiled without DOM or Node types; both provide this clock.
declare const performance: { now(): number };

/** A 1,000-seat hall with about `takenShare` of its seats taken (`random` gives numbers in [0, 1)). */
export function thousandSeatHall(random: () => number, takenShare = 0.5): RuleRow[] {
  return Array.from({ length: 25 }, (_, r) => {
    const label = String.fromCharCode(65 + r);
    const cells: RuleCell[] = [];
    for (let seat = 1; seat <= 40; seat++) {
      if (seat === 11 || seat === 31) cells.push({ kind: 'GAP' });
      let type: SeatType = r >= 16 ? 'PREMIUM' : 'STANDARD';
      if (r === 24) type = 'SOFA';
      if (r === 0 && (seat <= 2 || seat >= 39)) type = seat === 1 || seat === 40 ? 'WHEELCHAIR' : 'COMPANION';
      const pairId = type === 'SOFA' ? `${label}-${Math.ceil(seat / 2)}` : undefined;
      cells.push({ kind: 'SEAT', id: `${label}${seat}`, type, pairId, state: 'free' });
    }
    // Sofa pairs are sold whole, so a pair is taken whole; every other seat on its own.
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      if (cell.kind !== 'SEAT' || random() >= takenShare) continue;
      cell.state = 'taken';
      const partner = cells[i + 1];
      if (cell.pairId && partner?.kind === 'SEAT' && partner.pairId === cell.pairId) {
        partner.state = 'taken';
        i++;
      }
    }
    return cells;
  });
}

/** Times `requests` calls of bestAvailable on twenty 1,000-seat halls, half taken; milliseconds per call. */
export function measureBestAvailable(
  random: () => number,
  requests = 2000,
): { p50Ms: number; p99Ms: number; maxMs: number } {
  const halls = Array.from({ length: 20 }, () => thousandSeatHall(random));
  const types: (SeatType | undefined)[] = [
    undefined,
    undefined,
    undefined,
    undefined,
    'PREMIUM',
    'WHEELCHAIR',
  ];
  const request = (k: number): [RuleRow[], number, BestAvailableOptions] => [
    halls[k % halls.length]!,
    1 + (k % 10),
    { type: types[k % types.length] },
  ];
  for (let k = 0; k < 200; k++) bestAvailable(...request(k)); // warm up the JIT
  const times: number[] = [];
  for (let k = 0; k < requests; k++) {
    const args = request(k);
    const started = performance.now();
    bestAvailable(...args);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
  return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times[times.length - 1]! };
}
