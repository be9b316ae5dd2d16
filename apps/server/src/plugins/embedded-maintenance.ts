import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { checkpointEmbeddedDatabase, maintainEmbeddedDatabase } from '../db/maintenance.ts';
import { runPeriodically } from '../periodic.ts';

/** How often the embedded engine is looked over: autovacuum's default nap between rounds. */
const EVERY_MS = 60_000;
/** How often it is checkpointed: PostgreSQL's default checkpoint_timeout. */
const CHECKPOINT_EVERY_MS = 5 * 60_000;

/**
 * On the embedded engine, vacuums and analyzes the tables that need it once a minute, and checkpoints every five
 * minutes (PostgreSQL's autovacuum and checkpointer take care of these on a server).
 */
export const embeddedMaintenance = fp(
  async function embeddedMaintenance(app: FastifyInstance) {
    if (app.database.engine !== 'pglite') return;
    runPeriodically(app, EVERY_MS, 'vacuuming the embedded database', async () => {
      const pass = await maintainEmbeddedDatabase(app.database.db);
      if (pass.vacuumed.length || pass.analyzed.length) app.log.debug(pass, 'embedded database maintained');
    });
    runPeriodically(app, CHECKPOINT_EVERY_MS, 'checkpointing the embedded database', () =>
      checkpointEmbeddedDatabase(app.database.db),
    );
  },
  { name: 'embedded-maintenance', dependencies: ['db'] },
);
