import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What payments do on domain events: a checkout closed here (its holds cancelled, or replaced by a newer checkout)
 * is closed at its provider too, so nobody can pay it there. Best effort: a payment that still arrives follows
 * fulfilment's rule (confirmed if the seats are free, refunded otherwise).
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
  },
  { name: 'payment-events', dependencies: ['events', 'payment-providers'] },
);
