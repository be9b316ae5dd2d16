import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { orders } from '../../db/schema/index.ts';
import { runPeriodically } from '../../periodic.ts';
import { releaseCheckout, retryPendingRefunds } from './fulfilment.service.ts';
import type { PaymentDeps } from './payment-deps.ts';

/** A provider may still be finishing a payment right at its session's end: sessions are closed this long after. */
const GRACE_SECONDS = 120;

/**
 * Closes checkouts whose payment window ended without a word from the provider (the local page never reopened, a
 * Stripe webhook lost): their holds go back and their promo code uses with them. A payment that still arrives is
 * handled by fulfilment as any late payment is (confirmed if the seats are free, refunded otherwise).
 */
export async function expireStaleCheckouts(deps: PaymentDeps): Promise<number> {
  const stale = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'OPEN'),
        lt(orders.expiresAt, sql`now() - make_interval(secs => ${GRACE_SECONDS})`),
      ),
    )
    .orderBy(asc(orders.expiresAt))
    .limit(200);
  let closed = 0;
  for (const { id } of stale) if (await releaseCheckout(deps, id, 'EXPIRED')) closed++;
  return closed;
}

/**
 * What payments do on domain events: a checkout closed here (its holds cancelled, or replaced by a newer checkout)
 * is closed at its provider too, so nobody can pay it there. Best effort: a payment that still arrives follows
 * fulfilment's rule (confirmed if the seats are free, refunded otherwise). And once a minute, checkouts past their
 * payment window are closed.
 */
export const paymentEvents = fp(
  async function paymentEvents(app: FastifyInstance) {
    app.events.subscribe('checkoutsClosed', ({ sessions }) => {
      for (const { provider: name, providerSessionId } of sessions) {
        const provider = app.paymentProviders.get(name);
        if (!provider) continue;
        provider.expireSession(providerSessionId).catch((err: unknown) => {
          app.log.warn(
            { err, providerSessionId },
            'could not close a checkout session at the payment provider',
          );
        });
      }
    });
    const deps: PaymentDeps = { ...app.deps, providers: app.paymentProviders };
    runPeriodically(app, 60_000, 'closing checkouts past their payment window', () =>
      expireStaleCheckouts(deps),
    );
    runPeriodically(app, 60_000, 'retrying refunds the provider did not take', () =>
      retryPendingRefunds(deps),
    );
  },
  { name: 'payment-events', dependencies: ['events', 'payment-providers'] },
);
