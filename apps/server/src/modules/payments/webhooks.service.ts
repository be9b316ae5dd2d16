import { and, eq } from 'drizzle-orm';
import { orders, paymentEvents } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../errors.ts';
import { fulfilCheckout, releaseCheckout } from './fulfilment.service.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { WebhookSignatureError } from './providers/provider.ts';

/**
 * Verifies and applies a provider webhook. A bad signature is a 400 with nothing changed; an event id seen
 * before is a no-op. The id is recorded after the work, so an event that failed half-way is redone on retry
 * (fulfilment and release are idempotent themselves).
 */
export async function handlePaymentWebhook(
  deps: PaymentDeps,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ duplicate: boolean }> {
  const { db } = deps;
  const provider = deps.providers.get();
  if (!provider) throw badRequest('Payments are not configured');
  let event;
  try {
    event = provider.parseWebhook(rawBody, headers);
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      throw new AppError(400, 'bad_signature', `Webhook signature verification failed: ${err.message}`);
    }
    throw err;
  }
  const [seen] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id))
    .limit(1);
  if (seen) return { duplicate: true };

  if (event.action !== 'ignored') {
    const [session] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.providerSessionId, event.providerSessionId), eq(orders.provider, provider.name)))
      .limit(1);
    // A session that is not ours (another app on the same account) is acknowledged and left alone.
    if (session && event.action === 'paid') {
      await fulfilCheckout(deps, session.id, { paymentId: event.paymentId });
    } else if (session && event.action === 'expired') {
      await releaseCheckout(deps, session.id, 'EXPIRED');
    }
  }
  await db.insert(paymentEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
  return { duplicate: false };
}
