import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { auditLog } from '../../db/schema/index.ts';

/** Who did it: the signed-in staff member. */
export interface Actor {
  id: string;
  email: string;
}

export interface AuditRecord {
  /** `thing.verb`: `showtime.delete`, `order.refund`, `user.role`, … */
  action: string;
  subjectType: string;
  subjectId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Writes an entry of the audit log; call it inside the transaction of the change, so both stand or fall together. */
export async function recordAudit(q: Queryable, actor: Actor, entry: AuditRecord): Promise<void> {
  await q.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId ?? null,
    before: wellFormed(entry.before),
    after: wellFormed(entry.after),
  });
}

/**
 * A value as jsonb takes it: PostgreSQL refuses a lone UTF-16 surrogate in JSON text, so each becomes U+FFFD (the
 * audit entry must never be what fails a change).
 */
function wellFormed(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'string' ? v.replace(/\p{Cs}/gu, '\uFFFD') : v,
    ),
  );
}

const PAGE = 50;

/**
 * The audit log, newest first, 50 entries a page, optionally one action (or kind of thing: `order`) or one actor's.
 * Paged by the last entry seen (`before`: its id), so new entries do not shift the pages.
 */
export async function listAudit(
  db: Queryable,
  query: { action?: string; actor?: string; before?: string },
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  const conditions: (SQL | undefined)[] = [];
  if (query.action) {
    conditions.push(
      query.action.includes('.')
        ? eq(auditLog.action, query.action)
        : sql`${auditLog.action} like ${`${query.action}.%`}`,
    );
  }
  if (query.actor) conditions.push(eq(sql`lower(${auditLog.actorEmail})`, query.actor.trim().toLowerCase()));
  if (query.before) {
    // Exact to the microsecond: the entry's own time, not one rounded through a JavaScript Date.
    conditions.push(
      sql`(${auditLog.at}, ${auditLog.id}) < (select a.at, a.id from audit_log a where a.id = ${query.before})`,
    );
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(PAGE + 1);
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: r.actorEmail,
      action: r.action,
      subjectType: r.subjectType,
      subjectId: r.subjectId,
      before: r.before ?? null,
      after: r.after ?? null,
    })),
    next: rows.length > PAGE && last ? last.id : null,
  };
}
