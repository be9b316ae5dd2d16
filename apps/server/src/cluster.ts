import cluster from 'node:cluster';

/** More unexpected worker deaths than this within a minute stop the server instead of restarting them. */
const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * The primary of `WORKERS=n`: forks n copies of this server, which share its port (node:cluster hands each new
 * connection to the next worker). Calls `onListening` once all of them listen, replaces a worker that dies, and
 * on SIGINT/SIGTERM stops every worker gracefully before exiting.
 */
export function runWorkers(count: number, onListening: () => void): void {
  const alive = new Set<number>();
  const restarts: number[] = [];
  let listening = 0;
  let closing = false;

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker.id);
  };

  const stop = (signal: NodeJS.Signals, code: number) => {
    if (closing) return;
    closing = true;
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
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      console.error(`Workers keep stopping (the last with ${signal ?? `code ${code}`}): shutting down.`);
      stop('SIGTERM', 1);
      return;
    }
    console.error(`Worker ${worker.process.pid} stopped (${signal ?? `code ${code}`}); starting another.`);
    fork();
  });
  process.on('SIGINT', () => stop('SIGINT', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));

  for (let i = 0; i < count; i++) fork();
}
