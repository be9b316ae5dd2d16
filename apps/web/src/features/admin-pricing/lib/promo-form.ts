import type { CreatePromoCodeBody, PromoCode } from '@cinema/contract';
import { formatMoney } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';
import { typedAmount } from './amount-input';

/** A promo code as its form holds it: numbers as typed, dates as datetime-local values (the viewer's time). */
export interface PromoDraft {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  maxUses: string;
  maxUsesPerCustomer: string;
  validFrom: string;
  validTo: string;
  movieId: string;
  showtimeId: string;
}

export const emptyPromoDraft = (): PromoDraft => ({
  code: '',
  kind: 'percent',
  value: '',
  maxUses: '',
  maxUsesPerCustomer: '',
  validFrom: '',
  validTo: '',
  movieId: '',
  showtimeId: '',
});

/** A whole number of at least 1 as typed, undefined when blank, or null when it is not one. */
function count(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** A datetime-local value in the viewer's time zone as an ISO timestamp; undefined when blank, null when invalid. */
function instant(text: string): string | undefined | null {
  if (text.trim() === '') return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The draft as the API takes it, or what is wrong with it. */
export function promoBodyOf(
  draft: PromoDraft,
  currency: string,
): { body: CreatePromoCodeBody } | { error: string } {
  const code = draft.code.trim().toUpperCase();
  if (!/^[A-Z0-9_-]{3,40}$/.test(code)) return { error: i18n.t('admin:promo.errors.code') };
  let off: Pick<CreatePromoCodeBody, 'percentOff' | 'amountOffCents'>;
  if (draft.kind === 'percent') {
    const value = Number(draft.value);
    if (!Number.isInteger(value) || value < 1 || value > 100)
      return { error: i18n.t('admin:promo.errors.percent') };
    off = { percentOff: value };
  } else {
    const amount = typedAmount(draft.value, currency);
    if (amount && 'error' in amount) return amount;
    if (!amount || amount.cents < 1)
      return { error: i18n.t('admin:promo.errors.amount', { smallest: formatMoney(1, currency) }) };
    off = { amountOffCents: amount.cents };
  }
  const maxUses = count(draft.maxUses);
  const maxUsesPerCustomer = count(draft.maxUsesPerCustomer);
  if (maxUses === null || maxUsesPerCustomer === null) return { error: i18n.t('admin:promo.errors.limits') };
  const validFrom = instant(draft.validFrom);
  const validTo = instant(draft.validTo);
  if (validFrom === null || validTo === null) return { error: i18n.t('admin:promo.errors.dates') };
  if (validFrom && validTo && validFrom >= validTo) return { error: i18n.t('admin:promo.errors.order') };
  return {
    body: {
      code,
      ...off,
      ...(maxUses && { maxUses }),
      ...(maxUsesPerCustomer && { maxUsesPerCustomer }),
      ...(validFrom && { validFrom }),
      ...(validTo && { validTo }),
      ...(draft.showtimeId
        ? { showtimeId: draft.showtimeId }
        : draft.movieId
          ? { movieId: draft.movieId }
          : {}),
    },
  };
}

/** "20% off", "$3.00 off". */
export const discountInWords = (p: Pick<PromoCode, 'percentOff' | 'amountOffCents'>) =>
  p.percentOff !== null
    ? i18n.t('admin:promo.percentOff', { percent: p.percentOff })
    : i18n.t('admin:promo.amountOff', { amount: formatMoney(p.amountOffCents ?? 0) });

/** "12 of 100 used", "3 used". */
export const usesInWords = (p: Pick<PromoCode, 'uses' | 'maxUses'>) =>
  p.maxUses !== null
    ? i18n.t('admin:promo.usesOf', { uses: p.uses, max: p.maxUses })
    : i18n.t('admin:promo.uses', { uses: p.uses });
