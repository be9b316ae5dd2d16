import { z } from 'zod';

/** Every id in the API is a UUID; a malformed one is a 400, never a database error. */
export const IdSchema = z.uuid({ message: 'Invalid id' });
export type Id = z.infer<typeof IdSchema>;

export const IdParamsSchema = z.object({ id: IdSchema });
export type IdParams = z.infer<typeof IdParamsSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof OkSchema>;

/**
 * Unicode's text-direction overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069): in a name shown to
 * others they can make "Bob\u202Eexe.pdf" read as something else. Marks that only hint a direction (U+200E, U+200F,
 * U+061C) are ordinary text and stay allowed.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
/**
 * Control characters (C0 with tab, CR and LF; DEL; C1) and the Unicode line and paragraph separators: a one-line text
 * carrying them breaks lines where it is shown (a bare CR in a calendar file's SUMMARY, a PDF, a CSV, a log line).
 */
export const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;
/** Half of a UTF-16 surrogate pair on its own: no character at all (and refused by PostgreSQL's jsonb). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The checks of a one-line text: one line, no direction overrides, real characters. */
const oneLine = (text: z.ZodString, what: string) =>
  text
    .refine((t) => !CONTROL_CHARACTERS.test(t), `${what} must be one line, without control characters`)
    .refine((t) => !BIDI_CONTROLS.test(t), `${what} must not contain text-direction override characters`)
    .refine((t) => !LONE_SURROGATE.test(t), `${what} is not valid text`);

/** A one-line text a person types and others read (a name, a title): trimmed, 1..max long, no direction overrides. */
export const DisplayTextSchema = (what: string, max: number) =>
  oneLine(z.string().trim().min(1, `${what} is required`).max(max, `${what} is too long`), what);

/** The same, where it may be left empty (a rating, a reason). */
export const OneLineTextSchema = (what: string, max: number) =>
  oneLine(z.string().trim().max(max, `${what} is too long`), what);

/** What any client may know of this cinema's configuration (`GET /api/settings`). */
export const SettingsSchema = z.object({
  /** Payments go through the built-in test checkout: "Test mode: no real payments". */
  testMode: z.boolean(),
  /** ISO 4217 code of every price. */
  currency: z.string(),
  /** How long a hold lasts before checkout, and how many seats one customer may hold at once. */
  holdMinutes: z.number(),
  maxHeldSeats: z.number().int(),
  /** The IANA time zone of the cinema's clocks (CINEMA_TIME_ZONE): schedules are entered and shown in it. */
  timeZone: z.string(),
  /** The age ratings movies are certified in (RATING_SYSTEM): MPAA, BBFC, FSK, ACB or ICAA. */
  ratingSystem: z.string().optional(),
  /** The ISO weekday film weeks start on (FILM_WEEK_START; Monday 1 … Sunday 7, Friday 5 by default). */
  filmWeekStart: z.number().int().min(1).max(7).optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** One entry of the audit log (`GET /api/admin/audit`). */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The staff member's email. */
  actor: z.string(),
  action: z.string(),
  subjectType: z.string(),
  subjectId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditQuerySchema = z.object({
  action: z.string().trim().max(60).optional(),
  actor: z.string().trim().max(200).optional(),
  /** The `next` of the previous page: the id of its last entry. */
  before: IdSchema.optional(),
});
export const AuditResponseSchema = z.object({
  entries: z.array(AuditEntrySchema),
  next: z.string().nullable(),
});
export type AuditResponse = z.infer<typeof AuditResponseSchema>;
