import { useMutation } from '@tanstack/react-query';
import type { CheckoutBody, CheckoutResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /api/pay/checkout with each seat's ticket type and the promo code (the server prices them), then sends the
 * browser to the payment provider's hosted page.
 */
export async function startCheckout(body: CheckoutBody, showtimeId: string): Promise<void> {
  const { url } = await api<CheckoutResponse>('/pay/checkout', { method: 'POST', body: { ...body } });
  // The cancel page offers the way back to these seats while they are still held.
  sessionStorage.setItem(CHECKOUT_SHOWTIME_KEY, showtimeId);
  window.location.assign(url);
}

/** Where the last checkout's seats are, for the cancel page (sessionStorage: this tab only). */
export const CHECKOUT_SHOWTIME_KEY = 'cinema.checkoutShowtime';

export const useStartCheckout = (showtimeId: string) =>
  useMutation({ mutationFn: (body: CheckoutBody) => startCheckout(body, showtimeId) });
