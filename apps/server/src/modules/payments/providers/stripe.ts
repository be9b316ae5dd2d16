import type Stripe from 'stripe';
import { currencyExponent } from '@cinema/contract';
import {
  WebhookSignatureError,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderSessionState,
} from './provider.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where the web app's success and cancel pages are (CLIENT_URL). */
  clientUrl: string;
  /** Another API origin (tests run a fake Stripe API locally). */
  apiUrl?: string;
}

const paymentIdOf = (session: Stripe.Checkout.Session): string | null =>
  typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);

// 'no_payment_required' cannot happen for seats with a price, but it is as good as paid.
const isPaid = (session: Stripe.Checkout.Session) =>
  session.payment_status === 'paid' || session.payment_status === 'no_payment_required';

/**
 * Where Stripe counts a currency's decimals otherwise than ISO 4217 (docs.stripe.com/currencies: every currency has
 * two unless Stripe names it zero- or three-decimal): the króna is still written with two ("100" is 1 ISK), the
 * ariary with none, and Iraqi and Libyan dinars with two rather than three.
 */
const STRIPE_EXPONENTS: Readonly<Record<string, number>> = { isk: 2, mga: 0, iqd: 2, lyd: 2 };

/** An amount in minor units of `currency` (ISO 4217) as Stripe's API writes it. */
export function stripeAmount(minor: number, currency: string): number {
  const shift =
    (STRIPE_EXPONENTS[currency.toLowerCase()] ?? currencyExponent(currency)) - currencyExponent(currency);
  const amount = shift >= 0 ? minor * 10 ** shift : minor / 10 ** -shift;
  // A fraction Stripe cannot take (half an ariary) is refused rather than charged otherwise than the order says.
  if (!Number.isSafeInteger(amount))
    throw new Error(`${minor} minor units of ${currency.toUpperCase()} cannot be charged through Stripe`);
  return amount;
}

let StripeSdk: typeof Stripe | undefined;

/** Loads the Stripe SDK once. Only a server configured for Stripe needs it (and the memory it takes). */
export async function loadStripeSdk(): Promise<void> {
  StripeSdk ??= (await import('stripe')).default;
}

/**
 * Stripe Checkout through the official SDK: one line item per seat, webhooks verified over the raw body.
 * `loadStripeSdk()` must have finished first.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  if (!StripeSdk) throw new Error('The Stripe SDK is not loaded (await loadStripeSdk() first)');
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new StripeSdk(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? 443 : 80),
      protocol: api.protocol === 'http:' ? ('http' as const) : ('https' as const),
    }),
  });

  return {
    name: 'stripe',

    async createSession(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: input.lines.map((line) => ({
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: stripeAmount(line.amountCents, input.currency),
              product_data: { name: line.name },
            },
          })),
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
          success_url: `${options.clientUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${options.clientUrl}/checkout/cancel`,
          client_reference_id: input.sessionId,
          customer_email: input.customerEmail,
          ...(input.language && { locale: input.language }),
          metadata: { sessionId: input.sessionId },
        },
        { idempotencyKey: `checkout-${input.sessionId}` },
      );
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { providerSessionId: session.id, url: session.url };
    },

    async getSessionState(providerSessionId): Promise<ProviderSessionState> {
      const session = await stripe.checkout.sessions.retrieve(providerSessionId);
      if (isPaid(session)) return { state: 'paid', paymentId: paymentIdOf(session) };
      if (session.status === 'expired') return { state: 'expired' };
      return { state: 'open' };
    },

    async expireSession(providerSessionId) {
      const session = await stripe.checkout.sessions.retrieve(providerSessionId);
      // Only an open session can be expired; a completed one is handled by fulfilment (confirm if free, else refund).
      if (session.status === 'open') await stripe.checkout.sessions.expire(providerSessionId);
    },

    async refund({ paymentId, amountCents, currency, idempotencyKey }) {
      if (!paymentId) throw new Error('No Stripe payment to refund');
      const refund = await stripe.refunds.create(
        { payment_intent: paymentId, amount: stripeAmount(amountCents, currency) },
        { idempotencyKey: `refund-${idempotencyKey}` },
      );
      return { refundId: refund.id };
    },

    parseWebhook(rawBody, headers): PaymentEvent {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string' || !signature) {
        throw new WebhookSignatureError('Missing Stripe-Signature header');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (err) {
        throw new WebhookSignatureError((err as Error).message);
      }
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          // A completed session with a delayed payment method is not paid yet: async_payment_succeeded follows.
          if (!isPaid(session)) return { id: event.id, type: event.type, action: 'ignored' };
          return {
            id: event.id,
            type: event.type,
            action: 'paid',
            providerSessionId: session.id,
            paymentId: paymentIdOf(session),
          };
        }
        case 'checkout.session.expired':
        case 'checkout.session.async_payment_failed':
          return {
            id: event.id,
            type: event.type,
            action: 'expired',
            providerSessionId: event.data.object.id,
          };
        default:
          return { id: event.id, type: event.type, action: 'ignored' };
      }
    },
  };
}
