import { useId } from 'react';
import type { Fulfilment, ProductLine } from '@cinema/contract';
import { formatTime, useFormatMoney } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';

/**
 * Each item in the basket with its price (as the server quoted it, when the quote has it) and a Remove button; from
 * what the customer chose, so an item the server refuses (sold out) can still be removed.
 */
export function SnackLines({
  items,
  prices,
  onRemove,
}: {
  items: { text: string; quantity: number }[];
  prices: ProductLine[] | undefined;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  if (items.length === 0) return null;
  const priced = prices?.length === items.length ? prices : undefined;
  return (
    <ul aria-label={t('concessions.itemsLabel')} className="divide-y divide-line/60">
      {items.map((item, i) => {
        const price = priced?.[i]?.priceCents;
        return (
          <li key={i} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2">
            <span className="font-semibold text-white">
              {item.quantity > 1 ? `${item.quantity} × ${item.text}` : item.text}
            </span>
            <span className="flex items-center gap-3">
              <span className="min-w-16 text-right tabular-nums">
                {price !== undefined ? formatMoney(price) : ''}
              </span>
              <button type="button" className="btn-secondary px-3 py-1" onClick={() => onRemove(i)}>
                {t('concessions.remove', { item: item.text })}
              </button>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The times food can be brought to a seat: from 30 minutes before the start, every 15 minutes, for two hours. */
export function deliveryTimes(startsAt: string): string[] {
  const start = new Date(startsAt).getTime();
  return Array.from({ length: 9 }, (_, i) => new Date(start + (i * 15 - 30) * 60_000).toISOString());
}

/** Collect at the counter, or bring it to one of these seats at a time in its showtime. */
export function FulfilmentChoice({
  seats,
  value,
  onChange,
}: {
  seats: { bookingId: string; label: string; startsAt: string }[];
  value: Fulfilment;
  onChange: (f: Fulfilment) => void;
}) {
  const { t } = useTranslation('common');
  const id = useId();
  const first = seats[0];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-semibold text-white">{t('concessions.howTitle')}</legend>
      <label className="flex min-h-8 items-center gap-2 text-sm">
        <input
          type="radio"
          name={`${id}-how`}
          checked={value.kind === 'PICKUP'}
          onChange={() => onChange({ kind: 'PICKUP' })}
        />
        {t('concessions.pickup')}
      </label>
      {first && (
        <label className="flex min-h-8 items-center gap-2 text-sm">
          <input
            type="radio"
            name={`${id}-how`}
            checked={value.kind === 'SEAT'}
            onChange={() => onChange({ kind: 'SEAT', bookingId: first.bookingId, at: first.startsAt })}
          />
          {t('concessions.toSeat')}
        </label>
      )}
      {value.kind === 'SEAT' && (
        <div className="flex flex-wrap gap-3 pl-6">
          <label className="field">
            <span className="field-label">{t('concessions.seat')}</span>
            <select
              className="input w-auto py-1.5"
              value={value.bookingId}
              onChange={(e) => onChange({ ...value, bookingId: e.target.value })}
            >
              {seats.map((s) => (
                <option key={s.bookingId} value={s.bookingId}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">{t('concessions.time')}</span>
            <select
              className="input w-auto py-1.5"
              value={value.at}
              onChange={(e) => onChange({ ...value, at: e.target.value })}
            >
              {deliveryTimes(
                seats.find((s) => s.bookingId === value.bookingId)?.startsAt ?? first!.startsAt,
              ).map((at) => (
                <option key={at} value={at}>
                  {formatTime(at)}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
    </fieldset>
  );
}
