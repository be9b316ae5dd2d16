// CPU time from /proc, so that a figure can be divided into what each process spent on it: the server (and its
// workers), the PostgreSQL backends of the benchmark's database, the benchmark itself and everything else the
// machine did meanwhile (other work on shared cores).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in seconds (0 once it is gone). */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** A process and its descendants (the cluster's workers). */
function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${all[i]}/task`)) {
        const children = readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8').trim();
        if (children) all.push(...children.split(' ').map(Number));
      }
    } catch {
      // gone
    }
  }
  return all;
}

/** Busy and total CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = v[3]! + (v[4] ?? 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

export interface CpuUse {
  wallSeconds: number;
  /** CPU seconds of the server process and its workers. */
  server: number;
  /** CPU seconds of the PostgreSQL backends connected to the benchmark's database. */
  postgres: number;
  /** CPU seconds of the benchmark's own process (the load generator). */
  bench: number;
  /** CPU seconds of everything else on the machine (other work on the shared cores, PostgreSQL's own processes). */
  others: number;
  cores: number;
}

/**
 * Starts counting; `stop` returns what each spent since. `backends` lists the PostgreSQL backends of the
 * benchmark's database (their process ids).
 */
export async function cpuMeter(serverPid: number, backends: () => Promise<number[]> = async () => []) {
  const serverPids = processTree(serverPid);
  const serverStart = new Map(serverPids.map((p) => [p, processCpu(p)]));
  const pgStart = new Map((await backends()).map((p) => [p, processCpu(p)]));
  const benchStart = process.cpuUsage();
  const machineStart = machineCpu();
  const started = performance.now();
  return {
    async stop(): Promise<CpuUse> {
      const wallSeconds = (performance.now() - started) / 1000;
      const bench = process.cpuUsage(benchStart);
      const machine = machineCpu();
      const server = processTree(serverPid).reduce(
        (n, p) => n + processCpu(p) - (serverStart.get(p) ?? 0),
        0,
      );
      const postgres = (await backends()).reduce((n, p) => n + processCpu(p) - (pgStart.get(p) ?? 0), 0);
      const benchSeconds = (bench.user + bench.system) / 1e6;
      return {
        wallSeconds,
        server,
        postgres,
        bench: benchSeconds,
        others: Math.max(0, machine.busy - machineStart.busy - server - postgres - benchSeconds),
        cores: os.cpus().length,
      };
    },
  };
}

/**
 * Waits until the server (and its workers) has been idle for half a second, using under a tenth of a core: the
 * confirmation emails of the last round's payments are written in the background, one at a time, and a round
 * timed while they are still drawn measures them too. With several servers measured in turns, all of them: a
 * round started while the other server still drew its emails ran slower (every round after a change of server,
 * 2026-11-24). Gives up after `maxMs`.
 */
export async function settle(serverPids: number | number[], maxMs = 20_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  const pids = [serverPids].flat();
  for (;;) {
    const cpu = () => pids.flatMap(processTree).reduce((n, p) => n + processCpu(p), 0);
    const before = cpu();
    await new Promise((r) => setTimeout(r, 500));
    if (cpu() - before < 0.05 || performance.now() > deadline) return;
  }
}
