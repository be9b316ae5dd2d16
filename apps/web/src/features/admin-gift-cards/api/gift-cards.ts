import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GiftCardLedger, GiftCardLiability, StaffGiftCard } from '@cinema/contract';
import { api, downloadFile } from '../../../lib/api-client';

const enc = encodeURIComponent;

/** GET /api/admin/gift-cards?q=: the card of a code, or the cards sent to or bought by an email (newest first). */
export const useGiftCardSearch = (q: string) =>
  useQuery({
    queryKey: ['admin', 'gift-cards', 'search', q],
    queryFn: ({ signal }) => api<{ cards: StaffGiftCard[] }>(`/admin/gift-cards?q=${enc(q)}`, { signal }),
    enabled: q !== '',
    staleTime: 0,
  });

const ledgerKey = (code: string) => ['admin', 'gift-cards', 'ledger', code] as const;

/** GET /api/admin/gift-cards/{code}: a card and its ledger, oldest entry first. */
export const useGiftCardLedger = (code: string) =>
  useQuery({
    queryKey: ledgerKey(code),
    queryFn: ({ signal }) => api<GiftCardLedger>(`/admin/gift-cards/${enc(code)}`, { signal }),
    enabled: code !== '',
    staleTime: 0,
  });

/** POST /api/admin/gift-cards/{code}/void (admins; audited): the card's balance goes to zero. */
export function useVoidGiftCard(code: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      api<GiftCardLedger>(`/admin/gift-cards/${enc(code)}/void`, { method: 'POST', body: { reason } }),
    onSuccess: (ledger) => {
      client.setQueryData(ledgerKey(code), ledger);
      void client.invalidateQueries({ queryKey: ['admin', 'gift-cards'] });
    },
  });
}

/** GET /api/admin/gift-cards/liability?date= (admins): what the cards held at the end of that day. */
export const useGiftCardLiability = (date: string) =>
  useQuery({
    queryKey: ['admin', 'gift-cards', 'liability', date],
    queryFn: ({ signal }) =>
      api<GiftCardLiability>(`/admin/gift-cards/liability?date=${enc(date)}`, { signal }),
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
  });

/** The same liability as a CSV file, a row per card and a total. */
export const downloadLiabilityCsv = (date: string): Promise<void> =>
  downloadFile(
    `/admin/gift-cards/liability?date=${enc(date)}&format=csv`,
    `gift-card-liability-${date}.csv`,
    'text/csv',
  );
