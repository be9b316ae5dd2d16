import { useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { addDays, filmWeek, localDate, weekStart } from '@cinema/contract/constants';
import type { BoxOfficeReturns, FilmHireReport } from '@cinema/contract';
import { QueryStatus } from '../../../components/ui/query-status';
import { FigureTile } from '../../../components/ui/figure-tile';
import { errorText } from '../../../lib/api-client';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useSettings } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import { downloadWeekCsv, useBoxOfficeReturns, useFilmHireReport } from '../api/get-film-hire-report';

const FRIDAY = 5;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day ("2026-03-20") as the viewer's language writes it, whatever their time zone. */
const dayText = (day: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
  formatDate(Date.parse(`${day}T12:00:00Z`), { ...options, timeZone: 'UTC' });

const percentText = (percent: number) =>
  formatNumber(percent / 100, { style: 'percent', maximumFractionDigits: 2 });

interface Figures {
  admissions: number;
  grossCents: number;
  taxCents: number;
  netCents: number;
}

/** /admin/reports/film-hire: rental due per distributor and film, and the box-office returns, for one film week. */
export function FilmHireScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('filmHire.title'));
  const settings = useSettings();
  const [params, setParams] = useSearchParams();
  const startsOn = settings?.filmWeekStart ?? FRIDAY;
  const asked = params.get('week');
  // The film week of the day asked for (any day of it), else this week on the cinema's clocks.
  const week = !settings
    ? null
    : asked && DAY.test(asked) && !Number.isNaN(Date.parse(asked))
      ? weekStart(asked, startsOn)
      : filmWeek(localDate(new Date(), settings.timeZone), settings.timeZone, startsOn).first;
  const goTo = (day: string) => setParams({ week: weekStart(day, startsOn) });
  const hire = useFilmHireReport(week);
  const returns = useBoxOfficeReturns(week);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const download = async (report: 'film-hire' | 'box-office') => {
    if (!week) return;
    setCsvError(null);
    setDownloading(report);
    try {
      await downloadWeekCsv(report, week);
    } catch (err) {
      setCsvError(errorText(err, t('filmHire.csvFailed')));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('filmHire.title')}
        </h1>
        <span className="flex gap-4 text-sm">
          <Link to="/admin/distributors">{t('dashboard.links.distributors')}</Link>
          <Link to="/admin/reports">{t('dashboard.links.reports')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </span>
      </div>
      {week && (
        <nav className="card flex flex-wrap items-end gap-3" aria-label={t('filmHire.weekPicker')}>
          <button type="button" className="btn-secondary" onClick={() => goTo(addDays(week, -7))}>
            {t('filmHire.previousWeek')}
          </button>
          <p className="min-w-48 flex-1 text-center font-semibold text-white" aria-live="polite">
            {t('filmHire.weekOf', { first: dayText(week), last: dayText(addDays(week, 6)) })}
          </p>
          <button type="button" className="btn-secondary" onClick={() => goTo(addDays(week, 7))}>
            {t('filmHire.nextWeek')}
          </button>
          <label className="field">
            <span className="field-label">{t('filmHire.weekContaining')}</span>
            <input
              className="input"
              type="date"
              value={week}
              onChange={(e) => DAY.test(e.target.value) && goTo(e.target.value)}
            />
          </label>
          <p className="w-full text-sm text-muted">
            {t('filmHire.weekHint', {
              weekday: dayText(week, { weekday: 'long' }),
              timeZone: settings?.timeZone ?? '',
            })}
          </p>
        </nav>
      )}
      {csvError && (
        <p role="alert" className="error">
          {csvError}
        </p>
      )}
      <QueryStatus query={hire} failure={t('filmHire.failed')} />
      {hire.data && (
        <Rental
          report={hire.data}
          downloading={downloading === 'film-hire'}
          onDownload={() => download('film-hire')}
        />
      )}
      <QueryStatus query={returns} failure={t('filmHire.failed')} />
      {returns.data && (
        <Returns
          report={returns.data}
          downloading={downloading === 'box-office'}
          onDownload={() => download('box-office')}
        />
      )}
    </section>
  );
}

/** A table that scrolls sideways on a phone, focusable so a keyboard can scroll it too. */
function ScrollTable({ caption, children }: { caption: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="card overflow-x-auto p-0" tabIndex={0} role="region" aria-labelledby={id}>
      <table className="w-full text-sm">
        <caption id={id} className="px-3 pt-3 text-left font-semibold text-white">
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}

const cell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';
const headCell = 'px-3 py-2 text-right font-medium text-muted whitespace-nowrap';
const firstCell = 'px-3 py-2 text-left';

function Rental({
  report,
  downloading,
  onDownload,
}: {
  report: FilmHireReport;
  downloading: boolean;
  onDownload: () => void;
}) {
  const { t } = useTranslation('admin');
  const money = (cents: number) => formatMoney(cents, report.currency);
  const figures = (f: Figures) => [
    formatNumber(f.admissions),
    money(f.grossCents),
    money(f.taxCents),
    money(f.netCents),
  ];
  const heads = [t('filmHire.admissions'), t('filmHire.gross'), t('filmHire.tax'), t('filmHire.net')];
  const empty = report.distributors.length === 0 && report.withoutTerms.length === 0;
  return (
    <section className="space-y-4" aria-labelledby="rental-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="rental-heading" className="text-xl font-semibold text-white">
          {t('filmHire.rentalDue')}
        </h2>
        <button type="button" className="btn-secondary" onClick={onDownload} disabled={downloading}>
          {downloading ? t('filmHire.downloading') : t('filmHire.downloadRental')}
        </button>
      </div>
      {report.testSales === 'included' && <p className="card text-sm">{t('reports.testMode')}</p>}
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label={t('filmHire.totals')}>
        <FigureTile term={t('filmHire.admissions')} value={formatNumber(report.totals.admissions)} />
        <FigureTile term={t('filmHire.gross')} value={money(report.totals.grossCents)} />
        <FigureTile term={t('filmHire.net')} value={money(report.totals.netCents)} />
        <FigureTile term={t('filmHire.rental')} value={money(report.totals.rentalCents)} />
      </dl>
      {empty && <p className="card">{t('filmHire.empty')}</p>}
      {report.distributors.map((d) => (
        <ScrollTable
          key={d.id}
          caption={t('filmHire.distributorDue', { name: d.name, amount: money(d.rentalCents) })}
        >
          <thead>
            <tr>
              <th scope="col" className={`${headCell} text-left`}>
                {t('filmHire.film')}
              </th>
              <th scope="col" className={headCell}>
                {t('filmHire.weekOfRun')}
              </th>
              {heads.map((h) => (
                <th key={h} scope="col" className={headCell}>
                  {h}
                </th>
              ))}
              <th scope="col" className={headCell}>
                {t('filmHire.percent')}
              </th>
              <th scope="col" className={headCell}>
                {t('filmHire.guarantee')}
              </th>
              <th scope="col" className={headCell}>
                {t('filmHire.rental')}
              </th>
            </tr>
          </thead>
          <tbody>
            {d.films.map((f) => (
              <tr key={f.movieId} className="border-t border-line/60">
                <th scope="row" className={`${firstCell} font-medium text-white`}>
                  {f.title}
                </th>
                <td className={cell}>{formatNumber(f.weekOfRun)}</td>
                {figures(f).map((v, i) => (
                  <td key={i} className={cell}>
                    {v}
                  </td>
                ))}
                <td className={cell}>{percentText(f.percent)}</td>
                <td className={cell}>{f.guaranteeCents === null ? '—' : money(f.guaranteeCents)}</td>
                <td className={`${cell} font-semibold text-white`}>
                  {money(f.rentalCents)}
                  {f.guaranteeApplied && (
                    <span className="block text-xs text-muted">{t('filmHire.guaranteeApplies')}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ))}
      {report.withoutTerms.length > 0 && (
        <ScrollTable caption={t('filmHire.withoutTerms')}>
          <thead>
            <tr>
              <th scope="col" className={`${headCell} text-left`}>
                {t('filmHire.film')}
              </th>
              {heads.map((h) => (
                <th key={h} scope="col" className={headCell}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.withoutTerms.map((f) => (
              <tr key={f.movieId} className="border-t border-line/60">
                <th scope="row" className={`${firstCell} font-medium text-white`}>
                  <Link to="/admin/distributors">{f.title}</Link>
                </th>
                {figures(f).map((v, i) => (
                  <td key={i} className={cell}>
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <p className="text-sm text-muted">{t('filmHire.howWorkedOut')}</p>
    </section>
  );
}

function Returns({
  report,
  downloading,
  onDownload,
}: {
  report: BoxOfficeReturns;
  downloading: boolean;
  onDownload: () => void;
}) {
  const { t } = useTranslation('admin');
  const money = (cents: number) => formatMoney(cents, report.currency);
  return (
    <section className="space-y-4" aria-labelledby="returns-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="returns-heading" className="text-xl font-semibold text-white">
          {t('filmHire.returns')}
        </h2>
        <button type="button" className="btn-secondary" onClick={onDownload} disabled={downloading}>
          {downloading ? t('filmHire.downloading') : t('filmHire.downloadReturns')}
        </button>
      </div>
      <p className="text-sm text-muted">{t('filmHire.returnsHint', { timeZone: report.timeZone })}</p>
      {report.films.length === 0 && <p className="card">{t('filmHire.noShowtimes')}</p>}
      {report.films.map((f) => (
        <ScrollTable
          key={f.movieId}
          caption={t('filmHire.filmReturns', {
            title: f.title,
            admissions: formatNumber(f.admissions),
            gross: money(f.grossCents),
          })}
        >
          <thead>
            <tr>
              <th scope="col" className={`${headCell} text-left`}>
                {t('filmHire.day')}
              </th>
              <th scope="col" className={headCell}>
                {t('filmHire.time')}
              </th>
              <th scope="col" className={`${headCell} text-left`}>
                {t('filmHire.hall')}
              </th>
              <th scope="col" className={headCell}>
                {t('filmHire.admissions')}
              </th>
              <th scope="col" className={headCell}>
                {t('filmHire.gross')}
              </th>
            </tr>
          </thead>
          {f.days.map((d) => (
            <tbody key={d.date}>
              {f.showtimes
                .filter((s) => s.date === d.date)
                .map((s) => (
                  <tr key={s.showtimeId} className="border-t border-line/60">
                    <td className={firstCell}>{dayText(s.date)}</td>
                    <td className={cell}>{s.time}</td>
                    <td className={firstCell}>{s.hall}</td>
                    <td className={cell}>{formatNumber(s.admissions)}</td>
                    <td className={cell}>{money(s.grossCents)}</td>
                  </tr>
                ))}
              <tr className="border-t border-line/60 bg-white/5">
                <th scope="row" colSpan={3} className={`${firstCell} font-medium`}>
                  {t('filmHire.dayTotal', { day: dayText(d.date) })}
                </th>
                <td className={`${cell} font-semibold`}>{formatNumber(d.admissions)}</td>
                <td className={`${cell} font-semibold`}>{money(d.grossCents)}</td>
              </tr>
            </tbody>
          ))}
        </ScrollTable>
      ))}
    </section>
  );
}
