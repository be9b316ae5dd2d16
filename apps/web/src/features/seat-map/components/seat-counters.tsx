import { useTranslation } from '../../../lib/i18n';
export function SeatCounters({
  counts,
}: {
  counts: { available: number; held: number; sold: number; selected: number };
}) {
  const { t } = useTranslation('common');
  // [data-counter, label key, value]
  const items: [string, string, number][] = [
    ['available', 'seat.legend.AVAILABLE', counts.available],
    ['held', 'seat.legend.HELD', counts.held],
    ['sold', 'seat.legend.CONFIRMED', counts.sold],
    ['selected', 'seat.legend.SELECTED', counts.selected],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={t('seatMap.counts')}>
      {items.map(([name, label, value]) => (
        <div key={name} className="rounded-xl border border-line bg-panel-2 px-4 py-3" data-counter={name}>
          <dt className="text-xs uppercase tracking-wide text-muted">{t(label)}</dt>
          <dd className="text-2xl font-bold text-white tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
