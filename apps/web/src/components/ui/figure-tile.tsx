/** One figure of a report's totals, in a `<dl>`: what it is and its value. */
export function FigureTile({ term, value }: { term: string; value: string }) {
  return (
    <div className="card p-3">
      <dt className="text-sm text-muted">{term}</dt>
      <dd className="text-xl font-semibold text-gold">{value}</dd>
    </div>
  );
}
