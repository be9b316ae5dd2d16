import type { Transporter } from 'nodemailer';
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { OutboxMessage } from '@cinema/contract';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/database.ts';
import { mailOutbox, type StoredAttachment } from '../../db/schema/index.ts';
import { statusIs } from '../../db/status-is.ts';

/** What a module hands the mail module: one message, and its key when it must be sent once only. */
export interface MailMessage {
  kind:
    | 'order_confirmation'
    | 'refund_notice'
    | 'password_reset'
    | 'email_verification'
    | 'waitlist_offer'
    | 'gift_card';
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; contentType: string; content: Buffer; cid?: string }[];
  /** One message per key (e.g. `order_confirmation:<session id>`): a second call changes nothing. */
  dedupeKey?: string;
}

export type MailDeps = Pick<Deps, 'db' | 'config' | 'log'>;

/** Tries before a message is given up (`failed`); the pause doubles from 30 s up to an hour. */
export const MAIL_MAX_ATTEMPTS = 8;
const retryPauseSeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
/** How long one try may hold a claimed message before another process may try it. */
const CLAIM_SECONDS = 300;

const transports = new Map<string, Transporter>();
/** nodemailer (about 150 ms of CPU to import) is loaded by the first delivery, not by every start without SMTP_URL. */
async function transportFor(smtpUrl: string): Promise<Transporter> {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    const { default: nodemailer } = await import('nodemailer');
    transport = transports.get(smtpUrl);
    if (transport) return transport;
    const url = new URL(smtpUrl);
    transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      ...(url.username && {
        auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      }),
      // A slow or dead SMTP server must not hold a try (or the shutdown) for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transports.set(smtpUrl, transport);
  }
  return transport;
}

const inFlight = new Set<Promise<unknown>>();
/** The last piece of mail work queued: each runs after the one before it. */
let tail: Promise<unknown> = Promise.resolve();

/**
 * Runs mail work after the caller's transaction committed, without making the caller wait or fail: an error is
 * logged and the outbox keeps what was written (retried later when it was a delivery). One piece at a time, in
 * order: during an on-sale rush, hundreds of confirmations (QR codes drawn, the outbox written) would otherwise run
 * at once and take the database pool and the CPU from the holds and payments themselves.
 */
export function inBackground(deps: Pick<Deps, 'log'>, what: string, work: () => Promise<unknown>): void {
  const run = tail
    .then(() => new Promise((resolve) => setImmediate(resolve)))
    .then(work)
    .catch((err) => deps.log.warn({ err }, `${what} failed`))
    .finally(() => inFlight.delete(run));
  tail = run;
  inFlight.add(run);
}

/** Waits (at most `timeoutMs`) for the mail work started so far: before close, and in tests. */
export async function settleMail(timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (inFlight.size > 0 && Date.now() < deadline) {
    await Promise.race([
      Promise.allSettled([...inFlight]),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref()),
    ]);
  }
}

/**
 * Writes a message to the outbox and, with SMTP_URL, sends it right after (not awaited: a slow SMTP server never
 * holds up the caller); a failed send stays `pending` and is retried. Returns the outbox id, or null when a
 * message with the same dedupe key was written before.
 */
export async function queueMail(deps: MailDeps, message: MailMessage): Promise<string | null> {
  const id = await writeMail(deps, message);
  if (id) sendSoon(deps, id);
  return id;
}

/**
 * Writes a message to the outbox on `db` (the database, or a transaction the caller commits), to be sent by
 * `sendSoon` or the periodic retry. Returns the outbox id, or null when a message with the same dedupe key was
 * written before (or is being written by a transaction not yet committed: this one waits for it).
 */
export async function writeMail(
  deps: MailDeps,
  message: MailMessage,
  db: Queryable = deps.db,
): Promise<string | null> {
  const smtp = deps.config.smtpUrl;
  const attachments: StoredAttachment[] = (message.attachments ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    ...(smtp && { content: a.content.toString('base64') }),
    ...(a.cid && { cid: a.cid }),
  }));
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: message.kind,
      dedupeKey: message.dedupeKey ?? null,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      attachments,
      status: smtp ? 'pending' : 'stored',
      nextAttemptAt: smtp ? sql`now()` : null,
    })
    .onConflictDoNothing()
    .returning({ id: mailOutbox.id });
  return row?.id ?? null;
}

/** With SMTP_URL, sends a message written to the outbox (committed) in the background, as queueMail does. */
export function sendSoon(deps: MailDeps, id: string): void {
  if (deps.config.smtpUrl) inBackground(deps, 'sending an email', () => deliverMail(deps, id));
}

/**
 * One try at a pending message that is due: claimed first (so two processes never send it twice at once), sent
 * over SMTP, then `sent`; a failure is kept with its error and tried again after a pause, `failed` after the
 * last try. Returns whether it was sent.
 */
export async function deliverMail(deps: MailDeps, id: string): Promise<boolean> {
  const smtp = deps.config.smtpUrl;
  if (!smtp) return false;
  const [claimed] = await deps.db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
    })
    // By its key: the status as `is true`, or a planner that analyzed the outbox with nothing waiting walks every
    // waiting message for each one claimed (3,000 entries a claim after an SMTP outage; decision 029).
    .where(
      and(
        eq(mailOutbox.id, id),
        statusIs(mailOutbox.status, 'pending'),
        lte(mailOutbox.nextAttemptAt, sql`now()`),
      ),
    )
    .returning();
  if (!claimed) return false;
  try {
    const transport = await transportFor(smtp);
    await transport.sendMail({
      from: deps.config.mailFrom,
      to: claimed.to,
      subject: claimed.subject,
      text: claimed.text,
      html: claimed.html,
      attachments: claimed.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: Buffer.from(a.content ?? '', 'base64'),
        ...(a.cid && { cid: a.cid, contentDisposition: 'inline' as const }),
      })),
    });
  } catch (err) {
    const last = claimed.attempts >= MAIL_MAX_ATTEMPTS;
    await deps.db
      .update(mailOutbox)
      .set({
        status: last ? 'failed' : 'pending',
        lastError: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500),
        nextAttemptAt: last
          ? null
          : sql`now() + make_interval(secs => ${retryPauseSeconds(claimed.attempts)})`,
      })
      .where(eq(mailOutbox.id, id));
    deps.log.warn({ err, outboxId: id, attempts: claimed.attempts }, 'email not sent; it will be retried');
    return false;
  }
  await deps.db
    .update(mailOutbox)
    .set({
      status: 'sent',
      sentAt: sql`now()`,
      lastError: null,
      nextAttemptAt: null,
      attachments: sql`(select coalesce(jsonb_agg(a - 'content' order by i), '[]'::jsonb)
        from jsonb_array_elements(${mailOutbox.attachments}) with ordinality e(a, i))`,
    })
    .where(eq(mailOutbox.id, id));
  return true;
}

/** Tries every pending message that is due (the periodic retry); returns how many were sent. */
export async function deliverDueMail(deps: MailDeps, limit = 50): Promise<number> {
  if (!deps.config.smtpUrl) return 0;
  const due = await deps.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(mailOutbox.nextAttemptAt)
    .limit(limit);
  let sent = 0;
  for (const { id } of due) if (await deliverMail(deps, id)) sent++;
  return sent;
}

export const OUTBOX_PAGE = 50;

/** The outbox for admins, newest first, a page at a time (attachments by name and type only). */
export async function listOutbox(
  deps: Pick<Deps, 'db'>,
  page: number,
): Promise<{ messages: OutboxMessage[]; nextPage: number | null }> {
  const rows = await deps.db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(OUTBOX_PAGE + 1)
    .offset((page - 1) * OUTBOX_PAGE);
  return {
    messages: rows.slice(0, OUTBOX_PAGE).map((r) => ({
      id: r.id,
      kind: r.kind,
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      attachments: r.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
      status: r.status,
      attempts: r.attempts,
      lastError: r.lastError,
      createdAt: r.createdAt.toISOString(),
      sentAt: r.sentAt?.toISOString() ?? null,
    })),
    nextPage: rows.length > OUTBOX_PAGE ? page + 1 : null,
  };
}
