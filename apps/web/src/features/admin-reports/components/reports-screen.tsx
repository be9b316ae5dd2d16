import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useSearchParams } from 'react-router';
import { REPORT_MAX_DAYS } from '@cinema/contract/constants';
import type { SalesFigures, SalesReport } from '@cinema/contract';
import { QueryStatus } from '../../../components/ui/query-status';
import { FigureTile } from '../../../components/ui/figure-tile';
import { errorText } from '../../../lib/api-client';
import { displayLocale, formatMoney, formatMoneyShort, formatNumber } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { downloadSalesCsv, useSalesReport, type ReportSpan } from '../api/get-sales-report';
import { SalesChart, type ChartPoint } from './sales-chart';

const GROUPINGS = ['day', 'movie', 'showtime'] as const;

/** A day as YYYY-MM-DD on the viewer's clocks. */
const isoDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function defaultSpan(): ReportSpan {
  const today = new Date();
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29);
  return { from: isoDay(from), to: isoDay(today), groupBy: 'day' };
}

function spanFrom(params: URLSearchParams): ReportSpan {
  const fallback = defaultSpan();
  const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);
  const groupBy = params.get('groupBy');
  return {
    from: day(params.get('from')) ?? fallback.from,
    to: day(params.get('to')) ?? fallback.to,
    groupBy: groupBy === 'movie' || groupBy === 'showtime' ? groupBy : 'day',
  };
}

const percent = (ratio: number | null) =>
  ratio === null
    ? '—'
    : formatNumber(ratio, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** /admin/reports: sales by day, movie or showtime as a chart and a table, and the same as a CSV file. */
export function ReportsScreen() {
  const [params, setParams] = useSearchParams();
  const span = useMemo(() => spanFrom(params), [params]);
  const [draft, setDraft] = useState(span);
  useEffect(() => setDraft(span), [span]);
  const report = useSalesReport(span);
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('reports.title'));
  const [csvError, setCsvError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const tableId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setParams({ from: draft.from, to: draft.to, groupBy: draft.groupBy });
  };

  const download = async () => {
    setCsvError(null);
    setDownloading(true);
    try {
      await downloadSalesCsv(span);
    } catch (err) {
      setCsvError(errorText(err, t('reports.csvFailed')));
    } finally {
      setDownloading(false);
    }
  };

  const data = report.data;
  const points = useMemo<ChartPoint[]>(
    () =>
      (data?.rows ?? []).map((r) => ({
        label: r.label,
        net: r.netCents,
        occupancy: r.occupancy === null ? null : r.occupancy * 100,
      })),
    [data],
  );

  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="page-title">
        {t('reports.title')}
      </h1>
      <form
        onSubmit={submit}
        className="card mb-6 flex flex-wrap items-end gap-4"
        aria-label={t('reports.span')}
      >
        <label className="field">
          <span className="field-label">{t('reports.from')}</span>
          <input
            className="input"
            type="date"
            required
            value={draft.from}
            max={draft.to}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('reports.to')}</span>
          <input
            className="input"
            type="date"
            required
            value={draft.to}
            min={draft.from}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('reports.groupBy')}</span>
          <select
            className="input"
            value={draft.groupBy}
            onChange={(e) => setDraft({ ...draft, groupBy: e.target.value as ReportSpan['groupBy'] })}
          >
            {GROUPINGS.map((g) => (
              <option key={g} value={g}>
                {t(`reports.groupings.${g}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-primary">
          {t('reports.show')}
        </button>
        <button type="button" className="btn-secondary" onClick={download} disabled={downloading || !data}>
          {downloading ? t('reports.downloading') : t('reports.download')}
        </button>
        <p className="w-full text-sm text-muted">
          {data
            ? t('reports.clocksIn', { timeZone: data.timeZone, max: REPORT_MAX_DAYS })
            : t('reports.clocks', { max: REPORT_MAX_DAYS })}
        </p>
      </form>
      {csvError && (
        <p role="alert" className="error mb-4">
          {csvError}
        </p>
      )}
      <QueryStatus query={report} failure={t('reports.failed')} />
      {data && <ReportBody report={data} points={points} tableId={tableId} />}
    </section>
  );
}

function ReportBody({
  report,
  points,
  tableId,
}: {
  report: SalesReport;
  points: ChartPoint[];
  tableId: string;
}) {
  const { t } = useTranslation('admin');
  const totals = report.totals;
  // Every figure is in minor units of the report's currency, the chart's too (stable: the chart redraws on a change).
  const currency = report.currency;
  const money = useCallback((cents: number) => formatMoney(cents, currency), [currency]);
  const axisMoney = useCallback((cents: number) => formatMoneyShort(cents, currency), [currency]);
  return (
    <div className="space-y-6">
      {report.testSales === 'included' && <p className="card text-sm">{t('reports.testMode')}</p>}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label={t('reports.totals')}>
        <FigureTile term={t('reports.admits')} value={formatNumber(totals.admits)} />
        <FigureTile term={t('reports.net')} value={money(totals.netCents)} />
        <FigureTile term={t('reports.occupancy')} value={percent(totals.occupancy)} />
        <FigureTile term={t('reports.checkInRate')} value={percent(totals.checkInRate)} />
        <FigureTile term={t('reports.concessions')} value={money(totals.concessionCents)} />
        <FigureTile
          term={t('reports.perAdmit')}
          value={totals.concessionPerAdmitCents === null ? '—' : money(totals.concessionPerAdmitCents)}
        />
      </dl>
      {report.rows.length === 0 ? (
        <p className="card">{t('reports.empty')}</p>
      ) : (
        <>
          <SalesChart
            points={points}
            describedBy={tableId}
            formatNet={money}
            formatAxis={axisMoney}
            locale={displayLocale()}
            summary={t(`reports.chartSummary.${report.groupBy}`, { from: report.from, to: report.to })}
            legend={{ row: t('reports.chartRow'), net: t('reports.net'), occupancy: t('reports.occupancy') }}
          />
          <ReportTable report={report} tableId={tableId} />
        </>
      )}
      {report.concessions.byProduct.length > 0 && <ConcessionTables report={report} />}
    </div>
  );
}

function ReportTable({ report, tableId }: { report: SalesReport; tableId: string }) {
  const { t } = useTranslation('admin');
  const types = report.totals.admitsByType.map((a) => a.ticketType);
  const money = (cents: number) => formatMoney(cents, report.currency);
  const cells = (f: SalesFigures) => [
    formatNumber(f.showtimes),
    ...f.admitsByType.map((a) => formatNumber(a.admits)),
    formatNumber(f.admits),
    money(f.grossCents),
    money(f.discountCents),
    money(f.refundCents),
    money(f.dueCents),
    money(f.netCents),
    money(f.taxCents),
    money(f.netOfTaxCents),
    percent(f.occupancy),
    percent(f.checkInRate),
    formatNumber(f.itemsSold),
    money(f.concessionCents),
    f.concessionPerAdmitCents === null ? '—' : money(f.concessionPerAdmitCents),
    money(f.feeCents),
  ];
  const headings = [
    t('reports.showtimes'),
    ...types.map((type) => t('reports.admitsOf', { type })),
    t('reports.admits'),
    t('reports.gross'),
    t('reports.discounts'),
    t('reports.refunds'),
    t('reports.toCollect'),
    t('reports.net'),
    t('reports.tax'),
    t('reports.netOfTax'),
    t('reports.occupancy'),
    t('reports.checkInRate'),
    t('reports.itemsSold'),
    t('reports.concessions'),
    t('reports.perAdmit'),
    t('reports.fees'),
  ];
  return (
    <div
      className="card overflow-x-auto p-0"
      tabIndex={0}
      role="region"
      aria-labelledby={`${tableId}-caption`}
    >
      <table id={tableId} className="w-full text-left text-sm">
        <caption id={`${tableId}-caption`} className="px-4 pt-4 text-left text-muted">
          {t(`reports.caption.${report.groupBy}`, { from: report.from, to: report.to })}
        </caption>
        <thead className="border-b border-line text-slate-300">
          <tr>
            <th scope="col" className="px-3 py-3 font-semibold">
              {t(`reports.groupings.${report.groupBy}`)}
            </th>
            {headings.map((h) => (
              <th key={h} scope="col" className="px-3 py-3 text-right font-semibold whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.rows.map((r) => (
            <tr key={r.key} className="border-b border-line/60">
              <th scope="row" className="px-3 py-2 font-semibold text-gold">
                {r.label}
              </th>
              {cells(r).map((c, i) => (
                <td key={i} className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-line font-semibold">
          <tr>
            <th scope="row" className="px-3 py-2">
              {t('reports.total')}
            </th>
            {cells(report.totals).map((c, i) => (
              <td key={i} className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                {c}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** The span's food and drink by product and by category: items sold and revenue, the best sellers first. */
function ConcessionTables({ report }: { report: SalesReport }) {
  const { t } = useTranslation('admin');
  const money = (cents: number) => formatMoney(cents, report.currency);
  const tables = [
    {
      caption: t('reports.byProduct'),
      first: t('reports.product'),
      rows: report.concessions.byProduct.map((p) => ({ key: p.productId, detail: p.category, ...p })),
    },
    {
      caption: t('reports.byCategory'),
      first: t('reports.category'),
      rows: report.concessions.byCategory.map((c) => ({ key: c.name, detail: null, ...c })),
    },
  ];
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {tables.map((table) => (
        <div key={table.caption} className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <caption className="px-4 pt-4 text-left text-muted">{table.caption}</caption>
            <thead className="border-b border-line text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {table.first}
                </th>
                <th scope="col" className="px-3 py-3 text-right font-semibold">
                  {t('reports.itemsSold')}
                </th>
                <th scope="col" className="px-3 py-3 text-right font-semibold">
                  {t('reports.revenue')}
                </th>
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={r.key} className="border-b border-line/60">
                  <th scope="row" className="px-3 py-2 font-semibold text-gold">
                    {r.name}
                    {r.detail && <span className="block text-xs font-normal text-slate-300">{r.detail}</span>}
                  </th>
                  <td className="px-3 py-2 text-right tabular-nums">{formatNumber(r.itemsSold)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{money(r.revenueCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}
