import { MOVIE_GENRES } from '@cinema/contract/constants';
import { i18n, useTranslation } from '../../lib/i18n';

/** A genre as the viewer reads it ("Science fiction", "Ciencia ficción"); its code when unknown. */
export const genreText = (genre: string): string => i18n.t(`common:genres.${genre}`, { defaultValue: genre });

/** The genres of a movie as one line: "Crime · Thriller". */
export const genresText = (genres: readonly string[] | undefined): string =>
  (genres ?? []).map(genreText).join(' · ');

/** "Genre: All genres / Drama / …": filters a list of movies or showtimes by one genre (empty: all). */
export function GenreSelect({ value, onChange }: { value: string; onChange: (genre: string) => void }) {
  const { t } = useTranslation('common');
  return (
    <label className="field w-full max-w-xs">
      <span className="field-label">{t('genres.label')}</span>
      <select className="input" name="genre" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('genres.all')}</option>
        {MOVIE_GENRES.map((g) => (
          <option key={g} value={g}>
            {genreText(g)}
          </option>
        ))}
      </select>
    </label>
  );
}
