import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';

/** True when the database answers a trivial query. */
export async function checkDatabase(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
