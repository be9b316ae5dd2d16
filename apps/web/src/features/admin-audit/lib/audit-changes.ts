import { formatDateTime, formatMoney } from '../../../lib/format';

export interface AuditChange {
  field: string;
  before: string | null;
  after: string | null;
  changed: boolean;
  /** A reference (id, movieId, auditoriumIds): shown apart, the names beside them say more. */
  reference: boolean;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** "startsAt" → "Starts at", "priceCents" → "Price", "auditoriumIds" → "Auditorium ids". */
export function fieldName(key: string): string {
  const words = key
    .replace(/Cents$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The words an entry is read with: field names and yes, no and an empty list, in the viewer's language. */
export interface AuditWords {
  field: (key: string) => string;
  yes: string;
  no: string;
  none: string;
}

const ENGLISH: AuditWords = { field: fieldName, yes: 'yes', no: 'no', none: '(none)' };

/** A value as a person reads it: money in the cinema's currency, instants on the given clocks, lists joined. */
export function readable(
  key: string,
  value: unknown,
  timeZone?: string,
  words: AuditWords = ENGLISH,
): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && /Cents$/.test(key)) return formatMoney(value);
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    return formatDateTime(value, { timeZone });
  }
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (Array.isArray(value)) {
    return value.every((v) => typeof v !== 'object' || v === null)
      ? value.map(String).join(', ') || words.none
      : JSON.stringify(value);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * An entry's before and after side by side, field by field (the fields of either, in their order), each marked
 * changed or not; a value that is not an object is one field, "Value".
 */
export function auditChanges(
  before: unknown,
  after: unknown,
  timeZone?: string,
  words: AuditWords = ENGLISH,
): AuditChange[] {
  const b = asRecord(before) ?? (before === null || before === undefined ? {} : { value: before });
  const a = asRecord(after) ?? (after === null || after === undefined ? {} : { value: after });
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys.map((key) => {
    const was = readable(key, b[key], timeZone, words);
    const is = readable(key, a[key], timeZone, words);
    return {
      field: words.field(key),
      before: was,
      after: is,
      changed: was !== is,
      reference: /^id$|Ids?$/.test(key),
    };
  });
}
