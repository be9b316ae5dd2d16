import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form-encoded body, keys as Stripe writes them: `line_items[0][price_data][unit_amount]`. */
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
}

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  payment_intent: string | null;
  client_reference_id: string | null;
  expires_at: number;
  amount_total: number;
  currency: string;
}

export const FAKE_STRIPE_SECRET_KEY = 'sk_test_fake_cinema';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_fake_cinema';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A fake Stripe API on a random local port: answers the calls the app makes (create and retrieve a checkout
 * session, create a refund), records every request, and lets a test play the customer paying.
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, FakeCheckoutSession>();
  /** The next session creation answers 400, as Stripe does for a bad request. */
  failNextCreate = false;
  private server: Server | null = null;
  private readonly signer = new Stripe(FAKE_STRIPE_SECRET_KEY);
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0]!;
        const params = Object.fromEntries(new URLSearchParams(body));
        this.requests.push({ method: req.method ?? 'GET', path, params, headers: req.headers });
        const [status, json] = this.answer(req.method ?? 'GET', path, params);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The environment that points the app's Stripe SDK here. */
  env(publicUrl = 'https://cinema.test'): Record<string, string> {
    return {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: this.url,
      PUBLIC_URL: publicUrl,
    };
  }

  private answer(method: string, path: string, params: Record<string, string>): [number, unknown] {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (this.failNextCreate) {
        this.failNextCreate = false;
        return [
          400,
          { error: { type: 'invalid_request_error', message: 'Fake Stripe refused the session' } },
        ];
      }
      let amount = 0;
      for (let i = 0; params[`line_items[${i}][price_data][unit_amount]`]; i++) {
        amount +=
          Number(params[`line_items[${i}][price_data][unit_amount]`]) *
          Number(params[`line_items[${i}][quantity]`] ?? 1);
      }
      const sessionId = id('cs_test');
      const session: FakeCheckoutSession = {
        id: sessionId,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${sessionId}`,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        client_reference_id: params.client_reference_id ?? null,
        expires_at: Number(params.expires_at),
        amount_total: amount,
        currency: params['line_items[0][price_data][currency]'] ?? 'usd',
      };
      this.sessions.set(sessionId, session);
      return [200, session];
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const session = this.sessions.get(decodeURIComponent(retrieve[1]!));
      if (!session) return [404, { error: { type: 'invalid_request_error', message: 'No such session' } }];
      return [200, session];
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) {
      const session = this.sessions.get(decodeURIComponent(expire[1]!));
      if (!session) return [404, { error: { type: 'invalid_request_error', message: 'No such session' } }];
      if (session.status !== 'open') {
        return [
          400,
          { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired' } },
        ];
      }
      session.status = 'expired';
      return [200, session];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      return [
        200,
        {
          id: id('re'),
          object: 'refund',
          amount: Number(params.amount),
          payment_intent: params.payment_intent,
          status: 'succeeded',
        },
      ];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } }];
  }

  /** Requests of one kind, e.g. `calls('POST', '/v1/refunds')`. */
  calls(method: string, path: string) {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** The customer pays on Stripe's page: the session becomes complete and paid. */
  pay(sessionId: string, paymentIntent = id('pi')): FakeCheckoutSession {
    const session = this.sessions.get(sessionId)!;
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: paymentIntent });
    return session;
  }

  /** A webhook request for an event about a session, signed with the webhook secret (or another). */
  webhook(
    type: string,
    session: Partial<FakeCheckoutSession> & { id: string },
    opts: { eventId?: string; secret?: string } = {},
  ) {
    const payload = JSON.stringify({
      id: opts.eventId ?? id('evt'),
      object: 'event',
      type,
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...this.sessions.get(session.id), ...session } },
    });
    const signature = this.signer.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? FAKE_STRIPE_WEBHOOK_SECRET,
    });
    return { payload, headers: { 'stripe-signature': signature, 'content-type': 'application/json' } };
  }
}
