import cluster from 'node:cluster';

/**
 * How long the primary waits before replacing a worker that died, given how many died in the last minute: at once
 * for the first, then doubling up to 30 s. It never gives up: a worker dying because a dependency is away (the
 * database at start) comes back when the dependency does.
 */
export function restartDelayMs(recentDeaths: number): number {
  if (recentDeaths <= 1) return 0;
  return Math.min(250 * 2 ** (recentDeaths - 2), 30_000);
}

/**
 * The primary of `WORKERS=n`: forks n copies of this server, which share its port (node:cluster hands each new
 * connection to the next worker). Calls `onListening` once all of them listen, replaces a worker that dies (with
 * backoff when they keep dying), and
 * on SIGINT/SIGTERM stops every worker gracefully before exiting.
 */
export function runWorkers(count: number, onListening: () => void): void {
  const alive = new Set<number>();
  const restarts: number[] = [];
  const pending = new Set<NodeJS.Timeout>();
  let listening = 0;
  let closing = false;

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker.id);
  };

  const stop = (signal: NodeJS.Signals, code: number) => {
    if (closing) return;
    closing = true;
    for (const timer of pending) clearTimeout(timer);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (alive.size === 0) process.exit(code);
    process.exitCode = code;
    // A worker's own shutdown gives up after 10 s; this is the last resort.
    setTimeout(() => process.exit(1), 15_000).unref();
  };

  cluster.on('listening', () => {
    if (++listening === count) onListening();
  });
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker.id);
    if (closing) {
      if (alive.size === 0) process.exit();
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts[0]! < now - 60_000) restarts.shift();
    const delay = restartDelayMs(restarts.length);
    console.error(
      `Worker ${worker.process.pid} stopped (${signal ?? `code ${code}`}); starting another${delay ? ` in ${(delay / 1000).toFixed(1)} s (${restarts.length} stopped in the last minute)` : ''}.`,
    );
    // Not unref'd: with every worker gone, this timer is what keeps the primary waiting to replace them.
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!closing) fork();
    }, delay);
    pending.add(timer);
  });
  process.on('SIGINT', () => stop('SIGINT', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));

  for (let i = 0; i < count; i++) fork();
}
