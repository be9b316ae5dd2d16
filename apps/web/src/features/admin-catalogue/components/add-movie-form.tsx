import { MAX_POSTER_BYTES } from '@cinema/contract/constants';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { useCreateMovie } from '../api/create-movie';
import { FormMessages } from '../../../components/ui/form-messages';

const empty = { title: '', description: '', durationMinutes: '', rating: '' };

/** Add Movie: title required; description, length, rating and a poster image (previewed) optional. */
export function AddMovieForm() {
  const { t } = useTranslation('admin');
  const create = useCreateMovie();
  const [fields, setFields] = useState(empty);
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
      const movie = await create.mutateAsync({ ...fields, poster });
      setFields(empty);
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
          <span className="field-label">{t('addMovie.rating')}</span>
          <input
            className="input"
            name="rating"
            placeholder="PG-13"
            value={fields.rating}
            onChange={set('rating')}
            maxLength={20}
          />
        </label>
      </div>
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
