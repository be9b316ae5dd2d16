import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { mailOutbox, orders } from '../../db/schema/index.ts';
import { hashToken } from '../../plugins/auth.ts';
import { WALK_IN_EMAIL } from '../box-office/walk-in.ts';
import { sendGiftCards } from '../gift-cards/gift-card-mail.ts';
import { orderConfirmation, sendOrderConfirmation, sendRefundNotice, sendWaitlistOffer } from './messages.ts';
import { inBackground, sendSoon, writeMail, type MailDeps } from './outbox.service.ts';

/** How far back the sweep looks: payments and refunds of the last days (an email later than that helps nobody). */
export const MAIL_SWEEP_DAYS = 3;
/**
 * How long before its payment an order may have been created: a checkout is paid within a day (a Stripe session lasts
 * 24 h at most) and its webhook may come up to three days after that (Stripe's retries). The orders are found by
 * their creation time, which no update changes (decision 056).
 */
const CREATED_BEFORE_PAID_DAYS = 4;
/**
 * What the sweep leaves to the after-commit path: payments, refunds and offers younger than this, whose email is
 * probably being written right now (a rush queues hundreds of confirmations in each process).
 */
export const MAIL_SWEEP_GRACE_SECONDS = 60;
/** Orders, refunds and offers written again in one pass at most, of each kind (the next pass takes the rest). */
const PER_PASS = 100;

/** Something whose email was never written: an order's confirmation or gift cards, a refund notice, an offer. */
export type MissingMail =
  | { kind: 'order_confirmation'; orderId: string; guest: boolean }
  | { kind: 'gift_cards'; orderId: string }
  | { kind: 'refund_notice'; orderId: string; ref: string }
  | { kind: 'waitlist_offer'; offerId: string };

interface MissingRow {
  kind: MissingMail['kind'];
  id: string;
  ref: string | null;
  guest: boolean;
}

/**
 * What the after-commit path should have written and did not, in one statement on indexes (orders, gift cards and
 * refunds by created_at, open offers; each email by its dedupe key, looked up first), with the rules that
 * path follows:
 * - a paid order with no `order_confirmation:<order>`, a ticket or item still confirmed and someone to tell (the
 *   email given at the counter, else the account's, never the walk-in account);
 * - a gift card an order sold with no `gift_card:<card>` and someone to send it to (its recipient, else the buyer);
 * - an order refunded by staff or an exchange, with no `refund_notice:<order>:<refunds>` (what sendRefundNotice
 *   writes, counting every refund of the order) and someone to tell;
 * - an open offer of a waiting list, not run out, with no `waitlist_offer:<offer>`.
 */
export async function findMissingMail(deps: Pick<MailDeps, 'db'>): Promise<MissingMail[]> {
  const since = sql`now() - make_interval(days => ${MAIL_SWEEP_DAYS})`;
  const until = sql`now() - make_interval(secs => ${MAIL_SWEEP_GRACE_SECONDS})`;
  // Someone to tell: the email given at the counter, else the account's unless it is the walk-in account (looked up
  // once per statement, so an order is not joined to its account just to learn that).
  const reachable = sql`(o.customer_email is not null
    or o.user_id is distinct from (select u.id from users u where u.email = ${WALK_IN_EMAIL}))`;
  const rows = await queryRows<MissingRow>(
    deps.db,
    sql`
      (select 'order_confirmation' as kind, o.id::text as id, null as ref, o.guest_token_hash is not null as guest
      from orders o
      where o.created_at >= now() - make_interval(days => ${MAIL_SWEEP_DAYS + CREATED_BEFORE_PAID_DAYS})
        and o.paid_at >= ${since} and o.paid_at < ${until} and o.status in ('PAID', 'PARTLY_REFUNDED', 'REFUNDED')
        and not exists (select 1 from mail_outbox m where m.dedupe_key = 'order_confirmation:' || o.id)
        and exists (select 1 from order_lines l
          where l.order_id = o.id and l.kind in ('TICKET', 'PRODUCT') and l.result = 'confirmed')
        and ${reachable}
      order by o.paid_at limit ${PER_PASS})
      union all
      (select distinct 'gift_cards', o.id::text, null, false
      from gift_cards g join orders o on o.id = g.order_id
      where g.order_id is not null and g.created_at >= ${since} and g.created_at < ${until}
        and not exists (select 1 from mail_outbox m where m.dedupe_key = 'gift_card:' || g.id)
        and (g.recipient_email is not null or ${reachable})
      limit ${PER_PASS})
      union all
      (select 'refund_notice', o.id::text, o.ref, false
      from orders o
      where o.id in (select r.order_id from order_refunds r
          where r.kind <> 'lost_seat' and r.created_at >= ${since} and r.created_at < ${until})
        and not exists (select 1 from mail_outbox m where m.dedupe_key =
          'refund_notice:' || o.id || ':' || (select count(*) from order_refunds c where c.order_id = o.id))
        and ${reachable}
      limit ${PER_PASS})
      union all
      (select 'waitlist_offer', w.id::text, null, false
      from waitlist_offers w
      where w.status = 'open' and w.expires_at > now() and w.created_at < ${until}
        and not exists (select 1 from mail_outbox m where m.dedupe_key = 'waitlist_offer:' || w.id)
      limit ${PER_PASS})`,
  );
  return rows.map((r): MissingMail => {
    switch (r.kind) {
      case 'order_confirmation':
        return { kind: r.kind, orderId: r.id, guest: r.guest };
      case 'gift_cards':
        return { kind: r.kind, orderId: r.id };
      case 'refund_notice':
        return { kind: r.kind, orderId: r.id, ref: r.ref! };
      case 'waitlist_offer':
        return { kind: r.kind, offerId: r.id };
    }
  });
}

/** Thrown inside a transaction to roll it back: its email was written by someone else meanwhile. */
class WrittenMeanwhile extends Error {}

/**
 * A guest order's confirmation written by the sweep: its link's token was only ever in the memory of the process
 * that sold it, so the order gets a new one, in the transaction that writes the email. When the after-commit path
 * (another process, or one slower than the grace period) wrote the confirmation first, its token stays the order's
 * and the new one is thrown away with the transaction: whichever email is written, its link opens the order.
 */
async function writeGuestConfirmation(deps: MailDeps, orderId: string): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  const message = await orderConfirmation(deps, orderId, { guestToken: token });
  if (!message) return null;
  try {
    const id = await deps.db.transaction(async (tx) => {
      const [guest] = await tx
        .update(orders)
        .set({ guestTokenHash: hashToken(token) })
        .where(and(eq(orders.id, orderId), isNotNull(orders.guestTokenHash)))
        .returning({ id: orders.id });
      // Claimed by an account meanwhile: its confirmation (by the next pass) links to My Tickets instead.
      if (!guest) throw new WrittenMeanwhile();
      const written = await writeMail(deps, message, tx);
      if (!written) throw new WrittenMeanwhile();
      return written;
    });
    sendSoon(deps, id);
    return id;
  } catch (err) {
    if (err instanceof WrittenMeanwhile) return null;
    throw err;
  }
}

/**
 * Writes the emails of one thing the sweep found, as the after-commit path would have (their dedupe keys make a
 * second writer, in this process or another, change nothing). Returns how many emails it wrote.
 */
export async function writeMissingMail(deps: MailDeps, missing: MissingMail): Promise<number> {
  switch (missing.kind) {
    case 'order_confirmation': {
      // Looked at again: the after-commit path may have written it since (its QR codes are not drawn twice).
      const [done] = await deps.db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `order_confirmation:${missing.orderId}`));
      if (done) return 0;
      const id = missing.guest
        ? await writeGuestConfirmation(deps, missing.orderId)
        : await sendOrderConfirmation(deps, missing.orderId);
      return id ? 1 : 0;
    }
    case 'gift_cards':
      return sendGiftCards(deps, missing.orderId);
    case 'refund_notice':
      return (await sendRefundNotice(deps, missing.ref)) ? 1 : 0;
    case 'waitlist_offer':
      return (await sendWaitlistOffer(deps, missing.offerId)) ? 1 : 0;
  }
}

/**
 * One pass of the mail sweep (decision 056): writes the emails that payments, refunds and waiting-list offers
 * should have written after their commit and did not (the database away at that moment, a crash between the commit
 * and the email, an error). Each is written in the mail work's queue, after whatever this process queued before
 * (so a confirmation being written right now is found written), one at a time as all mail work is; after a failure
 * the rest waits for the next pass, as it does once `closing` is aborted (the pass then ends without waiting for a
 * queue a rush filled). Returns how many emails it wrote.
 */
export async function sweepMissingMail(deps: MailDeps, closing?: AbortSignal): Promise<number> {
  const missing = await findMissingMail(deps);
  let written = 0;
  let failed = false;
  const writes = Promise.all(
    missing.map(
      (m) =>
        new Promise<void>((resolve) =>
          inBackground(deps, 'writing an email that was never written', async () => {
            try {
              if (!failed && !closing?.aborted) written += await writeMissingMail(deps, m);
            } catch (err) {
              failed = true;
              throw err;
            } finally {
              resolve();
            }
          }),
        ),
    ),
  );
  let stop = () => {};
  const closed = new Promise<void>((resolve) => {
    stop = resolve;
    if (closing?.aborted) resolve();
    closing?.addEventListener('abort', stop);
  });
  try {
    await Promise.race([writes, closed]);
  } finally {
    closing?.removeEventListener('abort', stop);
  }
  if (written > 0) deps.log.warn({ written }, 'wrote emails their payment, refund or offer never wrote');
  return written;
}
