import { MANAGE_PAGE_SIZE } from '@cinema/contract/constants';
import { Link, useSearchParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useAdminMovies } from '../api/get-admin-movies';
import { useManagedShowtimes } from '../api/get-managed-showtimes';
import { addDays, dayBounds, formatDay, localDate, localTime } from '../lib/cinema-time';
import { useCinemaTimeZone } from '../lib/use-cinema-time-zone';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * /admin/showtimes: one day's showtimes (today on the cinema's clocks unless ?day= says otherwise), of every movie or
 * one (?movieId=), 50 a page (?page=), with sold tickets and live holds and links to each one's seats and QR codes.
 */
export function ManageShowtimesScreen() {
  const heading = usePageHeading('Manage Showtimes');
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
          Manage Showtimes
        </h1>
        <nav aria-label="Scheduling" className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <Link to="/admin/schedule">Schedule recurring showtimes</Link>
          <Link to="/admin/week">Week by hall</Link>
          <Link to="/admin">← Admin</Link>
        </nav>
      </div>

      <div className="card mb-6 flex flex-wrap items-end gap-3">
        <div role="group" aria-label="Day" className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={!day}
            onClick={() => day && show({ day: addDays(day, -1) })}
          >
            ← Previous day
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!today || day === today}
            onClick={() => show({ day: undefined })}
          >
            Today
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!day}
            onClick={() => day && show({ day: addDays(day, 1) })}
          >
            Next day →
          </button>
        </div>
        <label className="field">
          <span className="field-label">Date</span>
          <input
            className="input"
            type="date"
            value={day ?? ''}
            onChange={(e) => DAY.test(e.target.value) && show({ day: e.target.value })}
          />
        </label>
        <label className="field min-w-48 flex-1 sm:flex-none">
          <span className="field-label">Movie</span>
          <select className="input" value={movieId} onChange={(e) => show({ movieId: e.target.value })}>
            <option value="">All movies</option>
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
          {day === today ? 'Today, ' : ''}
          {formatDay(day)}
          <span className="ml-2 text-sm font-normal text-muted">
            {showtimes.data ? `${total} ${total === 1 ? 'showtime' : 'showtimes'} · ` : ''}times in {timeZone}
          </span>
        </h2>
      )}
      {!timeZone ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : (
        <QueryStatus query={showtimes} failure="Failed to load showtimes" />
      )}
      {showtimes.data?.showtimes.length === 0 && <p className="card">No showtimes</p>}
      {timeZone && showtimes.data && showtimes.data.showtimes.length > 0 && (
        <div className="card p-0">
          {/* A table on wider screens; on a phone each showtime becomes a compact block of its own. */}
          <table className="w-full text-left text-sm">
            <thead className="hidden border-b border-line text-slate-300 sm:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Movie
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Hall
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Starts
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Confirmed
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Held
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Links</span>
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
                  </th>
                  <td className="whitespace-nowrap text-slate-200 sm:px-4 sm:py-3">{s.auditorium}</td>
                  <td className="whitespace-nowrap text-slate-200 sm:px-4 sm:py-3">
                    <time dateTime={s.startsAt}>{localTime(s.startsAt, timeZone)}</time>
                  </td>
                  <td className="tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    {s.confirmed}
                    <span className="text-muted sm:hidden"> confirmed</span>
                  </td>
                  <td className="tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    {s.held}
                    <span className="text-muted sm:hidden"> held</span>
                  </td>
                  <td className="w-full whitespace-nowrap sm:w-auto sm:px-4 sm:py-3">
                    <span className="flex gap-4">
                      <Link to={`/admin/showtimes/${s.id}/booked`}>Booked seats</Link>
                      <Link to={`/admin/showtimes/${s.id}/tickets`}>QR codes</Link>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > MANAGE_PAGE_SIZE && (
        <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="btn-secondary"
            disabled={page <= 1}
            onClick={() => show({ page: page - 1 })}
          >
            ← Earlier
          </button>
          <span className="text-sm text-slate-200">
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="btn-secondary"
            disabled={page >= pages}
            onClick={() => show({ page: page + 1 })}
          >
            Later →
          </button>
        </nav>
      )}
    </section>
  );
}
