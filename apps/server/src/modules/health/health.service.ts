import { statfs } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';

/** True when the database answers a trivial query within `timeoutMs`. */
export async function checkDatabase(db: Db, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      db.execute(sql`select 1`).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Below this much free space where the embedded database writes, the disk is reported as down. */
export const DISK_MIN_FREE_BYTES = 64 * 1024 * 1024;

export interface DiskCheck {
  ok: boolean;
  freeBytes: number;
}

/** Free space on the file system holding `dir` (the embedded database's data directory). */
export async function checkDisk(dir: string, minFreeBytes = DISK_MIN_FREE_BYTES): Promise<DiskCheck> {
  try {
    const fs = await statfs(dir);
    const freeBytes = fs.bavail * fs.bsize;
    return { ok: freeBytes >= minFreeBytes, freeBytes };
  } catch {
    return { ok: false, freeBytes: 0 };
  }
}
