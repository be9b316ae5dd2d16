import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { maintainEmbeddedDatabase } from '../db/maintenance.ts';

/** How often the embedded engine is looked over: autovacuum's default nap between rounds. */
const EVERY_MS = 60_000;

/**
 * On the embedded engine, vacuums and analyzes the tables that need it once a minute (PostgreSQL's autovacuum
 * takes care of this on a server). The timer never keeps the process alive; a pass in flight ends before close.
 */
export const embeddedMaintenance = fp(async function embeddedMaintenance(app: FastifyInstance) {
  if (app.database.engine !== 'pglite') return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  const tick = () => {
    if (running) return;
    running = maintainEmbeddedDatabase(app.database.db)
      .then((pass) => {
        if (pass.vacuumed.length || pass.analyzed.length) app.log.debug(pass, 'embedded database maintained');
      })
      .catch((err) => app.log.warn({ err }, 'vacuuming the embedded database failed'))
      .finally(() => {
        running = null;
      });
  };

  app.addHook('onReady', async () => {
    timer = setInterval(tick, EVERY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  });
});
