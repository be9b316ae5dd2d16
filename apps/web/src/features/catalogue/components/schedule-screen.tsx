import type { Availability, Movie, ScheduleShowtime } from '@cinema/contract';
import {
  ACCESSIBLE_ATTRIBUTES,
  AUDIENCE_ATTRIBUTES,
  isAccessibleScreening,
  MOVIE_GENRES,
  SHOWTIME_FORMATS,
  SHOWTIME_LANGUAGES,
} from '@cinema/contract/constants';
import { AttributeBadges, attributeText } from '../../../components/ui/attribute-badges';
import { GenreSelect } from '../../../components/ui/genre-select';
import { Link, useSearchParams } from 'react-router';
import { Poster } from '../../../components/ui/poster';
import { QueryStatus } from '../../../components/ui/query-status';
import { useSession } from '../../../lib/session';
import { formatDate, formatTime, useFormatMoney } from '../../../lib/format';
import { i18n } from '../../../lib/i18n';
import { useSchedule } from '../api/get-schedule';
import { movieFacts } from './movie-facts';
import { useTranslation } from '../../../lib/i18n';

/** A calendar day ("YYYY-MM-DD") as the day strip shows it: "Today", "Tomorrow", else "Wed 26 Nov". */
function dayName(date: string, index: number): string {
  if (index === 0) return i18n.t('common:schedule.today');
  if (index === 1) return i18n.t('common:schedule.tomorrow');
  return formatDate(`${date}T12:00:00Z`, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

const fullDay = (date: string) => formatDate(`${date}T12:00:00Z`, { dateStyle: 'full', timeZone: 'UTC' });

// "Available", "Selling fast", "Sold out".
const availabilityText = (availability: Availability) =>
  i18n.t(`common:schedule.availability.${availability}`);
const availabilityLook: Record<Availability, string> = {
  AVAILABLE: 'text-emerald-300',
  SELLING_FAST: 'font-semibold text-gold',
  SOLD_OUT: 'text-muted',
};

/** The day's movies in the order of their first showtime, each with its showtimes. */
function byMovie(movies: Movie[], showtimes: ScheduleShowtime[]): [Movie, ScheduleShowtime[]][] {
  const lists = new Map<string, ScheduleShowtime[]>();
  for (const s of showtimes) lists.set(s.movieId, [...(lists.get(s.movieId) ?? []), s]);
  const byId = new Map(movies.map((m) => [m.id, m]));
  return [...lists].flatMap(([id, list]) => {
    const movie = byId.get(id);
    return movie ? [[movie, list] as [Movie, ScheduleShowtime[]]] : [];
  });
}

/** The attributes the schedule filters by: accessibility first (the reason most people filter), then the rest. */
const FILTERS = [
  ...ACCESSIBLE_ATTRIBUTES,
  ...SHOWTIME_FORMATS.filter((f) => f !== '2D'),
  ...SHOWTIME_LANGUAGES,
  ...AUDIENCE_ATTRIBUTES,
];

const pressable = (pressed: boolean) =>
  `min-h-11 rounded-full border px-3 py-1.5 text-sm ${
    pressed
      ? 'border-gold bg-gold font-semibold text-ink'
      : 'border-line bg-panel text-slate-100 hover:border-gold'
  }`;

const DAY_STRIP = '-mx-4 overflow-x-auto px-4 pb-1';
const DAY_BUTTON =
  'relative flex min-h-11 min-w-20 flex-col items-center rounded-xl border px-3 py-1.5 text-sm';

/**
 * The day strip's room while the first schedule loads: the same boxes, empty and hidden, so the filters below do not
 * jump down when the days arrive (Lighthouse measured a layout shift of 0.55 on a cold /schedule without it).
 */
function DayStripPlaceholder() {
  return (
    <div aria-hidden="true" className={`${DAY_STRIP} invisible`}>
      <ul className="flex w-max gap-2">
        {[0, 1, 2].map((i) => (
          <li key={i} className={`${DAY_BUTTON} border-transparent`}>
            <span>&nbsp;</span>
            <span className="text-xs">&nbsp;</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * /schedule, open to visitors: two weeks of days, each day's showtimes by movie with the hall, the price and how
 * many seats are left (available, selling fast, sold out). Choosing seats asks a visitor to sign in and comes back.
 */
export function ScheduleScreen() {
  const { t } = useTranslation('common');
  const [params, setParams] = useSearchParams();
  const date = params.get('date') ?? undefined;
  const chosen = (params.get('attributes') ?? '').split(',').filter((a) => FILTERS.includes(a as never));
  const accessibleView = params.get('view') === 'accessible';
  const asked = params.get('genre') ?? '';
  const genre = (MOVIE_GENRES as readonly string[]).includes(asked) ? asked : '';
  const schedule = useSchedule(date, chosen, genre);
  /** The search with one parameter changed (the others kept): the day, the filters, the view. */
  const change = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const toggle = (attribute: string) =>
    change(
      'attributes',
      (chosen.includes(attribute) ? chosen.filter((a) => a !== attribute) : [...chosen, attribute]).join(','),
    );
  const shown = (schedule.data?.showtimes ?? []).filter(
    (s) => !accessibleView || isAccessibleScreening(s.attributes),
  );
  const { user } = useSession();
  const data = schedule.data;
  const formatMoney = useFormatMoney();
  const time = (iso: string) => formatTime(iso, { timeZone: data?.timeZone });

  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="page-title mb-1">{t('layout.schedule')}</h1>
        <p className="text-slate-200">
          {t('schedule.lead')}{' '}
          {!user && (
            <>
              <Link to="/login" className="underline">
                {t('schedule.signIn')}
              </Link>{' '}
              {t('schedule.or')}{' '}
              <Link to="/register" className="underline">
                {t('schedule.register')}
              </Link>{' '}
              {t('schedule.toChoose')}
            </>
          )}
        </p>
      </header>

      {data ? (
        <nav aria-label={t('schedule.days')} className={DAY_STRIP}>
          <ul className="flex w-max gap-2">
            {data.days.map((day, i) => {
              const chosen = day.date === data.date;
              return (
                <li key={day.date}>
                  <button
                    type="button"
                    aria-current={chosen ? 'date' : undefined}
                    onClick={() => change('date', i === 0 ? null : day.date)}
                    className={`${DAY_BUTTON} ${
                      chosen
                        ? 'border-gold bg-gold font-semibold text-ink'
                        : 'border-line bg-panel text-slate-100 hover:border-gold'
                    }`}
                  >
                    <span className="whitespace-nowrap">
                      {dayName(day.date, i)}
                      <span className="sr-only">, {fullDay(day.date)},</span>
                    </span>
                    <span className={`text-xs ${chosen ? 'text-ink' : 'text-muted'}`}>
                      {day.showtimes === 0 ? t('schedule.none') : day.showtimes}
                      <span className="sr-only">{t('schedule.showtimesWord', { count: day.showtimes })}</span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      ) : (
        <DayStripPlaceholder />
      )}

      <div className="flex flex-col gap-3">
        <div role="group" aria-label={t('schedule.accessible')} className="flex flex-wrap gap-2">
          <button
            type="button"
            aria-pressed={!accessibleView}
            className={pressable(!accessibleView)}
            onClick={() => change('view', null)}
          >
            {t('schedule.allScreenings')}
          </button>
          <button
            type="button"
            aria-pressed={accessibleView}
            className={pressable(accessibleView)}
            onClick={() => change('view', 'accessible')}
          >
            {t('schedule.accessible')}
          </button>
        </div>
        {accessibleView && <p className="text-sm text-slate-200">{t('schedule.accessibleLead')}</p>}
        <div role="group" aria-label={t('schedule.filters')} className="flex flex-wrap gap-2">
          {FILTERS.map((a) => (
            <button
              key={a}
              type="button"
              aria-pressed={chosen.includes(a)}
              data-filter={a}
              className={pressable(chosen.includes(a))}
              onClick={() => toggle(a)}
            >
              {attributeText(a)}
            </button>
          ))}
          {(chosen.length > 0 || genre) && (
            <button
              type="button"
              className="min-h-11 px-2 text-sm underline"
              onClick={() => {
                const next = new URLSearchParams(params);
                next.delete('attributes');
                next.delete('genre');
                setParams(next, { replace: true });
              }}
            >
              {t('schedule.clearFilters')}
            </button>
          )}
        </div>
        <GenreSelect value={genre} onChange={(g) => change('genre', g || null)} />
      </div>

      <QueryStatus query={schedule} failure={t('schedule.loadFailed')} />
      {data && (
        <>
          <h2 className="text-xl font-semibold text-white">{fullDay(data.date)}</h2>
          {shown.length === 0 ? (
            <p className="card">
              {chosen.length > 0 || accessibleView || genre
                ? t('schedule.noneMatch')
                : t('schedule.noneLeft')}
            </p>
          ) : (
            <ul
              className="flex flex-col gap-4"
              aria-label={t('schedule.moviesOn', { day: fullDay(data.date) })}
            >
              {byMovie(data.movies, shown).map(([movie, list]) => (
                <li
                  key={movie.id}
                  className="card grid grid-cols-[4.5rem_1fr] gap-x-4 gap-y-3 sm:grid-cols-[6rem_1fr]"
                  data-movie-id={movie.id}
                >
                  <Poster
                    url={movie.posterUrl}
                    srcSet={movie.posterSrcSet}
                    sizes="96px"
                    title={movie.title}
                    decorative
                    className="w-full self-start sm:row-span-2"
                  />
                  <div className="min-w-0">
                    <h3 className="text-lg leading-snug font-semibold text-white">{movie.title}</h3>
                    <p className="text-sm font-medium text-gold">{movieFacts(movie)}</p>
                    {movie.description && (
                      <p className="mt-1 line-clamp-2 max-w-prose text-sm text-slate-300">
                        {movie.description}
                      </p>
                    )}
                  </div>
                  <ul
                    className="col-span-2 flex flex-wrap gap-2 sm:col-span-1 sm:col-start-2"
                    aria-label={t('schedule.showtimesOf', { title: movie.title })}
                  >
                    {list.map((s) => {
                      const body = (
                        <>
                          <time dateTime={s.startsAt} className="text-base font-semibold">
                            {time(s.startsAt)}
                          </time>
                          <span className="text-xs text-slate-300">
                            {s.auditorium} · {formatMoney(s.priceCents)}
                          </span>
                          <span className={`text-xs ${availabilityLook[s.availability]}`}>
                            {availabilityText(s.availability)}
                            {s.availability === 'SELLING_FAST' &&
                              ` · ${t('schedule.left', { count: s.seatsLeft })}`}
                          </span>
                          <AttributeBadges attributes={s.attributes} className="mt-1 max-w-48" inline />
                        </>
                      );
                      const look = 'relative flex min-w-28 flex-col rounded-xl border px-3 py-2 no-underline';
                      return (
                        <li key={s.id} data-showtime-id={s.id} data-availability={s.availability}>
                          {s.availability === 'SOLD_OUT' ? (
                            <div className={`${look} border-line bg-ink text-muted`}>
                              {body}
                              {/* Sold out: the seat map's waiting list (a visitor signs in first). */}
                              <Link
                                to={`/showtimes/${s.id}/seats#waitlist`}
                                className="mt-1 text-xs text-gold"
                              >
                                {t('schedule.joinWaitlist')}
                                <span className="sr-only">
                                  {' '}
                                  {t('schedule.waitlistFor', { title: movie.title, time: time(s.startsAt) })}
                                </span>
                              </Link>
                            </div>
                          ) : (
                            <Link
                              to={`/showtimes/${s.id}/seats`}
                              className={`${look} border-line bg-panel-2 text-slate-100 hover:border-gold hover:no-underline`}
                            >
                              <span className="sr-only">
                                {t('schedule.chooseFor', { title: movie.title })}{' '}
                              </span>
                              {body}
                              {!user && <span className="sr-only"> {t('schedule.signInFirst')}</span>}
                            </Link>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
