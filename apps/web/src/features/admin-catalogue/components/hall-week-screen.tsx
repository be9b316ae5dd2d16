import { addDays, dayStart, localDate, localTime, weekStart } from '@cinema/contract/constants';
import { useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useHalls } from '../api/get-halls';
import { useManagedShowtimes } from '../api/get-managed-showtimes';
import { formatDay } from '../lib/format-day';
import { useCinemaTimeZone } from '../lib/use-cinema-time-zone';
import { formatDuration, weekTimeline, type Segment, type TimelineDay } from '../lib/week-timeline';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const BAR: Record<Segment['kind'], string> = {
  film: 'bg-rose-700 text-white',
  cleaning: 'bg-amber-300 text-amber-950',
  free: 'bg-transparent',
};

/**
 * /admin/week: one hall's week (?hall=, ?week= its Monday) on the cinema's clocks, day by day: each film, the
 * cleaning after it and the free time between, drawn as a bar and said as a list.
 */
export function HallWeekScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('common.weekByHall'));
  const timeZone = useCinemaTimeZone();
  const halls = useHalls();
  const [params, setParams] = useSearchParams();
  const hallId = params.get('hall') ?? halls.data?.[0]?.id ?? '';
  const hall = halls.data?.find((h) => h.id === hallId);
  const thisWeek = timeZone ? weekStart(localDate(new Date(), timeZone)) : null;
  const asked = params.get('week');
  const monday = asked && DAY.test(asked) ? weekStart(asked) : thisWeek;
  // From the day before: a late showtime on Sunday runs into Monday.
  const showtimes = useManagedShowtimes(
    monday && timeZone
      ? {
          from: dayStart(addDays(monday, -1), timeZone).toISOString(),
          to: dayStart(addDays(monday, 7), timeZone).toISOString(),
          auditoriumId: hallId,
        }
      : {},
    Boolean(monday && timeZone && hallId),
  );
  const days =
    monday && timeZone && showtimes.data
      ? weekTimeline(
          monday,
          timeZone,
          showtimes.data.showtimes.map((s) => ({ ...s, endsAt: s.endsAt ?? s.startsAt })),
        )
      : null;

  const show = (next: { hall?: string; week?: string }) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged);
  };

  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('common.weekByHall')}
        </h1>
        <nav aria-label={t('common.scheduling')} className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <Link to="/admin/showtimes">{t('common.manageShowtimes')}</Link>
          <Link to="/admin/schedule">{t('common.scheduleRecurring')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </nav>
      </div>

      <div className="card mb-6 flex flex-wrap items-end gap-3">
        <label className="field min-w-48 flex-1 sm:flex-none">
          <span className="field-label">{t('common.hall')}</span>
          <select className="input" value={hallId} onChange={(e) => show({ hall: e.target.value })}>
            {halls.data?.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </select>
        </label>
        <div role="group" aria-label={t('week.week')} className="flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-secondary"
            disabled={!monday}
            onClick={() => monday && show({ week: addDays(monday, -7) })}
          >
            {t('week.previous')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!thisWeek || monday === thisWeek}
            onClick={() => show({ week: undefined })}
          >
            {t('week.thisWeek')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!monday}
            onClick={() => monday && show({ week: addDays(monday, 7) })}
          >
            {t('week.next')}
          </button>
        </div>
      </div>

      <QueryStatus query={halls} failure={t('common.failedHalls')} />
      {halls.data?.length === 0 && <p className="card">{t('common.noHalls')}</p>}
      {hall && monday && timeZone && (
        <h2 className="mb-1 text-lg font-semibold text-white" aria-live="polite">
          {t('week.heading', {
            hall: hall.name,
            monday: formatDay(monday, { day: 'numeric', month: 'long', year: 'numeric' }),
          })}
        </h2>
      )}
      {timeZone && (
        <p className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted">
          <span>{t('common.timesIn', { timeZone })}</span>
          <span className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block h-3 w-5 rounded-sm bg-rose-700" /> {t('week.film')}
          </span>
          <span className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block h-3 w-5 rounded-sm bg-amber-300" /> {t('week.cleaning')}
          </span>
          <span className="flex items-center gap-1.5">
            <span aria-hidden className="inline-block h-3 w-5 rounded-sm border border-line" />{' '}
            {t('week.free')}
          </span>
        </p>
      )}
      {hallId && <QueryStatus query={showtimes} failure={t('common.failedShowtimes')} />}
      {days && timeZone && (
        <ol className="space-y-4" aria-label={t('week.days')}>
          {days.map((day) => (
            <DayTimeline key={day.date} day={day} timeZone={timeZone} />
          ))}
        </ol>
      )}
    </section>
  );
}

function DayTimeline({ day, timeZone }: { day: TimelineDay; timeZone: string }) {
  const { t } = useTranslation('admin');
  const clock = (t: Date) => (t.getTime() === day.to.getTime() ? '24:00' : localTime(t, timeZone));
  const films = day.segments.filter((s) => s.kind === 'film').length;
  return (
    <li className="card p-4" data-day={day.date}>
      <h3 className="mb-2 flex flex-wrap items-baseline justify-between gap-2 font-semibold text-white">
        {formatDay(day.date)}
        <span className="text-sm font-normal text-muted">
          {films === 0 ? t('week.nothing') : t('week.showings', { count: films })}
        </span>
      </h3>
      {/* The bar shows the day at a glance; the list under it says the same in words. */}
      <div
        aria-hidden
        className="relative mb-1 flex h-9 overflow-hidden rounded-md border border-line bg-ink"
      >
        {day.segments.map((s, i) => (
          <div
            key={i}
            className={`${BAR[s.kind]} min-w-0 overflow-hidden px-1 text-xs leading-9 whitespace-nowrap`}
            style={{ flexGrow: s.to.getTime() - s.from.getTime(), flexBasis: 0 }}
          >
            {s.kind === 'film' ? s.showtime.movie : ''}
          </div>
        ))}
      </div>
      <div aria-hidden className="mb-3 flex justify-between text-[11px] text-muted">
        <span>{clock(day.from)}</span>
        <span>24:00</span>
      </div>
      <ul className="flex flex-col gap-1 text-sm sm:flex-row sm:flex-wrap sm:gap-x-6">
        {day.segments.map((s, i) => (
          <li key={i} data-segment={s.kind} className={s.kind === 'free' ? 'text-slate-300' : 'text-white'}>
            <span className="tabular-nums">
              {clock(s.from)}–{clock(s.to)}
            </span>{' '}
            {s.kind === 'film' && (
              <>
                <Link to={`/admin/showtimes/${s.showtime.id}/booked`} className="underline">
                  {s.showtime.movie}
                </Link>
                {s.continued && t('week.continued')}
                {s.showtime.capacity !== undefined && (
                  <span className="text-muted">
                    {' '}
                    {t('week.sold', { confirmed: s.showtime.confirmed ?? 0, capacity: s.showtime.capacity })}
                  </span>
                )}
              </>
            )}
            {s.kind === 'cleaning' && <span className="text-amber-200">{t('week.cleaning')}</span>}
            {s.kind === 'free' && (
              <span>
                {t('week.freeFor', { duration: formatDuration(s.to.getTime() - s.from.getTime()) })}
              </span>
            )}
          </li>
        ))}
      </ul>
    </li>
  );
}
