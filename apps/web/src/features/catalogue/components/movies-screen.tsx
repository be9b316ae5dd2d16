import { MOVIE_GENRES } from '@cinema/contract/constants';
import { Link, useSearchParams } from 'react-router';
import { GenreSelect, genresText } from '../../../components/ui/genre-select';
import { Poster } from '../../../components/ui/poster';
import { useMovies } from '../api/get-movies';
import { movieFacts } from './movie-facts';
import { QueryStatus } from '../../../components/ui/query-status';
import { useTranslation } from '../../../lib/i18n';

/** /movies: every movie (of one genre: `?genre=DRAMA`) as a poster card linking to its showtimes. */
export function MoviesScreen() {
  const { t } = useTranslation('common');
  const [params, setParams] = useSearchParams();
  const asked = params.get('genre') ?? '';
  const genre = (MOVIE_GENRES as readonly string[]).includes(asked) ? asked : '';
  const movies = useMovies(genre);
  return (
    <section>
      <h1 className="page-title">{t('layout.movies')}</h1>
      <div className="mb-5">
        <GenreSelect value={genre} onChange={(g) => setParams(g ? { genre: g } : {}, { replace: true })} />
      </div>
      <QueryStatus query={movies} failure={t('movies.loadFailed')} />
      {movies.data?.length === 0 && (
        <p className="card">{genre ? t('movies.noneOfGenre') : t('movies.none')}</p>
      )}
      {movies.data && movies.data.length > 0 && (
        <ul
          className="grid grid-cols-2 gap-4 sm:grid-cols-3 sm:gap-5 lg:grid-cols-4 xl:grid-cols-5"
          aria-label={t('layout.movies')}
        >
          {movies.data.map((movie) => (
            <li key={movie.id}>
              <Link
                to={`/movies/${movie.id}`}
                className="group block rounded-2xl text-slate-100 no-underline hover:no-underline"
                data-movie-id={movie.id}
              >
                <Poster
                  url={movie.posterUrl}
                  srcSet={movie.posterSrcSet}
                  title={movie.title}
                  decorative
                  className="w-full shadow-lg shadow-black/40 transition group-hover:-translate-y-0.5 group-hover:border-gold/60"
                />
                <h2 className="mt-2 text-base leading-snug font-semibold text-white group-hover:text-gold">
                  {movie.title}
                </h2>
                <p className="text-sm text-muted">{movieFacts(movie)}</p>
                {movie.genres && movie.genres.length > 0 && (
                  <p className="text-xs text-slate-300">{genresText(movie.genres)}</p>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
