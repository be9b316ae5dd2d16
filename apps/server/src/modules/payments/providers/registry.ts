import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../../config.ts';
import type { PaymentProviderName } from '../../../db/schema/index.ts';
import { createLocalProvider } from './local.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripeProvider, loadStripeSdk } from './stripe.ts';

/** The payment providers this server can talk to, by name. */
export interface PaymentProviders {
  /** The provider of that name (default: the one new checkouts use); null when it is not configured here. */
  get(name?: PaymentProviderName): PaymentProvider | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    paymentProviders: PaymentProviders;
  }
}

/** Builds each provider once, when first asked for. `loadStripeSdk()` must have run when Stripe is configured. */
export function paymentProviders(config: Config): PaymentProviders {
  const built = new Map<PaymentProviderName, PaymentProvider | null>();
  const build = (name: PaymentProviderName): PaymentProvider | null => {
    if (name === 'local') return createLocalProvider(config.publicUrl);
    // An order that cost nothing had no provider: nothing to ask, nothing to refund.
    if (name === 'none') return null;
    // Sold at the counter: the money is in the till or the card terminal, never with a provider.
    if (name === 'box_office') return null;
    const { secretKey, webhookSecret, apiUrl } = config.stripe;
    if (!secretKey || !webhookSecret) return null;
    return createStripeProvider({ secretKey, webhookSecret, apiUrl, clientUrl: config.clientUrl });
  };
  return {
    get(name = config.paymentProvider) {
      if (!built.has(name)) built.set(name, build(name));
      return built.get(name) ?? null;
    },
  };
}

/**
 * `app.paymentProviders`. With Stripe's keys, Stripe sessions can be paid or refunded whichever provider new
 * checkouts use, so its SDK is loaded then (and only then: it takes memory).
 */
export const paymentProvidersPlugin = fp(
  async function paymentProvidersPlugin(app: FastifyInstance) {
    if (app.config.stripe.secretKey && app.config.stripe.webhookSecret) await loadStripeSdk();
    app.decorate('paymentProviders', paymentProviders(app.config));
  },
  { name: 'payment-providers' },
);
