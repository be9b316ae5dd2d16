import type { PaymentProviderName } from '../../../db/schema/index.ts';

/** One seat of a checkout as the provider shows it. */
export interface CheckoutLine {
  name: string;
  amountCents: number;
}

export interface CreateProviderSessionInput {
  /** Our checkout session id (the provider keeps it as its client reference). */
  sessionId: string;
  currency: string;
  lines: CheckoutLine[];
  expiresAt: Date;
  customerEmail: string;
  /** The customer's language (en, es, de): the provider's page speaks it. */
  language?: 'en' | 'es' | 'de';
}

export interface ProviderSession {
  providerSessionId: string;
  /** Where the customer's browser goes to pay. */
  url: string;
}

/** What the provider says about a session when asked directly (the success page can arrive before the webhook). */
export type ProviderSessionState =
  { state: 'paid'; paymentId: string | null } | { state: 'open' } | { state: 'expired' };

/** A verified webhook event reduced to what fulfilment needs. */
export type PaymentEvent =
  | { id: string; type: string; action: 'paid'; providerSessionId: string; paymentId: string | null }
  | { id: string; type: string; action: 'expired'; providerSessionId: string }
  | { id: string; type: string; action: 'ignored' };

export interface RefundInput {
  paymentId: string | null;
  /** In minor units of `currency`, the session's (lower-case, as Stripe writes it). */
  amountCents: number;
  currency: string;
  /** The same key for a retried refund, so the provider never pays it out twice. */
  idempotencyKey: string;
}

/** Thrown when a webhook's signature does not verify: the route answers 400 and changes nothing. */
export class WebhookSignatureError extends Error {}

/** The one interface every payment provider implements. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createSession(input: CreateProviderSessionInput): Promise<ProviderSession>;
  getSessionState(providerSessionId: string): Promise<ProviderSessionState>;
  refund(input: RefundInput): Promise<{ refundId: string }>;
  /** Closes a session at the provider so it can no longer be paid (a session already closed is fine). */
  expireSession(providerSessionId: string): Promise<void>;
  /** Verifies the signature over the raw body and parses the event; throws WebhookSignatureError. */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): PaymentEvent;
}
