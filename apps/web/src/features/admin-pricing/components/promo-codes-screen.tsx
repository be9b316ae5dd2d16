import type { TFunction } from '../../../lib/i18n';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import type { PromoCode } from '@cinema/contract';
import { MAX_AMOUNT_OFF_CENTS } from '@cinema/contract/constants';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { currencySymbol, formatDateTime, moneyFieldProps } from '../../../lib/format';
import { useCinemaCurrency } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useCreatePromoCode, useEndPromoCode, usePromoCodes } from '../api/promo-codes';
import { useScopeMovies, useScopeShowtimes } from '../api/scopes';
import {
  discountInWords,
  emptyPromoDraft,
  promoBodyOf,
  usesInWords,
  type PromoDraft,
} from '../lib/promo-form';

/** When a code may be used: "Any time", "From …", "Until …", "… to …". */
function validity(p: PromoCode, t: TFunction<'admin'>): string {
  if (p.validFrom && p.validTo)
    return t('promo.between', { from: formatDateTime(p.validFrom), to: formatDateTime(p.validTo) });
  if (p.validFrom) return t('promo.validFrom', { from: formatDateTime(p.validFrom) });
  if (p.validTo) return t('promo.validUntil', { to: formatDateTime(p.validTo) });
  return t('promo.anyTime');
}

function NewPromoForm() {
  const { t } = useTranslation('admin');
  const create = useCreatePromoCode();
  const currency = useCinemaCurrency();
  const movies = useScopeMovies();
  const [draft, setDraft] = useState<PromoDraft>(emptyPromoDraft);
  const showtimes = useScopeShowtimes(draft.movieId);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const set = (change: Partial<PromoDraft>) => setDraft((d) => ({ ...d, ...change }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setNotice(null);
    const result = promoBodyOf(draft, currency);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    create.mutate(result.body, {
      onSuccess: (created) => {
        setNotice(t('promo.added', { code: created.code, discount: discountInWords(created) }));
        setDraft(emptyPromoDraft());
      },
      onError: (err) => setError(errorText(err, t('promo.addFailed'))),
    });
  };

  return (
    <form onSubmit={onSubmit} className="card space-y-4" aria-labelledby="new-promo-title" noValidate>
      <h2 id="new-promo-title" className="text-lg font-semibold text-white">
        {t('promo.new')}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="field">
          <span className="field-label">{t('promo.code')}</span>
          <input
            className="input uppercase"
            name="code"
            value={draft.code}
            maxLength={40}
            autoComplete="off"
            onChange={(e) => set({ code: e.target.value })}
            required
          />
        </label>
        <fieldset>
          <legend className="field-label mb-1 text-sm">{t('promo.discount')}</legend>
          <div className="flex flex-wrap items-center gap-3">
            <label className="flex min-h-8 items-center gap-2 text-sm">
              <input
                type="radio"
                name="kind"
                className="h-5 w-5"
                checked={draft.kind === 'percent'}
                onChange={() => set({ kind: 'percent' })}
              />
              {t('promo.percent')}
            </label>
            <label className="flex min-h-8 items-center gap-2 text-sm">
              <input
                type="radio"
                name="kind"
                className="h-5 w-5"
                checked={draft.kind === 'amount'}
                onChange={() => set({ kind: 'amount' })}
              />
              {t('promo.amount', { currency: currencySymbol() })}
            </label>
            <label className="field w-28">
              <span className="sr-only">
                {draft.kind === 'percent'
                  ? t('promo.percent')
                  : t('promo.amountIn', { currency: currencySymbol() })}
              </span>
              <input
                className="input tabular-nums"
                name="value"
                type="number"
                inputMode="decimal"
                {...(draft.kind === 'percent'
                  ? { min: 1, max: 100, step: 1 }
                  : moneyFieldProps(MAX_AMOUNT_OFF_CENTS, currency))}
                value={draft.value}
                onChange={(e) => set({ value: e.target.value })}
                required
              />
            </label>
          </div>
        </fieldset>
        <label className="field">
          <span className="field-label">{t('promo.validFromField')}</span>
          <input
            className="input"
            type="datetime-local"
            name="validFrom"
            value={draft.validFrom}
            onChange={(e) => set({ validFrom: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('promo.validUntilField')}</span>
          <input
            className="input"
            type="datetime-local"
            name="validTo"
            value={draft.validTo}
            onChange={(e) => set({ validTo: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('promo.maxUses')}</span>
          <input
            className="input tabular-nums"
            type="number"
            name="maxUses"
            min={1}
            step={1}
            value={draft.maxUses}
            onChange={(e) => set({ maxUses: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('promo.maxUsesPerCustomer')}</span>
          <input
            className="input tabular-nums"
            type="number"
            name="maxUsesPerCustomer"
            min={1}
            step={1}
            value={draft.maxUsesPerCustomer}
            onChange={(e) => set({ maxUsesPerCustomer: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('promo.onlyMovie')}</span>
          <select
            className="input"
            name="movieId"
            value={draft.movieId}
            onChange={(e) => set({ movieId: e.target.value, showtimeId: '' })}
          >
            <option value="">{t('promo.everyMovie')}</option>
            {movies.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('promo.onlyShowtime')}</span>
          <select
            className="input"
            name="showtimeId"
            value={draft.showtimeId}
            disabled={!draft.movieId}
            onChange={(e) => set({ showtimeId: e.target.value })}
          >
            <option value="">
              {draft.movieId ? t('promo.everyShowtimeOfMovie') : t('promo.chooseMovieFirst')}
            </option>
            {showtimes.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {formatDateTime(s.startsAt)} · {s.Auditorium.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FormMessages error={error} notice={notice} />
      <button type="submit" className="btn-primary" disabled={create.isPending}>
        {create.isPending ? t('common.saving') : t('promo.add')}
      </button>
    </form>
  );
}

/** /admin/promo-codes: every code with its discount, dates, scope and uses so far; add one, end one. */
export function PromoCodesScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('dashboard.links.promoCodes'));
  const codes = usePromoCodes();
  const movies = useScopeMovies();
  const end = useEndPromoCode();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const movieTitle = (id: string) => movies.data?.find((m) => m.id === id)?.title ?? t('promo.oneMovie');

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('dashboard.links.promoCodes')}
        </h1>
        <span className="flex gap-4 text-sm">
          <Link to="/admin/pricing">{t('pricing.title')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </span>
      </div>
      <NewPromoForm />
      <section className="card space-y-3" aria-labelledby="promo-list-title">
        <h2 id="promo-list-title" className="text-lg font-semibold text-white">
          {t('promo.codes')}
        </h2>
        <QueryStatus query={codes} failure={t('promo.loadFailed')} />
        {codes.data?.length === 0 && <p className="muted">{t('promo.empty')}</p>}
        {codes.data && codes.data.length > 0 && (
          <ul aria-label={t('dashboard.links.promoCodes')} className="divide-y divide-line/60">
            {codes.data.map((p) => (
              <li
                key={p.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-code={p.code}
              >
                <div className="min-w-0 space-y-0.5 text-sm">
                  <p className="font-mono text-base font-semibold text-white">
                    {p.code}{' '}
                    <span className="font-sans text-sm font-normal text-gold">{discountInWords(p)}</span>
                    {!p.active ? (
                      <span className="ml-2 font-sans text-sm text-muted">{t('promo.ended')}</span>
                    ) : (
                      p.validTo &&
                      Date.parse(p.validTo) < Date.now() && (
                        <span className="ml-2 font-sans text-sm text-muted">{t('promo.expired')}</span>
                      )
                    )}
                  </p>
                  <p className="text-slate-200">{validity(p, t)}</p>
                  <p className="text-slate-300">
                    {p.showtimeId
                      ? t('promo.oneShowtime')
                      : p.movieId
                        ? movieTitle(p.movieId)
                        : t('promo.everyShowtime')}
                    {' · '}
                    {usesInWords(p)}
                    {p.maxUsesPerCustomer !== null && t('promo.perCustomer', { max: p.maxUsesPerCustomer })}
                  </p>
                </div>
                {p.active && (
                  <button
                    type="button"
                    className="btn-danger"
                    disabled={end.isPending}
                    onClick={() => {
                      setError(null);
                      setNotice(null);
                      if (!window.confirm(t('promo.confirmEnd', { code: p.code }))) return;
                      end.mutate(p.id, {
                        onSuccess: () => setNotice(t('promo.endedNotice', { code: p.code })),
                        onError: (err) => setError(errorText(err, t('promo.endFailed'))),
                      });
                    }}
                  >
                    <Trans
                      t={t}
                      i18nKey="promo.end"
                      values={{ code: p.code }}
                      components={{ sr: <span className="sr-only" /> }}
                    />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <FormMessages error={error} notice={notice} />
      </section>
    </section>
  );
}
