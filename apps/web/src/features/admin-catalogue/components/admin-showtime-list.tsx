import { useState } from 'react';
import { AttributeBadges } from '../../../components/ui/attribute-badges';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useAdminMovies } from '../api/get-admin-movies';
import { useAdminShowtimes } from '../api/get-admin-showtimes';
import { useDeleteShowtime } from '../api/delete-showtime';
import { QueryStatus } from '../../../components/ui/query-status';

/** Existing Showtimes, optionally of one movie, each with a Delete button. */
export function AdminShowtimeList() {
  const { t } = useTranslation('admin');
  const [movieId, setMovieId] = useState('');
  const movies = useAdminMovies();
  const showtimes = useAdminShowtimes(movieId || undefined);
  const remove = useDeleteShowtime();

  async function onDelete(showtimeId: string) {
    if (!window.confirm(t('showtimes.confirmDelete'))) return;
    try {
      await remove.mutateAsync(showtimeId);
    } catch (err) {
      window.alert(errorText(err, t('common.deleteFailed')));
    }
  }

  return (
    <section className="card space-y-4" aria-labelledby="admin-showtimes-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="admin-showtimes-title" className="text-lg font-semibold text-white">
          {t('showtimes.title')}
        </h2>
        <label className="field">
          <span className="sr-only">{t('showtimes.filter')}</span>
          <select className="input py-1.5" value={movieId} onChange={(e) => setMovieId(e.target.value)}>
            <option value="">{t('common.allMovies')}</option>
            {movies.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryStatus query={showtimes} failure={t('common.failedShowtimes')} />
      {showtimes.data?.length === 0 && <p className="muted">{t('common.noShowtimes')}</p>}
      {showtimes.data && showtimes.data.length > 0 && (
        <ul
          className="max-h-[32rem] divide-y divide-line overflow-y-auto pr-1"
          aria-label={t('showtimes.listLabel')}
        >
          {showtimes.data.map((s) => (
            <li key={s.id} data-showtime-id={s.id} className="flex items-center gap-3 py-2.5">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-white">{s.Movie.title}</p>
                <p className="text-sm text-slate-300">
                  <time dateTime={s.startsAt}>{formatDateTime(s.startsAt)}</time> · {s.Auditorium.name} ·{' '}
                  {formatMoney(s.priceCents)}
                </p>
                <AttributeBadges attributes={s.attributes} className="mt-1" />
              </div>
              <button
                type="button"
                className="btn-danger px-3 py-1.5"
                aria-label={t('showtimes.deleteNamed', {
                  title: s.Movie.title,
                  startsAt: formatDateTime(s.startsAt),
                  hall: s.Auditorium.name,
                })}
                disabled={remove.isPending && remove.variables === s.id}
                onClick={() => onDelete(s.id)}
              >
                {t('common.delete')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
