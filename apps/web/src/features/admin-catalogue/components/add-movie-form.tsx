import { MAX_GENRES, MAX_POSTER_BYTES, MOVIE_GENRES, RATING_SYSTEMS } from '@cinema/contract/constants';
import { genreText } from '../../../components/ui/genre-select';
import { useRatingSystem } from '../../../lib/settings';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { useCreateMovie } from '../api/create-movie';
import { FormMessages } from '../../../components/ui/form-messages';

const empty = {
  title: '',
  description: '',
  durationMinutes: '',
  rating: '',
  cast: '',
  director: '',
  releaseDate: '',
  trailerUrl: '',
};

/**
 * Add Movie: title required; description, length, a certificate of the cinema's rating system, genres, cast,
 * director, release date, trailer link and a poster image (previewed) optional.
 */
export function AddMovieForm() {
  const { t } = useTranslation('admin');
  const create = useCreateMovie();
  const ratingSystem = useRatingSystem();
  const [fields, setFields] = useState(empty);
  const [genres, setGenres] = useState<string[]>([]);
  const [poster, setPoster] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  // The preview is a blob URL of the chosen file; release it when the choice changes.
  useEffect(() => {
    if (!poster) return setPreview(null);
    const url = URL.createObjectURL(poster);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [poster]);

  const set = (key: keyof typeof empty) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    if (poster && poster.size > MAX_POSTER_BYTES) {
      setError(t('addMovie.posterTooBig'));
      return;
    }
    try {
      const movie = await create.mutateAsync({ ...fields, genres, poster });
      setFields(empty);
      setGenres([]);
      setPoster(null);
      if (fileInput.current) fileInput.current.value = '';
      setNotice(t('addMovie.added', { title: movie.title }));
    } catch (err) {
      setError(errorText(err, t('addMovie.failed')));
    }
  }

  return (
    <form onSubmit={onSubmit} className="card space-y-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        {t('addMovie.title')}
      </h2>
      <label className="field">
        <span className="field-label">{t('addMovie.movieTitle')}</span>
        <input
          className="input"
          name="title"
          value={fields.title}
          onChange={set('title')}
          required
          maxLength={200}
        />
      </label>
      <label className="field">
        <span className="field-label">{t('addMovie.description')}</span>
        <textarea
          className="input min-h-24"
          name="description"
          value={fields.description}
          onChange={set('description')}
          maxLength={5000}
        />
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="field">
          <span className="field-label">{t('addMovie.duration')}</span>
          <input
            className="input"
            name="durationMinutes"
            type="number"
            inputMode="numeric"
            min={1}
            max={1000}
            step={1}
            value={fields.durationMinutes}
            onChange={set('durationMinutes')}
          />
        </label>
        <label className="field">
          <span className="field-label">
            {t('addMovie.rating')}{' '}
            <span className="text-muted">({t('addMovie.ratingSystem', { system: ratingSystem })})</span>
          </span>
          <select className="input" name="rating" value={fields.rating} onChange={set('rating')}>
            <option value="">{t('addMovie.ratingNone')}</option>
            {RATING_SYSTEMS[ratingSystem].map((c) => (
              <option key={c.code} value={c.code}>
                {c.minAge > 0 ? `${c.code} (${c.minAge}+)` : c.code}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('addMovie.director')}</span>
          <input
            className="input"
            name="director"
            value={fields.director}
            onChange={set('director')}
            maxLength={200}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('addMovie.releaseDate')}</span>
          <input
            className="input"
            name="releaseDate"
            type="date"
            value={fields.releaseDate}
            onChange={set('releaseDate')}
          />
        </label>
      </div>
      <label className="field">
        <span className="field-label">{t('addMovie.cast')}</span>
        <input
          className="input"
          name="cast"
          value={fields.cast}
          onChange={set('cast')}
          maxLength={2000}
          aria-describedby={`${id}-cast-hint`}
        />
        <span id={`${id}-cast-hint`} className="text-xs text-muted">
          {t('addMovie.castHint')}
        </span>
      </label>
      <fieldset className="field">
        <legend className="field-label">{t('addMovie.genres')}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {MOVIE_GENRES.map((g) => (
            <label key={g} className="flex min-h-11 items-center gap-2 text-sm text-slate-100">
              <input
                type="checkbox"
                name="genres"
                value={g}
                checked={genres.includes(g)}
                disabled={!genres.includes(g) && genres.length >= MAX_GENRES}
                onChange={(e) =>
                  setGenres((list) => (e.target.checked ? [...list, g] : list.filter((x) => x !== g)))
                }
              />
              {genreText(g)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="field">
        <span className="field-label">{t('addMovie.trailerUrl')}</span>
        <input
          className="input"
          name="trailerUrl"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={fields.trailerUrl}
          onChange={set('trailerUrl')}
          maxLength={500}
        />
      </label>
      <div className="flex flex-wrap items-start gap-4">
        <label className="field min-w-0 flex-1">
          <span className="field-label">{t('addMovie.poster')}</span>
          <input
            ref={fileInput}
            className="input file:mr-3 file:rounded-md file:border-0 file:bg-panel-2 file:px-3 file:py-1 file:text-slate-100"
            name="poster"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            onChange={(e) => setPoster(e.target.files?.[0] ?? null)}
          />
          <span className="text-xs text-muted">{t('addMovie.posterHint')}</span>
        </label>
        {preview && (
          <img
            src={preview}
            alt={t('addMovie.posterPreview')}
            className="aspect-[2/3] w-24 rounded-lg border border-line object-cover"
          />
        )}
      </div>
      <FormMessages error={error} notice={notice} />
      <button type="submit" className="btn-primary" disabled={create.isPending || !fields.title.trim()}>
        {create.isPending ? t('common.saving') : t('addMovie.submit')}
      </button>
    </form>
  );
}
