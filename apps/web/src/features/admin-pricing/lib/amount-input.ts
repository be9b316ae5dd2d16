import { toMinor } from '@cinema/contract/constants';
import { formatMoney } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';

/**
 * An amount typed in the major unit of `currency` (as a number field writes it), in minor units; what is wrong when
 * it has more decimals than the currency has ("12.345" dollars, "12.5" yen); null when it is no number at all.
 */
export function typedAmount(text: string, currency: string): { cents: number } | { error: string } | null {
  const cents = toMinor(text, currency);
  if (cents !== null) return { cents };
  if (/^\s*-?\d*\.\d+\s*$/.test(text))
    return {
      error: i18n.t('admin:pricing.smallestAmount', {
        text: text.trim(),
        currency,
        smallest: formatMoney(1, currency),
      }),
    };
  return null;
}
