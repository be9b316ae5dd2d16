import type { Order } from '@cinema/contract';
import { formatDateTime, useFormatMoney } from '../../../lib/format';
import { i18n, useTranslation } from '../../../lib/i18n';

// An order's status worth saying ("Partly refunded"), else nothing.
const statusText = (status: string): string | null =>
  ['partially_refunded', 'refunded', 'pending'].includes(status)
    ? i18n.t(`common:tickets.status.${status}`)
    : null;

/** An order in one line: when it was paid, how many seats, the discount, the total and a status worth saying. */
export function OrderFacts({ order }: { order: Order }) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const money = (cents: number) => formatMoney(cents, order.currency);
  return (
    <p className="text-sm text-slate-200">
      <time dateTime={order.paidAt ?? order.createdAt}>
        {formatDateTime(order.paidAt ?? order.createdAt)}
      </time>
      {' · '}
      {t('tickets.seats', { count: order.lines.filter((l) => l.kind !== 'FEE').length })}
      {order.discountCents > 0 && ` · ${t('tickets.off', { amount: money(order.discountCents) })}`}
      {' · '}
      <span className="font-semibold text-white">
        {t('tickets.total', { amount: money(order.totalCents) })}
      </span>
      {statusText(order.status) && ` · ${statusText(order.status)}`}
    </p>
  );
}
