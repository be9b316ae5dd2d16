import { addDays, dayBounds, localDate, localTime, MANAGE_PAGE_SIZE } from '@cinema/contract/constants';
import { AttributeBadges } from '../../../components/ui/attribute-badges';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useAdminMovies } from '../api/get-admin-movies';
import { useManagedShowtimes } from '../api/get-managed-showtimes';
import { useWaitlistCounts } from '../api/get-waitlist-counts';
import { formatDay } from '../lib/format-day';
import { useCinemaTimeZone } from '../lib/use-cinema-time-zone';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * /admin/showtimes: one day's showtimes (today on the cinema's clocks unless ?day= says otherwise), of every movie or
 * one (?movieId=), 50 a page (?page=), with sold tickets and live holds and links to each one's seats and QR codes.
 */
export function ManageShowtimesScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('manage.title'));
  const timeZone = useCinemaTimeZone();
  const [params, setParams] = useSearchParams();
  const today = timeZone ? localDate(new Date(), timeZone) : null;
  const asked = params.get('day');
  const day = asked && DAY.test(asked) ? asked : today;
  const movieId = params.get('movieId') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const bounds = day && timeZone ? dayBounds(day, timeZone) : null;
  const movies = useAdminMovies();
  const showtimes = useManagedShowtimes(
    {
      from: bounds?.from.toISOString(),
      to: bounds?.to.toISOString(),
      movieId: movieId || undefined,
      page,
    },
    bounds !== null,
  );
  const total = showtimes.data?.total ?? 0;
  const counts = useWaitlistCounts();
  const waiting = new Map((counts.data?.counts ?? []).map((c) => [c.showtimeId, c]));
  const pages = Math.max(1, Math.ceil(total / MANAGE_PAGE_SIZE));

  /** Changes the URL's filter; a new day or movie starts again at page 1. */
  function show(next: { day?: string; movieId?: string; page?: number }) {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined || value === '' || (key === 'page' && value === 1)) merged.delete(key);
      else merged.set(key, String(value));
    }
    if (next.page === undefined) merged.delete('page');
    setParams(merged);
  }

  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('manage.title')}
        </h1>
        <nav aria-label={t('common.scheduling')} className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <Link to="/admin/schedule">{t('common.scheduleRecurring')}</Link>
          <Link to="/admin/week">{t('common.weekByHall')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </nav>
      </div>

      <div className="card mb-6 flex flex-wrap items-end gap-3">
        <div role="group" aria-label={t('manage.day')} className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={!day}
            onClick={() => day && show({ day: addDays(day, -1) })}
          >
            {t('manage.previousDay')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!today || day === today}
            onClick={() => show({ day: undefined })}
          >
            {t('manage.today')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!day}
            onClick={() => day && show({ day: addDays(day, 1) })}
          >
            {t('manage.nextDay')}
          </button>
        </div>
        <label className="field">
          <span className="field-label">{t('manage.date')}</span>
          <input
            className="input"
            type="date"
            value={day ?? ''}
            onChange={(e) => DAY.test(e.target.value) && show({ day: e.target.value })}
          />
        </label>
        <label className="field min-w-48 flex-1 sm:flex-none">
          <span className="field-label">{t('common.movie')}</span>
          <select className="input" value={movieId} onChange={(e) => show({ movieId: e.target.value })}>
            <option value="">{t('common.allMovies')}</option>
            {movies.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </select>
        </label>
      </div>

      {day && timeZone && (
        <h2 className="mb-3 text-lg font-semibold text-white" aria-live="polite">
          {day === today ? t('manage.todayDay', { day: formatDay(day) }) : formatDay(day)}
          <span className="block text-sm font-normal text-muted sm:ml-2 sm:inline">
            {showtimes.data
              ? t('manage.countAndZone', { count: total, timeZone })
              : t('manage.timesIn', { timeZone })}
          </span>
        </h2>
      )}
      {!timeZone ? (
        <p className="muted" role="status">
          {t('common.loading')}
        </p>
      ) : (
        <QueryStatus query={showtimes} failure={t('common.failedShowtimes')} />
      )}
      {showtimes.data?.showtimes.length === 0 && <p className="card">{t('common.noShowtimes')}</p>}
      {timeZone && showtimes.data && showtimes.data.showtimes.length > 0 && (
        <div className="card p-0">
          {/* A table on wider screens; on a phone each showtime becomes a compact block of its own. */}
          <table className="w-full text-left text-sm">
            <thead className="hidden border-b border-line text-slate-300 sm:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('common.movie')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('common.hall')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('manage.starts')}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {t('manage.confirmed')}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {t('manage.held')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('manage.waitlist')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">{t('manage.links')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="block sm:table-row-group">
              {showtimes.data.showtimes.map((s) => (
                <tr
                  key={s.id}
                  data-showtime-id={s.id}
                  className="flex flex-wrap gap-x-3 gap-y-1 border-b border-line/60 px-4 py-3 last:border-0 sm:table-row sm:p-0"
                >
                  <th scope="row" className="w-full font-semibold text-white sm:w-auto sm:px-4 sm:py-3">
                    {s.movie}
                    <AttributeBadges attributes={s.attributes} className="mt-1 font-normal" />
                  </th>
                  <td className="whitespace-nowrap text-slate-200 sm:px-4 sm:py-3">{s.auditorium}</td>
                  <td className="whitespace-nowrap text-slate-200 sm:px-4 sm:py-3">
                    <time dateTime={s.startsAt}>{localTime(s.startsAt, timeZone)}</time>
                  </td>
                  <td className="tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    <Trans
                      t={t}
                      i18nKey="manage.confirmedCount"
                      values={{ n: s.confirmed }}
                      components={{ muted: <span className="text-muted sm:hidden" /> }}
                    />
                  </td>
                  <td className="tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    <Trans
                      t={t}
                      i18nKey="manage.heldCount"
                      values={{ n: s.held }}
                      components={{ muted: <span className="text-muted sm:hidden" /> }}
                    />
                  </td>
                  <td className="w-full whitespace-nowrap sm:w-auto sm:px-4 sm:py-3">
                    <Link to={`/admin/showtimes/${s.id}/waitlist`} data-testid="waitlist-count">
                      {waiting.get(s.id)?.openOffers
                        ? t('manage.waitlistOffers', {
                            n: waiting.get(s.id)!.waiting,
                            offers: waiting.get(s.id)!.openOffers,
                          })
                        : t('manage.waitlistCount', { n: waiting.get(s.id)?.waiting ?? 0 })}
                    </Link>
                  </td>
                  <td className="w-full whitespace-nowrap sm:w-auto sm:px-4 sm:py-3">
                    <span className="flex gap-4">
                      <Link to={`/admin/showtimes/${s.id}/booked`}>{t('common.bookedSeats')}</Link>
                      <Link to={`/admin/showtimes/${s.id}/tickets`}>{t('common.qrCodes')}</Link>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > MANAGE_PAGE_SIZE && (
        <nav aria-label={t('common.pages')} className="mt-4 flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn-secondary"
            disabled={page <= 1}
            onClick={() => show({ page: page - 1 })}
          >
            {t('manage.earlier')}
          </button>
          <span className="text-sm text-slate-200">{t('common.pageOf', { page, pages })}</span>
          <button
            type="button"
            className="btn-secondary"
            disabled={page >= pages}
            onClick={() => show({ page: page + 1 })}
          >
            {t('manage.later')}
          </button>
        </nav>
      )}
    </section>
  );
}
