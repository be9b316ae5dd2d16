import { randomUUID } from 'node:crypto';
import { WebhookSignatureError, type PaymentProvider } from './provider.ts';

/**
 * The built-in test provider: its "hosted page" is our own /api/pay/local/{sessionId}, whose Pay button fulfils
 * directly. No money moves; refunds are only recorded.
 */
export function createLocalProvider(publicUrl: string): PaymentProvider {
  return {
    name: 'local',
    async createSession({ sessionId }) {
      return { providerSessionId: sessionId, url: `${publicUrl}/api/pay/local/${sessionId}` };
    },
    // Payment through the local page fulfils at once, so an open session here is simply not paid yet.
    async getSessionState() {
      return { state: 'open' };
    },
    // Our own page refuses every session that is not open: there is nothing else to close.
    async expireSession() {},
    async refund() {
      return { refundId: `local_re_${randomUUID()}` };
    },
    parseWebhook() {
      throw new WebhookSignatureError('The local payment provider sends no webhooks');
    },
  };
}
