import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { runPeriodically } from '../../periodic.ts';
import { deliverDueMail, settleMail } from './outbox.service.ts';

/** How often emails that could not be sent are tried again (each one waits its own growing pause). */
const RETRY_EVERY_MS = 30_000;

/**
 * With SMTP_URL: retries the outbox's pending emails every 30 s. On close, the sends already started may finish
 * (a few seconds at most) before the database closes; an unfinished one is retried by the next start.
 */
export const mailPlugin = fp(
  async function mailPlugin(app: FastifyInstance) {
    if (app.config.smtpUrl) {
      runPeriodically(app, RETRY_EVERY_MS, 'retrying emails', () => deliverDueMail(app.deps));
    }
    app.addHook('preClose', () => settleMail(5_000));
  },
  { name: 'mail', dependencies: ['db', 'events'] },
);
