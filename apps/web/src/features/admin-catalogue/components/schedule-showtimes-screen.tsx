import type { BatchProblem, BatchShowtime, BatchShowtimesBody } from '@cinema/contract';
import {
  addDays,
  BATCH_MAX_DAYS,
  CLEANING_MINUTES,
  localDate,
  localTime,
  MAX_PRICE_CENTS,
} from '@cinema/contract/constants';
import type { TFunction } from '../../../lib/i18n';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { FormMessages } from '../../../components/ui/form-messages';
import { AttributesField } from './attributes-field';
import { errorText } from '../../../lib/api-client';
import { currencySymbol, formatMoney, moneyFieldProps } from '../../../lib/format';
import { useCinemaCurrency } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import { refusedPlan, useBatchShowtimes } from '../api/batch-showtimes';
import { useAdminMovies } from '../api/get-admin-movies';
import { useHalls } from '../api/get-halls';
import { formatDay } from '../lib/format-day';
import { priceCentsFromText } from '../lib/showtime-input';
import { useCinemaTimeZone } from '../lib/use-cinema-time-zone';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** 2026-11-30 was a Monday: its week names the weekdays in the viewer's language. */
const weekdayName = (isoDay: number, weekday: 'short' | 'long' = 'short') =>
  formatDay(addDays('2026-11-30', isoDay - 1), { weekday });
/** When the film itself ends: the hall's `endsAt` counts the cleaning after it too. */
const filmEnds = (endsAt: string) => new Date(Date.parse(endsAt) - CLEANING_MINUTES * 60_000);
const shortDay = (date: string) => formatDay(date, { weekday: 'short', day: 'numeric', month: 'short' });

/** The catalogue key of each reason a planned showtime cannot be created. */
const REASONS = {
  overlap: 'schedule.reasons.overlap',
  overlaps_batch: 'schedule.reasons.overlapsBatch',
  in_the_past: 'schedule.reasons.inThePast',
  skipped_by_clocks: 'schedule.reasons.skippedByClocks',
  no_price: 'schedule.reasons.noPrice',
} as const satisfies Record<BatchProblem['reason'], string>;

/** A problem in the viewer's language, from its reason and the showtimes it names (the server writes it in English). */
function problemText(p: BatchProblem, t: TFunction<'admin'>, timeZone: string): string {
  const values = { day: p.localDate, time: p.localTime, hall: p.auditorium };
  switch (p.reason) {
    case 'overlap':
      return t('schedule.problemText.overlap', { ...values, movie: p.clash?.movie ?? '' });
    case 'overlaps_batch':
      return t('schedule.problemText.overlapsBatch', {
        ...values,
        time: p.clash ? localTime(p.clash.startsAt, timeZone) : p.localTime,
      });
    case 'in_the_past':
      return t('schedule.problemText.inThePast', values);
    case 'skipped_by_clocks':
      return t('schedule.problemText.skippedByClocks', values);
    case 'no_price': {
      // The server names the card whose first ticket type is free; it is not among the problem's fields.
      const card = /^The card “(.+)” sells/.exec(p.message)?.[1];
      return card
        ? t('schedule.problemText.freeCard', { ...values, card })
        : t('schedule.problemText.noCard', values);
    }
  }
}

interface Plan {
  /** The form as it was previewed: a change makes the preview stale. */
  key: string;
  showtimes: BatchShowtime[];
  problems: BatchProblem[];
}

/**
 * /admin/schedule: a movie's recurring showtimes (halls, a range of days, weekdays, several start times, days left
 * out) on the cinema's clocks. Preview lists every showtime and every problem before anything is written; Create
 * writes all of them or none.
 */
export function ScheduleShowtimesScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('common.scheduleRecurring'));
  const timeZone = useCinemaTimeZone();
  const currency = useCinemaCurrency();
  const movies = useAdminMovies();
  const halls = useHalls();
  const batch = useBatchShowtimes();
  const id = useId();

  const [movieId, setMovieId] = useState('');
  const [hallIds, setHallIds] = useState<string[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [weekdays, setWeekdays] = useState<number[]>([...WEEKDAYS]);
  const [times, setTimes] = useState<string[]>(['20:00']);
  const [except, setExcept] = useState<string[]>([]);
  const [price, setPrice] = useState('');
  const [attributes, setAttributes] = useState<string[]>([]);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const focusPreview = useRef(false);

  // The range starts as the coming week on the cinema's calendar.
  useEffect(() => {
    if (timeZone && !from) {
      const today = localDate(new Date(), timeZone);
      setFrom(addDays(today, 1));
      setTo(addDays(today, 7));
    }
  }, [timeZone, from]);
  useEffect(() => {
    if (focusPreview.current && plan) {
      focusPreview.current = false;
      previewHeading.current?.focus();
    }
  }, [plan]);

  const body: BatchShowtimesBody = {
    movieId,
    auditoriumIds: hallIds,
    from,
    to,
    weekdays: [...weekdays].sort(),
    times: times.filter(Boolean),
    ...(except.some(Boolean) && { except: except.filter(Boolean) }),
    ...(price.trim() && { priceCents: priceCentsFromText(price, currency) }),
    ...(attributes.length > 0 && { attributes }),
  };
  const key = JSON.stringify(body);
  const current = plan?.key === key;
  const complete =
    movieId && hallIds.length > 0 && from && to && weekdays.length > 0 && body.times.length > 0;

  const toggle = (list: string[], value: string) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

  async function preview(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const result = await batch.mutateAsync({ ...body, dryRun: true });
      focusPreview.current = true;
      setPlan({ key, showtimes: result.showtimes, problems: result.problems });
    } catch (err) {
      setPlan(null);
      setError(errorText(err, t('schedule.previewFailed')));
    }
  }

  async function create() {
    setError(null);
    setNotice(null);
    try {
      const result = await batch.mutateAsync(body);
      setPlan(null);
      setNotice(
        t('schedule.created', {
          count: result.showtimes.length,
          title: movies.data?.find((m) => m.id === movieId)?.title ?? t('schedule.theMovie'),
        }),
      );
    } catch (err) {
      const refused = refusedPlan(err);
      if (refused) {
        focusPreview.current = true;
        setPlan({ key, ...refused });
      }
      setError(errorText(err, t('schedule.createFailed')));
    }
  }

  const loadError = movies.error ?? halls.error;
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('common.scheduleRecurring')}
        </h1>
        <nav aria-label={t('common.scheduling')} className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <Link to="/admin/showtimes">{t('common.manageShowtimes')}</Link>
          <Link to="/admin/week">{t('common.weekByHall')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </nav>
      </div>
      {loadError && (
        <p className="error" role="alert">
          {errorText(loadError, t('schedule.loadFailed'))}
        </p>
      )}
      <form onSubmit={preview} className="card space-y-5" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          {t('schedule.formTitle')}
        </h2>
        <p className="text-sm text-muted">
          {timeZone ? t('schedule.clocksIn', { timeZone }) : t('schedule.clocks')}
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="field">
            <span className="field-label">{t('common.movie')}</span>
            <select className="input" value={movieId} onChange={(e) => setMovieId(e.target.value)} required>
              <option value="">{t('common.chooseMovie')}</option>
              {movies.data?.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.title}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">{t('schedule.price', { currency: currencySymbol() })}</span>
            <input
              className="input"
              type="number"
              inputMode="decimal"
              {...moneyFieldProps(MAX_PRICE_CENTS, currency)}
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              aria-describedby={`${id}-price`}
            />
            <span id={`${id}-price`} className="text-xs text-muted">
              {t('schedule.priceHint')}
            </span>
          </label>
        </div>

        <fieldset className="space-y-2">
          <legend className="field-label text-sm">{t('schedule.halls')}</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {halls.data?.map((h) => (
              <label key={h.id} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-rose-500"
                  checked={hallIds.includes(h.id)}
                  onChange={() => setHallIds(toggle(hallIds, h.id))}
                />
                {t('common.hallSeats', { name: h.name, count: h.seatCount ?? h.rows * h.cols })}
              </label>
            ))}
          </div>
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <label className="field">
            <span className="field-label">{t('schedule.firstDay')}</span>
            <input
              className="input"
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              required
            />
          </label>
          <label className="field">
            <span className="field-label">{t('schedule.lastDay')}</span>
            <input
              className="input"
              type="date"
              value={to}
              min={from || undefined}
              max={from ? addDays(from, BATCH_MAX_DAYS - 1) : undefined}
              onChange={(e) => setTo(e.target.value)}
              required
            />
          </label>
        </div>

        <fieldset className="space-y-2">
          <legend className="field-label text-sm">{t('schedule.weekdays')}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {WEEKDAYS.map((d) => (
              <label key={d} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-rose-500"
                  checked={weekdays.includes(d)}
                  onChange={() =>
                    setWeekdays(weekdays.includes(d) ? weekdays.filter((w) => w !== d) : [...weekdays, d])
                  }
                />
                {weekdayName(d)}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="field-label text-sm">{t('schedule.startTimes')}</legend>
          <ul className="flex flex-wrap gap-3">
            {times.map((time, i) => (
              <li key={i} className="flex items-end gap-2">
                <label className="field">
                  <span className="sr-only">{t('schedule.startTime', { n: i + 1 })}</span>
                  <input
                    className="input w-32"
                    type="time"
                    value={time}
                    onChange={(e) => setTimes(times.map((t, j) => (j === i ? e.target.value : t)))}
                    required
                  />
                </label>
                {times.length > 1 && (
                  <button
                    type="button"
                    className="btn-secondary px-3"
                    onClick={() => setTimes(times.filter((_, j) => j !== i))}
                  >
                    <Trans
                      t={t}
                      i18nKey="schedule.removeStartTime"
                      values={{ time: time || i + 1 }}
                      components={{ sr: <span className="sr-only" /> }}
                    />
                  </button>
                )}
              </li>
            ))}
          </ul>
          {times.length < 12 && (
            <button type="button" className="btn-secondary" onClick={() => setTimes([...times, ''])}>
              {t('schedule.addStartTime')}
            </button>
          )}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="field-label text-sm">{t('schedule.daysLeftOut')}</legend>
          {except.length > 0 && (
            <ul className="flex flex-wrap gap-3">
              {except.map((day, i) => (
                <li key={i} className="flex items-end gap-2">
                  <label className="field">
                    <span className="sr-only">{t('schedule.dayLeftOut', { n: i + 1 })}</span>
                    <input
                      className="input w-44"
                      type="date"
                      value={day}
                      min={from || undefined}
                      max={to || undefined}
                      onChange={(e) => setExcept(except.map((x, j) => (j === i ? e.target.value : x)))}
                    />
                  </label>
                  <button
                    type="button"
                    className="btn-secondary px-3"
                    onClick={() => setExcept(except.filter((_, j) => j !== i))}
                  >
                    <Trans
                      t={t}
                      i18nKey="schedule.removeDayLeftOut"
                      values={{ day: day || i + 1 }}
                      components={{ sr: <span className="sr-only" /> }}
                    />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="btn-secondary" onClick={() => setExcept([...except, ''])}>
            {t('schedule.addDayLeftOut')}
          </button>
        </fieldset>

        <AttributesField value={attributes} onChange={setAttributes} />

        <FormMessages error={error} notice={notice} />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-secondary" disabled={batch.isPending || !complete}>
            {batch.isPending ? t('schedule.checking') : t('schedule.preview')}
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={batch.isPending || !current || plan.problems.length > 0 || plan.showtimes.length === 0}
            onClick={() => void create()}
          >
            {current && plan.problems.length === 0
              ? t('schedule.createCount', { count: plan.showtimes.length })
              : t('schedule.create')}
          </button>
        </div>
        {!current && <p className="text-xs text-muted">{t('schedule.previewFirst')}</p>}
      </form>

      {plan && timeZone && (
        <section className="card mt-6 space-y-4" aria-labelledby={`${id}-preview`}>
          <h2
            id={`${id}-preview`}
            ref={previewHeading}
            tabIndex={-1}
            className="text-lg font-semibold text-white outline-none"
          >
            {plan.problems.length > 0
              ? t('schedule.previewWithProblems', {
                  count: plan.problems.length,
                  toCreate: plan.showtimes.length,
                })
              : t('schedule.previewHeading', { toCreate: plan.showtimes.length })}
          </h2>
          {!current && <p className="text-sm text-amber-200">{t('schedule.stale')}</p>}
          {plan.problems.length > 0 && (
            <div>
              <h3 className="mb-2 font-semibold text-red-200">{t('schedule.cannotCreate')}</h3>
              <ul className="divide-y divide-line/60" aria-label={t('schedule.problems')}>
                {plan.problems.map((p) => (
                  <li
                    key={`${p.auditoriumId}|${p.localDate}|${p.localTime}`}
                    className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
                    data-problem={p.reason}
                  >
                    <span>
                      <strong className="text-white">
                        {shortDay(p.localDate)} {p.localTime} · {p.auditorium}
                      </strong>{' '}
                      <span className="rounded bg-red-950/70 px-1.5 py-0.5 text-xs text-red-100">
                        {t(REASONS[p.reason])}
                      </span>
                      <br />
                      {problemText(p, t, timeZone)}
                      {p.clash && (
                        <>
                          {' '}
                          {t('schedule.clash', {
                            from: localTime(p.clash.startsAt, timeZone),
                            to: localTime(p.clash.endsAt, timeZone),
                          })}
                        </>
                      )}
                    </span>
                    {!except.includes(p.localDate) && (
                      <button
                        type="button"
                        className="btn-secondary px-3 py-1"
                        onClick={() => setExcept([...except.filter(Boolean), p.localDate])}
                      >
                        {t('schedule.leaveOut', { day: shortDay(p.localDate) })}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {plan.showtimes.length > 0 && (
            <details open={plan.showtimes.length <= 20}>
              <summary className="cursor-pointer font-semibold text-slate-200">
                {t('schedule.toCreate', { count: plan.showtimes.length })}
              </summary>
              <ul className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
                {plan.showtimes.map((s) => (
                  <li key={`${s.auditoriumId}|${s.startsAt}`}>
                    {shortDay(s.localDate)} {s.localTime}–{localTime(filmEnds(s.endsAt), timeZone)} ·{' '}
                    {s.auditorium} · {formatMoney(s.priceCents)}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </section>
      )}
    </section>
  );
}
