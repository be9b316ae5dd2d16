import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { percentFormat } from './percent-format';

export interface ChartPoint {
  label: string;
  /** Net takings, in minor units of the currency (cents, yen): the formatters say them as money. */
  net: number;
  /** Occupancy in percent (null without sellable seats). */
  occupancy: number | null;
}

const AXIS = '#cbd5e1';
const GRID = 'rgba(148, 163, 184, 0.18)';
const NET = '#f5c542';
const OCCUPANCY = '#38bdf8';

/**
 * Net takings as bars and occupancy as a line, one point per row of the report (uPlot, on a canvas). The chart is a
 * picture for the eye: its text alternative is the table of the same figures (`describedBy`).
 */
export function SalesChart({
  points,
  summary,
  describedBy,
  formatNet,
  formatAxis = formatNet,
  locale,
  legend,
}: {
  points: ChartPoint[];
  summary: string;
  /** The legend's words for the rows, the bars and the line. */
  legend: { row: string; net: string; occupancy: string };
  describedBy: string;
  formatNet: (cents: number) => string;
  /** The money axis's labels: shorter than the values, so they fit its column on a phone. */
  formatAxis?: (cents: number) => string;
  /** The viewer's locale, for the percent axis and values. */
  locale: string;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el || points.length === 0) return;
    const labels = points.map((p) => p.label);
    const xs = points.map((_, i) => i);
    // At most about one label per 70 px, so they never overlap.
    const every = (width: number) =>
      Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(width / 70))));
    const axisPercent = percentFormat(locale, 0);
    const valuePercent = percentFormat(locale, 1);
    const short = (s: string) => (s.length > 14 ? `${s.slice(0, 13)}…` : s);
    const size = () => ({ width: Math.max(260, el.clientWidth), height: el.clientWidth < 500 ? 220 : 280 });
    const opts: uPlot.Options = {
      ...size(),
      cursor: { drag: { x: false, y: false } },
      legend: { show: true, live: false },
      scales: {
        x: { time: false, range: () => [-0.5, points.length - 0.5] },
        net: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
        pct: { range: () => [0, 100] },
      },
      axes: [
        {
          stroke: AXIS,
          grid: { show: false },
          ticks: { stroke: GRID },
          splits: (u) => xs.filter((i) => i % every(u.width) === 0),
          values: (_u, splits) => splits.map((i) => short(labels[i] ?? '')),
        },
        {
          scale: 'net',
          stroke: AXIS,
          grid: { stroke: GRID },
          ticks: { stroke: GRID },
          size: 64,
          values: (_u, splits) => splits.map((v) => formatAxis(v)),
        },
        {
          scale: 'pct',
          side: 1,
          stroke: AXIS,
          grid: { show: false },
          ticks: { stroke: GRID },
          values: (_u, splits) => splits.map(axisPercent),
        },
      ],
      series: [
        { label: legend.row, value: (_u, i) => (i == null ? '—' : (labels[i] ?? '—')) },
        {
          label: legend.net,
          scale: 'net',
          stroke: NET,
          fill: 'rgba(245, 197, 66, 0.55)',
          paths: uPlot.paths.bars!({ size: [0.7, 64], align: 0 }),
          points: { show: false },
          value: (_u, v) => (v == null ? '—' : formatNet(v)),
        },
        {
          label: legend.occupancy,
          scale: 'pct',
          stroke: OCCUPANCY,
          width: 2,
          points: { show: true, size: 6, fill: OCCUPANCY },
          value: (_u, v) => (v == null ? '—' : valuePercent(v)),
        },
      ],
    };
    const data: uPlot.AlignedData = [xs, points.map((p) => p.net), points.map((p) => p.occupancy)];
    const plot = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => plot.setSize(size()));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, formatNet, formatAxis, locale, legend.row, legend.net, legend.occupancy]);

  return (
    <figure className="card sales-chart" aria-describedby={describedBy}>
      <figcaption className="mb-2 text-sm text-muted">{summary}</figcaption>
      <div ref={box} role="img" aria-label={summary} />
    </figure>
  );
}
