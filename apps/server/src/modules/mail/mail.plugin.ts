import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runPeriodically } from '../../periodic.ts';
import { sendGiftCards } from '../gift-cards/gift-card-mail.ts';
import { sendOrderConfirmation, sendRefundNotice, sendWaitlistOffer } from './messages.ts';
import { sweepMissingMail } from './mail-sweep.ts';
import { deliverDueMail, inBackground, settleMail } from './outbox.service.ts';

/** How often emails that could not be sent are tried again (each one waits its own growing pause). */
const RETRY_EVERY_MS = 30_000;
/** How often the emails that were never written are looked for (mail-sweep.ts). */
const SWEEP_EVERY_MS = 60_000;

/**
 * The one place orders send email (decision 034): an order paid with seats sold gets its confirmation, and each gift card it sold goes to its recipient (seats lost
 * before the payment arrived are named in it, so an automatic refund sends nothing more); a refund by staff or an
 * exchange's difference gets a refund notice. Written after the order's transaction committed and never awaited: email
 * never holds up or fails a sale (a send that fails is retried from the outbox).
 *
 * Once a minute the sweep writes what this never wrote (its work failed, the database was away, the process died between
 * the commit and the email): the paid orders' confirmations and gift cards, refund notices and waiting-list offers of
 * the last days (mail-sweep.ts, decision 056).
 *
 * With SMTP_URL: retries the outbox's pending emails every 30 s. On close, the sends already started may finish
 * (a few seconds at most) before the database closes; an unfinished one is retried by the next start.
 */
export const mailPlugin = fp(
  async function mailPlugin(app: FastifyInstance) {
    const { deps } = app;
    app.events.subscribe('orderPaid', ({ sessionId, confirmed, guestToken }) => {
      if (confirmed > 0) {
        inBackground(deps, 'the order confirmation', () =>
          sendOrderConfirmation(deps, sessionId, guestToken ? { guestToken } : {}),
        );
        // The gift cards the order issued, each to its recipient (decision 045).
        inBackground(deps, 'the gift cards', () => sendGiftCards(deps, sessionId));
      }
    });
    app.events.subscribe('orderRefunded', ({ ref, kind }) => {
      if (kind !== 'automatic') inBackground(deps, 'the refund notice', () => sendRefundNotice(deps, ref));
    });
    // The waiting list's offer (DESIGN §7.6): seats held for the customer, with a link to pay or decline.
    app.events.subscribe('waitlistOffered', ({ offerId }) =>
      inBackground(deps, 'the waiting list offer', () => sendWaitlistOffer(deps, offerId)),
    );
    // Aborted before the sweep's own close hook waits for its pass: a pass never holds up a close.
    const closing = new AbortController();
    app.addHook('preClose', async () => closing.abort());
    runPeriodically(app, SWEEP_EVERY_MS, 'writing the emails that were never written', () =>
      sweepMissingMail(deps, closing.signal),
    );
    if (app.config.smtpUrl) {
      runPeriodically(app, RETRY_EVERY_MS, 'retrying emails', () => deliverDueMail(app.deps));
    }
    app.addHook('preClose', () => settleMail(5_000));
  },
  { name: 'mail', dependencies: ['db', 'events'] },
);
