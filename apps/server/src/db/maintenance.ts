import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './database.ts';

// PostgreSQL's own autovacuum rule with its default settings: a table is vacuumed once its dead rows exceed
// 50 + 20% of its live rows, and analyzed once the rows changed since its last ANALYZE exceed 50 + 10%.
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE_FACTOR = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

export interface MaintenancePass {
  /** Tables given VACUUM (ANALYZE). */
  vacuumed: string[];
  /** Tables given ANALYZE alone. */
  analyzed: string[];
}

interface TableActivity {
  name: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * One pass of what autovacuum does on a PostgreSQL server, for the embedded engine: PGlite runs PostgreSQL as a
 * single backend without its background workers, so without this its tables would keep every dead row (each hold
 * that expires, is cancelled or is paid leaves one) and its planner would keep the statistics of the day the tables
 * were empty.
 */
export async function maintainEmbeddedDatabase(db: Db): Promise<MaintenancePass> {
  const rows = await queryRows<TableActivity>(
    db,
    sql`select relname as name,
               n_dead_tup > ${VACUUM_THRESHOLD}::float8 + ${VACUUM_SCALE_FACTOR}::float8 * n_live_tup as vacuum,
               n_mod_since_analyze > ${ANALYZE_THRESHOLD}::float8 + ${ANALYZE_SCALE_FACTOR}::float8 * n_live_tup
                 as analyze
          from pg_stat_user_tables
         where schemaname = 'public'
         order by relname`,
  );
  const pass: MaintenancePass = { vacuumed: [], analyzed: [] };
  for (const table of rows) {
    if (table.vacuum) {
      await db.execute(sql`vacuum (analyze) ${sql.identifier(table.name)}`);
      pass.vacuumed.push(table.name);
    } else if (table.analyze) {
      await db.execute(sql`analyze ${sql.identifier(table.name)}`);
      pass.analyzed.push(table.name);
    }
  }
  return pass;
}

/**
 * A checkpoint of the embedded engine: PGlite has no checkpointer process, so without this its write-ahead log only
 * grows (about 4 MB a minute at 50 requests a second). A checkpoint writes the changed pages to the tables' files
 * and lets PostgreSQL recycle the log before it.
 */
export async function checkpointEmbeddedDatabase(db: Db): Promise<void> {
  await db.execute(sql`checkpoint`);
}
