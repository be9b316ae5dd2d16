import { useTranslation } from '../../../lib/i18n';
import { Poster } from '../../../components/ui/poster';
import { errorText } from '../../../lib/api-client';
import { useAdminMovies } from '../api/get-admin-movies';
import { useDeleteMovie } from '../api/delete-movie';
import { QueryStatus } from '../../../components/ui/query-status';

/** Movies: every movie with a Delete button (refused by the server once it sold tickets). */
export function AdminMovieList() {
  const { t } = useTranslation('admin');
  const movies = useAdminMovies();
  const remove = useDeleteMovie();

  async function onDelete(movieId: string) {
    if (!window.confirm(t('movies.confirmDelete'))) return;
    try {
      await remove.mutateAsync(movieId);
    } catch (err) {
      window.alert(errorText(err, t('common.deleteFailed')));
    }
  }

  return (
    <section className="card space-y-4" aria-labelledby="admin-movies-title">
      <h2 id="admin-movies-title" className="text-lg font-semibold text-white">
        {t('movies.title')}
      </h2>
      <QueryStatus query={movies} failure={t('common.failedMovies')} />
      {movies.data?.length === 0 && <p className="muted">{t('movies.empty')}</p>}
      {movies.data && movies.data.length > 0 && (
        <ul className="divide-y divide-line" aria-label={t('movies.title')}>
          {movies.data.map((m) => (
            <li key={m.id} data-movie-id={m.id} className="flex items-center gap-3 py-3">
              <Poster
                url={m.posterUrl}
                srcSet={m.posterSrcSet}
                sizes="40px"
                title={m.title}
                decorative
                className="w-10 shrink-0 rounded-md"
              />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-white">{m.title}</p>
                <p className="text-xs text-muted">
                  {t('movies.line', {
                    rating: m.rating || t('movies.notRated'),
                    minutes: m.durationMinutes ?? '?',
                  })}
                </p>
              </div>
              <button
                type="button"
                className="btn-danger px-3 py-1.5"
                aria-label={t('movies.deleteNamed', { title: m.title })}
                disabled={remove.isPending && remove.variables === m.id}
                onClick={() => onDelete(m.id)}
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
