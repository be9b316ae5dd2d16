import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` every `everyMs` from ready until close. A run is never overlapped by the next one, the timer never
 * keeps the process alive, and a run in flight ends before close goes on (before the database closes). A failed
 * run is logged as a warning saying `what` failed; the next one comes on time.
 */
export function runPeriodically(
  app: FastifyInstance,
  everyMs: number,
  what: string,
  work: () => Promise<unknown>,
) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  const tick = () => {
    if (running) return;
    running = work()
      .catch((err) => app.log.warn({ err }, `${what} failed`))
      .finally(() => {
        running = null;
      });
  };

  app.addHook('onReady', async () => {
    timer = setInterval(tick, everyMs);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
}
