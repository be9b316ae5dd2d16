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
