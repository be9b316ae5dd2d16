import type { BatchProblem, BatchShowtime, BatchShowtimesBody } from '@cinema/contract';
import { BATCH_MAX_DAYS, CLEANING_MINUTES, formatMoney } from '@cinema/contract/constants';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FormMessages } from '../../../components/ui/form-messages';
import { errorText } from '../../../lib/api-client';
import { usePageHeading } from '../../../lib/use-page-heading';
import { refusedPlan, useBatchShowtimes } from '../api/batch-showtimes';
import { useAdminMovies } from '../api/get-admin-movies';
import { useHalls } from '../api/get-halls';
import { addDays, formatDay, localDate, localTime } from '../lib/cinema-time';
import { priceCentsFromDollars } from '../lib/showtime-input';
import { useCinemaTimeZone } from '../lib/use-cinema-time-zone';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** 2026-11-30 was a Monday: its week names the weekdays in the viewer's language. */
const weekdayName = (isoDay: number, weekday: 'short' | 'long' = 'short') =>
  formatDay(addDays('2026-11-30', isoDay - 1), { weekday });
/** When the film itself ends: the hall's `endsAt` counts the cleaning after it too. */
const filmEnds = (endsAt: string) => new Date(Date.parse(endsAt) - CLEANING_MINUTES * 60_000);
const shortDay = (date: string) => formatDay(date, { weekday: 'short', day: 'numeric', month: 'short' });

const REASONS: Record<BatchProblem['reason'], string> = {
  overlap: 'Hall busy',
  overlaps_batch: 'Overlaps this schedule',
  in_the_past: 'In the past',
  skipped_by_clocks: 'Clocks skip it',
  no_price: 'No price',
};

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
  const heading = usePageHeading('Schedule recurring showtimes');
  const timeZone = useCinemaTimeZone();
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
    ...(price.trim() && { priceCents: priceCentsFromDollars(price) }),
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
      setError(errorText(err, 'Failed to preview the schedule'));
    }
  }

  async function create() {
    setError(null);
    setNotice(null);
    try {
      const result = await batch.mutateAsync(body);
      setPlan(null);
      setNotice(
        `Created ${result.showtimes.length} ${result.showtimes.length === 1 ? 'showtime' : 'showtimes'} of “${
          movies.data?.find((m) => m.id === movieId)?.title ?? 'the movie'
        }”.`,
      );
    } catch (err) {
      const refused = refusedPlan(err);
      if (refused) {
        focusPreview.current = true;
        setPlan({ key, ...refused });
      }
      setError(errorText(err, 'Failed to create the showtimes'));
    }
  }

  const loadError = movies.error ?? halls.error;
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          Schedule recurring showtimes
        </h1>
        <nav aria-label="Scheduling" className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <Link to="/admin/showtimes">Manage showtimes</Link>
          <Link to="/admin/week">Week by hall</Link>
          <Link to="/admin">← Admin</Link>
        </nav>
      </div>
      {loadError && (
        <p className="error" role="alert">
          {errorText(loadError, 'Failed to load movies and halls')}
        </p>
      )}
      <form onSubmit={preview} className="card space-y-5" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          Showtimes to add
        </h2>
        <p className="text-sm text-muted">
          Days and times are on the cinema’s clocks{timeZone ? ` (${timeZone})` : ''}: a weekly 20:00 stays
          20:00 when the clocks change.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="field">
            <span className="field-label">Movie</span>
            <select className="input" value={movieId} onChange={(e) => setMovieId(e.target.value)} required>
              <option value="">Choose a movie</option>
              {movies.data?.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.title}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Price ($, optional)</span>
            <input
              className="input"
              type="number"
              inputMode="decimal"
              min={0.01}
              max={1000}
              step={0.01}
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              aria-describedby={`${id}-price`}
            />
            <span id={`${id}-price`} className="text-xs text-muted">
              Empty: the price card in force at each showtime sets it.
            </span>
          </label>
        </div>

        <fieldset className="space-y-2">
          <legend className="field-label text-sm">Halls</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {halls.data?.map((h) => (
              <label key={h.id} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-rose-500"
                  checked={hallIds.includes(h.id)}
                  onChange={() => setHallIds(toggle(hallIds, h.id))}
                />
                {h.name} ({h.seatCount ?? h.rows * h.cols} seats)
              </label>
            ))}
          </div>
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <label className="field">
            <span className="field-label">First day</span>
            <input
              className="input"
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              required
            />
          </label>
          <label className="field">
            <span className="field-label">Last day</span>
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
          <legend className="field-label text-sm">Days of the week</legend>
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
          <legend className="field-label text-sm">Start times</legend>
          <ul className="flex flex-wrap gap-3">
            {times.map((time, i) => (
              <li key={i} className="flex items-end gap-2">
                <label className="field">
                  <span className="sr-only">Start time {i + 1}</span>
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
                    Remove<span className="sr-only"> start time {time || i + 1}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
          {times.length < 12 && (
            <button type="button" className="btn-secondary" onClick={() => setTimes([...times, ''])}>
              Add a start time
            </button>
          )}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="field-label text-sm">Days left out (holidays, private hires)</legend>
          {except.length > 0 && (
            <ul className="flex flex-wrap gap-3">
              {except.map((day, i) => (
                <li key={i} className="flex items-end gap-2">
                  <label className="field">
                    <span className="sr-only">Day left out {i + 1}</span>
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
                    Remove<span className="sr-only"> day left out {day || i + 1}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="btn-secondary" onClick={() => setExcept([...except, ''])}>
            Add a day to leave out
          </button>
        </fieldset>

        <FormMessages error={error} notice={notice} />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-secondary" disabled={batch.isPending || !complete}>
            {batch.isPending ? 'Checking…' : 'Preview'}
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={batch.isPending || !current || plan.problems.length > 0 || plan.showtimes.length === 0}
            onClick={() => void create()}
          >
            {current && plan.problems.length === 0
              ? `Create ${plan.showtimes.length} ${plan.showtimes.length === 1 ? 'showtime' : 'showtimes'}`
              : 'Create showtimes'}
          </button>
        </div>
        {!current && (
          <p className="text-xs text-muted">Preview first: nothing is written until you create.</p>
        )}
      </form>

      {plan && timeZone && (
        <section className="card mt-6 space-y-4" aria-labelledby={`${id}-preview`}>
          <h2
            id={`${id}-preview`}
            ref={previewHeading}
            tabIndex={-1}
            className="text-lg font-semibold text-white outline-none"
          >
            Preview: {plan.showtimes.length} to create
            {plan.problems.length > 0 &&
              `, ${plan.problems.length} ${plan.problems.length === 1 ? 'problem' : 'problems'}`}
          </h2>
          {!current && (
            <p className="text-sm text-amber-200">The form changed since this preview: preview again.</p>
          )}
          {plan.problems.length > 0 && (
            <div>
              <h3 className="mb-2 font-semibold text-red-200">
                Cannot be created — nothing is written until these are fixed
              </h3>
              <ul className="divide-y divide-line/60" aria-label="Problems">
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
                        {REASONS[p.reason]}
                      </span>
                      <br />
                      {p.message}
                      {p.clash && (
                        <>
                          {' '}
                          ({localTime(p.clash.startsAt, timeZone)}–{localTime(p.clash.endsAt, timeZone)},
                          cleaning included)
                        </>
                      )}
                    </span>
                    {!except.includes(p.localDate) && (
                      <button
                        type="button"
                        className="btn-secondary px-3 py-1"
                        onClick={() => setExcept([...except.filter(Boolean), p.localDate])}
                      >
                        Leave out {shortDay(p.localDate)}
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
                {plan.showtimes.length} {plan.showtimes.length === 1 ? 'showtime' : 'showtimes'} to create
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
