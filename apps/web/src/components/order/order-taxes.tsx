import { feePer, formatRate, taxBreakdown } from '@cinema/contract/constants';
import type { Order, OrderLine, Quote } from '@cinema/contract';
import { useFormatMoney } from '../../lib/format';
import { useTranslation, type TFunction } from '../../lib/i18n';

/** "Booking fee", "Booking fee × 2", "Booking fee per order": a FEE line's name in the viewer's language. */
export const feeLineName = (line: Pick<OrderLine, 'name' | 'quantity'>, t: TFunction<'common'>) =>
  feePer(line.name) === 'ORDER'
    ? t('order.bookingFeePerOrder')
    : line.quantity > 1
      ? t('order.bookingFeeCount', { count: line.quantity })
      : t('order.bookingFee');

/**
 * An order's or quote's tax by rate (DESIGN §7.4), added up from its lines as they were charged (never recomputed):
 * "Includes tax at 7% on $31.78: $2.22", or with prices before tax "Tax at 7% on $31.78: $2.22". Nothing when no
 * line is taxed.
 */
export function OrderTaxes({
  order,
  currency,
}: {
  order: Pick<Order | Quote, 'lines' | 'products' | 'taxMode' | 'taxCents'>;
  currency: string;
}) {
  const { t, i18n } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const money = (cents: number) => formatMoney(cents, currency);
  if (order.taxCents === 0) return null;
  // What was or is to be paid: lines released unpaid are not on the receipt.
  const charged = [...order.lines, ...(order.products ?? [])].filter((l) => l.status !== 'released');
  const bands = taxBreakdown(charged).bands.filter((b) => b.taxCents > 0);
  return (
    <ul className="space-y-0.5 text-right text-xs text-slate-300 tabular-nums" aria-label={t('order.taxes')}>
      {bands.map((b) => (
        <li key={b.rateBp}>
          {t(order.taxMode === 'exclusive' ? 'order.taxAdded' : 'order.taxIncluded', {
            rate: formatRate(b.rateBp, i18n.language),
            net: money(b.netCents),
            amount: money(b.taxCents),
          })}
        </li>
      ))}
    </ul>
  );
}
