import { useMutation } from '@tanstack/react-query';
import type { CheckoutResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** POST /api/pay/checkout, then sends the browser to the payment provider's hosted page. */
export async function startCheckout(bookingIds: string[]): Promise<void> {
  const { url } = await api<CheckoutResponse>('/pay/checkout', { method: 'POST', body: { bookingIds } });
  window.location.assign(url);
}

export const useStartCheckout = () => useMutation({ mutationFn: startCheckout });
