import { seatClasses } from './seat-grid';
import type { SeatView } from './seat-view';

const entries: [SeatView, string][] = [
  ['AVAILABLE', 'Available'],
  ['SELECTED', 'Selected'],
  ['MINE', 'Held by you'],
  ['HELD', 'Held'],
  ['CONFIRMED', 'Sold'],
];

export function SeatLegend() {
  return (
    <ul aria-label="Legend" className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-slate-300">
      {entries.map(([view, label]) => (
        <li key={view} className="flex items-center gap-2">
          <span
            aria-hidden
            className={`inline-block h-4 w-4 rounded-t-md rounded-b-sm border ${seatClasses[view]}`}
          />
          {label}
        </li>
      ))}
    </ul>
  );
}

export function SeatCounters({
  counts,
}: {
  counts: { available: number; held: number; sold: number; selected: number };
}) {
  const items: [string, number][] = [
    ['Available', counts.available],
    ['Held', counts.held],
    ['Sold', counts.sold],
    ['Selected', counts.selected],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Seat counts">
      {items.map(([label, value]) => (
        <div
          key={label}
          className="rounded-xl border border-line bg-panel-2 px-4 py-3"
          data-counter={label.toLowerCase()}
        >
          <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
          <dd className="text-2xl font-bold text-white tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
