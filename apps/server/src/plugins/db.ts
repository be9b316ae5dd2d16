import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

/** Makes the opened database available to services and closes it last on shutdown. */
export const dbPlugin = fp(
  async function dbPlugin(app: FastifyInstance, opts: { database: Database }) {
    app.decorate('database', opts.database);
    app.addHook('onClose', async () => {
      await opts.database.close();
    });
  },
  { name: 'db' },
);
