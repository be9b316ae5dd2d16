import { useId, useState, type FormEvent } from 'react';
import type { StaffOrder } from '@cinema/contract';
import { CheckIdBadge } from '../../../components/ui/item-badges';
import { FormMessages } from '../../../components/ui/form-messages';
import { errorText } from '../../../lib/api-client';
import { formatMoney, formatTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { seatName } from '../../../lib/seat-text';
import { useRefund } from '../api/box-office';

/**
 * An order's food and drink as staff see it (DESIGN §7.2): each item with "Check ID" when age-restricted, how it
 * reaches the customer and where the kitchen has it; chosen items refunded (their stock goes back on sale).
 */
export function OrderItems({ order }: { order: StaffOrder }) {
  const { t } = useTranslation('admin');
  const refund = useRefund(order.ref);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();
  const items = order.products ?? [];
  if (items.length === 0) return null;
  const c = order.concessions;
  const chosen = items.filter((i) => i.lineId && picked.has(i.lineId));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const res = await refund.mutateAsync({ productLineIds: chosen.map((i) => i.lineId!) });
      setPicked(new Set());
      setNotice(t('orderItems.refunded', { amount: formatMoney(res.refundedCents) }));
    } catch (err) {
      setError(errorText(err, t('order.refundFailed')));
    }
  }

  return (
    <form onSubmit={onSubmit} className="card space-y-3" aria-labelledby={`${id}-items`}>
      <h2 id={`${id}-items`} className="text-lg font-semibold text-white">
        {t('orderItems.title')}
      </h2>
      {c && (
        <p className="text-sm text-slate-200">
          {c.fulfilment === 'SEAT' && c.seat && c.deliverAt
            ? t('kitchen.toSeat', {
                time: formatTime(c.deliverAt),
                hall: c.seat.auditorium,
                seat: seatName(c.seat),
              })
            : t('kitchen.collect')}
          {c.status && ` · ${t(`orderItems.status.${c.status}`)}`}
        </p>
      )}
      <ul className="space-y-2">
        {items.map((item, n) => {
          const open = item.status === 'confirmed' && item.lineId;
          const name = item.options.length > 0 ? `${item.name} (${item.options.join(', ')})` : item.name;
          return (
            <li key={item.lineId ?? n}>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  disabled={!open}
                  checked={!!item.lineId && picked.has(item.lineId)}
                  onChange={(e) => {
                    const next = new Set(picked);
                    if (e.target.checked) next.add(item.lineId!);
                    else next.delete(item.lineId!);
                    setPicked(next);
                  }}
                />
                <span>
                  <span className="font-semibold text-white">
                    {item.quantity > 1 ? `${item.quantity} × ${name}` : name}
                  </span>{' '}
                  {formatMoney(item.priceCents)}
                  {item.status !== 'confirmed' && (
                    <span className="text-muted">
                      {t('order.lineStatus', { status: t(`order.lineStatuses.${item.status}`) })}
                    </span>
                  )}
                </span>
                {item.ageRestricted && <CheckIdBadge />}
              </label>
            </li>
          );
        })}
      </ul>
      <FormMessages error={error} notice={notice} />
      {items.some((i) => i.status === 'confirmed') && (
        <button type="submit" className="btn-danger" disabled={refund.isPending || chosen.length === 0}>
          {chosen.length === 0
            ? t('orderItems.refund')
            : t('orderItems.refundCount', {
                count: chosen.length,
                amount: formatMoney(chosen.reduce((sum, i) => sum + i.priceCents, 0)),
              })}
        </button>
      )}
    </form>
  );
}
