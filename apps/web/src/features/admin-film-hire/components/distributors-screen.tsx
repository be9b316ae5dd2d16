import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { minorToText, toMinor } from '@cinema/contract/constants';
import type { Distributor, MovieFilmHire } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-client';
import { formatMoney, formatNumber, moneyFieldProps } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useCinemaCurrency } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useDistributors, useSaveDistributor } from '../api/distributors';
import { useMovieTerms, useRemoveTerms, useSaveTerms } from '../api/film-hire-terms';

type Tell = (notice: string | null, error?: string) => void;

const percentText = (percent: number) =>
  formatNumber(percent / 100, { style: 'percent', maximumFractionDigits: 2 });

/** A distributor's name, renamed in place. */
function DistributorRow({ distributor, onTell }: { distributor: Distributor; onTell: Tell }) {
  const { t } = useTranslation('admin');
  const save = useSaveDistributor();
  const [name, setName] = useState(distributor.name);
  return (
    <li className="py-2">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(
            { id: distributor.id, name },
            {
              onSuccess: (saved) => onTell(t('filmHire.renamed', { name: saved.name })),
              onError: (err) => onTell(null, errorText(err, t('filmHire.saveFailed'))),
            },
          );
        }}
      >
        <label className="field min-w-0 flex-1">
          <span className="sr-only">{t('filmHire.nameOf', { name: distributor.name })}</span>
          <input
            className="input"
            required
            maxLength={80}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="btn-secondary"
          disabled={save.isPending || name.trim() === distributor.name}
          aria-label={t('filmHire.renameNamed', { name: distributor.name })}
        >
          {t('filmHire.rename')}
        </button>
      </form>
    </li>
  );
}

function Distributors({ onTell }: { onTell: Tell }) {
  const { t } = useTranslation('admin');
  const list = useDistributors();
  const add = useSaveDistributor();
  const [name, setName] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { name },
      {
        onSuccess: (saved) => {
          setName('');
          onTell(t('filmHire.added', { name: saved.name }));
        },
        onError: (err) => onTell(null, errorText(err, t('filmHire.saveFailed'))),
      },
    );
  };
  return (
    <section className="card space-y-3" aria-labelledby="distributors-heading">
      <h2 id="distributors-heading" className="text-lg font-semibold text-white">
        {t('filmHire.distributors')}
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label className="field min-w-0 flex-1">
          <span className="field-label">{t('filmHire.newDistributor')}</span>
          <input
            className="input"
            required
            maxLength={80}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button type="submit" className="btn-primary" disabled={add.isPending}>
          {t('filmHire.add')}
        </button>
      </form>
      <QueryStatus query={list} failure={t('filmHire.loadFailed')} />
      {list.data?.length === 0 && <p className="muted">{t('filmHire.noDistributors')}</p>}
      <ul className="divide-y divide-line/60" aria-label={t('filmHire.distributors')}>
        {list.data?.map((d) => (
          <DistributorRow key={d.id} distributor={d} onTell={onTell} />
        ))}
      </ul>
    </section>
  );
}

/** A share of the net box office, to the hundredth of a percent. */
const PERCENT_FIELD = { type: 'number', required: true, min: '0', max: '100', step: '0.01' } as const;

interface StepDraft {
  fromWeek: string;
  percent: string;
}

/** A movie's terms: distributor, percent, a sliding scale by week of run, a minimum guarantee per film week. */
function TermsForm({
  movie,
  distributors,
  onDone,
  onTell,
}: {
  movie: MovieFilmHire;
  distributors: Distributor[];
  onDone: () => void;
  onTell: Tell;
}) {
  const { t } = useTranslation('admin');
  const currency = useCinemaCurrency();
  const save = useSaveTerms();
  const remove = useRemoveTerms();
  const terms = movie.terms;
  const [distributorId, setDistributorId] = useState(terms?.distributorId ?? distributors[0]?.id ?? '');
  const [percent, setPercent] = useState(terms ? String(terms.percent) : '');
  const [guarantee, setGuarantee] = useState(
    terms?.guaranteeCents != null ? minorToText(terms.guaranteeCents, currency) : '',
  );
  const [steps, setSteps] = useState<StepDraft[]>(
    terms?.scale.map((s) => ({ fromWeek: String(s.fromWeek), percent: String(s.percent) })) ?? [],
  );
  const setStep = (i: number, change: Partial<StepDraft>) =>
    setSteps(steps.map((s, j) => (j === i ? { ...s, ...change } : s)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const guaranteeCents = guarantee.trim() === '' ? null : toMinor(guarantee, currency);
    if (guarantee.trim() !== '' && guaranteeCents === null) {
      onTell(null, t('filmHire.badGuarantee'));
      return;
    }
    save.mutate(
      {
        movieId: movie.movieId,
        body: {
          distributorId,
          percent: Number(percent),
          guaranteeCents,
          scale: steps.map((s) => ({ fromWeek: Number(s.fromWeek), percent: Number(s.percent) })),
        },
      },
      {
        onSuccess: () => {
          onTell(t('filmHire.termsSaved', { title: movie.title }));
          onDone();
        },
        onError: (err) => onTell(null, errorText(err, t('filmHire.saveFailed'))),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      className="mt-3 space-y-3"
      aria-label={t('filmHire.termsOf', { title: movie.title })}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="field">
          <span className="field-label">{t('filmHire.distributor')}</span>
          <select
            className="input"
            required
            value={distributorId}
            onChange={(e) => setDistributorId(e.target.value)}
          >
            {distributors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <TextField
          {...PERCENT_FIELD}
          label={t('filmHire.percent')}
          value={percent}
          onValueChange={setPercent}
        />
        <TextField
          type="number"
          {...moneyFieldProps(1_000_000_000, currency)}
          min="0"
          label={t('filmHire.guarantee')}
          value={guarantee}
          onValueChange={setGuarantee}
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="field-label">{t('filmHire.scale')}</legend>
        <p className="text-sm text-muted">{t('filmHire.scaleHint')}</p>
        {steps.map((s, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2">
            <div className="w-32">
              <TextField
                type="number"
                required
                min="2"
                max="520"
                step="1"
                label={t('filmHire.fromWeek')}
                value={s.fromWeek}
                onValueChange={(fromWeek) => setStep(i, { fromWeek })}
              />
            </div>
            <div className="w-32">
              <TextField
                {...PERCENT_FIELD}
                label={t('filmHire.percent')}
                value={s.percent}
                onValueChange={(percent) => setStep(i, { percent })}
              />
            </div>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setSteps(steps.filter((_, j) => j !== i))}
              aria-label={t('filmHire.removeStep', { week: s.fromWeek || '?' })}
            >
              {t('filmHire.remove')}
            </button>
          </div>
        ))}
        <button
          type="button"
          className="btn-secondary"
          onClick={() =>
            setSteps([
              ...steps,
              {
                fromWeek: String(Math.max(1, ...steps.map((s) => Number(s.fromWeek) || 1)) + 1),
                percent: '',
              },
            ])
          }
        >
          {t('filmHire.addStep')}
        </button>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={save.isPending || distributorId === ''}>
          {t('filmHire.saveTerms')}
        </button>
        {terms && (
          <button
            type="button"
            className="btn-secondary"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(movie.movieId, {
                onSuccess: () => {
                  onTell(t('filmHire.termsRemoved', { title: movie.title }));
                  onDone();
                },
                onError: (err) => onTell(null, errorText(err, t('filmHire.saveFailed'))),
              })
            }
          >
            {t('filmHire.removeTerms')}
          </button>
        )}
        <button type="button" className="btn-secondary" onClick={onDone}>
          {t('filmHire.cancel')}
        </button>
      </div>
    </form>
  );
}

/** A movie's terms in a line: "Northwind Pictures · 50% · from week 2: 40% · guarantee $500.00". */
function TermsSummary({ movie }: { movie: MovieFilmHire }) {
  const { t } = useTranslation('admin');
  const terms = movie.terms;
  if (!terms) return <p className="text-sm text-muted">{t('filmHire.noTerms')}</p>;
  return (
    <p className="text-sm text-slate-300">
      {[
        terms.distributorName,
        percentText(terms.percent),
        ...terms.scale.map((s) =>
          t('filmHire.fromWeekPercent', { week: s.fromWeek, percent: percentText(s.percent) }),
        ),
        ...(terms.guaranteeCents === null
          ? []
          : [t('filmHire.guaranteeOf', { amount: formatMoney(terms.guaranteeCents) })]),
      ].join(' · ')}
    </p>
  );
}

function MovieTerms({ onTell }: { onTell: Tell }) {
  const { t } = useTranslation('admin');
  const movies = useMovieTerms();
  const distributors = useDistributors();
  const [editing, setEditing] = useState<string | null>(null);
  const none = (distributors.data?.length ?? 0) === 0;
  return (
    <section className="card space-y-3" aria-labelledby="terms-heading">
      <h2 id="terms-heading" className="text-lg font-semibold text-white">
        {t('filmHire.terms')}
      </h2>
      <p className="text-sm text-muted">{t('filmHire.termsHint')}</p>
      <QueryStatus query={movies} failure={t('filmHire.loadFailed')} />
      {movies.data?.length === 0 && <p className="muted">{t('filmHire.noMovies')}</p>}
      <ul className="divide-y divide-line/60" aria-label={t('filmHire.terms')}>
        {movies.data?.map((m) => (
          <li key={m.movieId} className="py-3">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-semibold text-white">{m.title}</p>
                <TermsSummary movie={m} />
              </div>
              {editing !== m.movieId && (
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={none}
                  onClick={() => setEditing(m.movieId)}
                  aria-label={t(m.terms ? 'filmHire.editTermsOf' : 'filmHire.setTermsOf', { title: m.title })}
                >
                  {m.terms ? t('filmHire.editTerms') : t('filmHire.setTerms')}
                </button>
              )}
            </div>
            {editing === m.movieId && distributors.data && (
              <TermsForm
                movie={m}
                distributors={distributors.data}
                onDone={() => setEditing(null)}
                onTell={onTell}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /admin/distributors: the distributors films are hired from, and each movie's film-hire terms (DESIGN §7.4). */
export function DistributorsScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('filmHire.distributorsTitle'));
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tell: Tell = (text, err) => {
    setNotice(text);
    setError(err ?? null);
  };
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('filmHire.distributorsTitle')}
        </h1>
        <span className="flex gap-4 text-sm">
          <Link to="/admin/reports/film-hire">{t('dashboard.links.filmHire')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </span>
      </div>
      <FormMessages error={error} notice={notice} />
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_2fr]">
        <Distributors onTell={tell} />
        <MovieTerms onTell={tell} />
      </div>
    </section>
  );
}
