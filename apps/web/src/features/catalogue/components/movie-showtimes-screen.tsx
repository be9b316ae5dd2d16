import type { Movie, Showtime } from '@cinema/contract';
import { AttributeBadges } from '../../../components/ui/attribute-badges';
import { genresText } from '../../../components/ui/genre-select';
import { Link, useParams } from 'react-router';
import { Poster } from '../../../components/ui/poster';
import { errorText } from '../../../lib/api-client';
import { formatDate, formatTime, useFormatMoney } from '../../../lib/format';
import { useMovie } from '../api/get-movie';
import { useMovieShowtimes } from '../api/get-movie-showtimes';
import { movieFacts } from './movie-facts';
import { QueryStatus } from '../../../components/ui/query-status';
import { useTranslation } from '../../../lib/i18n';

const dayHeading = (iso: string) => formatDate(iso, { weekday: 'long', month: 'long', day: 'numeric' });

/** Showtimes grouped by the viewer's local day, keeping the start order. */
function byDay(showtimes: Showtime[]): [string, Showtime[]][] {
  const days = new Map<string, Showtime[]>();
  for (const s of showtimes) {
    const day = dayHeading(s.startsAt);
    days.set(day, [...(days.get(day) ?? []), s]);
  }
  return [...days];
}

/** Genres, director, cast, release date and the trailer link, each only when known. */
function MovieDetails({ movie }: { movie: Movie }) {
  const { t } = useTranslation('common');
  const facts: [string, string][] = [];
  if (movie.genres?.length) facts.push([t('movies.genres'), genresText(movie.genres)]);
  if (movie.director) facts.push([t('movies.director'), movie.director]);
  if (movie.cast?.length) facts.push([t('movies.cast'), movie.cast.join(', ')]);
  if (movie.releaseDate) {
    const released = formatDate(`${movie.releaseDate}T12:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' });
    facts.push([t('movies.released'), released]);
  }
  if (facts.length === 0 && !movie.trailerUrl) return null;
  return (
    <section aria-label={t('movies.details')} className="space-y-3">
      {facts.length > 0 && (
        <dl className="grid max-w-prose grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {facts.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-semibold text-muted">{term}</dt>
              <dd className="text-slate-100">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {movie.trailerUrl && (
        <a
          href={movie.trailerUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="btn-secondary inline-flex"
        >
          {t('movies.trailer')}
          <span className="sr-only"> {t('movies.trailerNote')}</span>
        </a>
      )}
    </section>
  );
}

/** /movies/{id}: the movie and its upcoming showtimes, each with a Select link to the seat map. */
export function MovieShowtimesScreen() {
  const { t } = useTranslation('common');
  const { id = '' } = useParams();
  const movie = useMovie(id);
  const showtimes = useMovieShowtimes(id);
  const formatMoney = useFormatMoney();

  return (
    <section>
      <Link to="/movies" className="mb-4 inline-block text-sm">
        {t('movies.all')}
      </Link>
      {movie.isError && (
        <p className="error mb-6" role="alert">
          {errorText(movie.error, t('movies.movieFailed'))}
        </p>
      )}
      {movie.data && (
        <header className="mb-8 flex flex-col gap-5 sm:flex-row sm:items-start">
          <Poster
            url={movie.data.posterUrl}
            srcSet={movie.data.posterSrcSet}
            sizes="(min-width: 640px) 176px, 100vw"
            title={movie.data.title}
            className="w-full max-w-44 shrink-0 sm:w-44"
          />
          <div className="space-y-3">
            <h1 className="page-title mb-0">{movie.data.title}</h1>
            <p className="text-sm font-medium text-gold">{movieFacts(movie.data)}</p>
            {movie.data.minAge && movie.data.rating && (
              <p className="text-sm font-semibold text-slate-100" data-age-rule={movie.data.minAge}>
                {t('movies.ageRuleLong', { rating: movie.data.rating, age: movie.data.minAge })}
              </p>
            )}
            {movie.data.description && <p className="max-w-prose text-slate-200">{movie.data.description}</p>}
            <MovieDetails movie={movie.data} />
          </div>
        </header>
      )}

      <h2 className="mb-3 text-xl font-semibold text-white">{t('movies.showtimes')}</h2>
      <QueryStatus query={showtimes} failure={t('movies.showtimesFailed')} />
      {showtimes.data?.length === 0 && <p className="card">{t('movies.noShowtimes')}</p>}
      {showtimes.data && showtimes.data.length > 0 && (
        <div className="space-y-6">
          {byDay(showtimes.data).map(([day, list]) => (
            <section key={day} aria-label={day}>
              <h3 className="mb-2 text-sm font-semibold tracking-wide text-muted uppercase">{day}</h3>
              <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-panel">
                {list.map((s) => (
                  <li
                    key={s.id}
                    data-showtime-id={s.id}
                    className="flex items-center gap-3 px-4 py-3 sm:gap-6"
                  >
                    <time
                      dateTime={s.startsAt}
                      className="w-20 shrink-0 text-base font-semibold whitespace-nowrap text-white sm:w-24 sm:text-lg"
                    >
                      {formatTime(s.startsAt)}
                    </time>
                    <span className="flex min-w-0 flex-col sm:flex-row sm:gap-6">
                      <span className="text-slate-200">{s.auditorium}</span>
                      <span className="font-medium text-slate-100">{formatMoney(s.priceCents)}</span>
                      <AttributeBadges attributes={s.attributes} />
                    </span>
                    <Link
                      to={`/showtimes/${s.id}/seats`}
                      className="btn-primary ml-auto"
                      aria-label={t('movies.selectSeatsFor', {
                        time: formatTime(s.startsAt),
                        day,
                        hall: s.auditorium,
                      })}
                    >
                      {t('movies.select')}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
