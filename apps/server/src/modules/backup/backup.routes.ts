import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { conflict } from '../../errors.ts';
import { actorOf } from '../../plugins/auth.ts';
import { perUser } from '../../plugins/rate-limit.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { tidyBackup } from '../../../../../scripts/data-dir.mjs';

/**
 * A consistent copy of the embedded database while the server runs (`npm run backup`): PGlite's data directory as
 * a gzipped tarball, taken between transactions (no statement and no transaction is in flight while it is copied),
 * so restoring it is like starting after a crash at that instant: every committed change, none half done.
 * PostgreSQL is backed up with its own tools (pg_dump; see the README).
 */
export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/backup',
    {
      onRequest: app.requireAdmin,
      // Each is a copy of the whole database: a few a minute are plenty.
      config: { rateLimit: perUser(10, '1 minute') },
      schema: {
        tags: ['admin'],
        summary: 'A backup of the embedded database (a gzipped tarball for `npm run restore`)',
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const pglite = app.database.pglite;
      if (!pglite) throw conflict('This server runs on PostgreSQL: back it up with pg_dump (see the README)');
      const dump = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir('none'));
      // Relative member names and private modes, not PGlite's absolute names and world-writable files.
      const body = await tidyBackup(await dump.arrayBuffer());
      request.log.info({ bytes: body.length, by: request.user?.id }, 'database backup taken');
      // A copy of every customer's data left the server: the audit log says who took it and when.
      await recordAudit(app.database.db, actorOf(request), {
        action: 'database.backup',
        subjectType: 'database',
        after: { bytes: body.length },
      });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="cinema-backup-${stamp}.tar.gz"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
