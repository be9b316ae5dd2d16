import { useMutation } from '@tanstack/react-query';
import type { CheckoutBody, CheckoutResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /api/pay/checkout with each seat's ticket type and the promo code (the server prices them), then sends the
 * browser to the payment provider's hosted page.
 */
export async function startCheckout(body: CheckoutBody): Promise<void> {
  const { url } = await api<CheckoutResponse>('/pay/checkout', { method: 'POST', body: { ...body } });
  window.location.assign(url);
}

export const useStartCheckout = () => useMutation({ mutationFn: startCheckout });
