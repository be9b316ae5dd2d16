// Film hire and box-office returns for one film week (DESIGN §7.4, decision 048). A ticket counts in the week its
// showtime starts in, on the cinema's clocks, as in the sales report. Net box office is what TICKET lines charged
// (fees are lines of their own, food too) less what was refunded of them, without their tax.
import { eq, inArray, sql } from 'drizzle-orm';
import {
  addDays,
  filmWeek,
  localDate,
  localDayTime,
  minorToText,
  type BoxOfficeReturns,
  type FilmHireFilm,
  type FilmHireReport,
} from '@cinema/contract';
import { queryRows, type Queryable } from '../../db/database.ts';
import { distributors, filmHireTerms, showtimes } from '../../db/schema/index.ts';
import { badRequest } from '../../errors.ts';
import { termsColumns } from '../film-hire/film-hire.service.ts';
import { cell } from './csv.ts';

export interface FilmWeekOptions {
  timeZone: string;
  currency: string;
  /** ISO weekday film weeks start on (FILM_WEEK_START). */
  filmWeekStart: number;
  includeTestSales: boolean;
}

interface ShowtimeFigures {
  id: string;
  movieId: string;
  title: string;
  startsAt: string;
  date: string;
  time: string;
  hall: string;
  admissions: number;
  grossCents: number;
  taxCents: number;
}

const WEEK_MS = 7 * 86_400_000;

/** The film week that starts on `week`; 400 naming the weeks around it when `week` starts none. */
export function filmWeekFrom(week: string, opts: Pick<FilmWeekOptions, 'timeZone' | 'filmWeekStart'>) {
  const span = filmWeek(week, opts.timeZone, opts.filmWeekStart);
  if (span.first !== week)
    throw badRequest(
      `${week} does not start a film week: the weeks around it start on ${span.first} and ${addDays(span.first, 7)}`,
    );
  return span;
}

/**
 * The week's showtimes (by start, then hall) with their tickets' admissions, gross and tax. Per ticket line of a
 * paid order: gross is what it charged less what was refunded of it (an exchange's difference is already in its
 * price; what is still to collect after one is not money yet) and its tax is the line's tax in the same proportion,
 * rounded half away from zero to the minor unit. Admissions: tickets that still admit.
 */
async function showtimeFigures(
  db: Queryable,
  opts: FilmWeekOptions,
  from: Date,
  until: Date,
): Promise<ShowtimeFigures[]> {
  const rows = await queryRows<{
    id: string;
    movie_id: string;
    title: string;
    starts_at: string | Date;
    hall: string;
    admissions: string | number | null;
    gross: string | number | null;
    tax: string | number | null;
  }>(
    db,
    sql`select st.id, st.movie_id, m.title, st.starts_at, h.name as hall,
        f.admissions, f.gross, f.tax
      from showtimes st
      join movies m on m.id = st.movie_id
      join halls h on h.id = st.hall_id
      left join lateral (
        select count(*) filter (where x.status = 'CONFIRMED') as admissions, sum(x.kept) as gross,
          sum(case when x.price_cents = 0 then 0 else round(x.tax_cents::numeric * x.kept / x.price_cents) end) as tax
        from (
          select b.status, l.price_cents, l.tax_cents,
            greatest(l.price_cents - l.due_cents - coalesce(r.refunded, 0), 0) as kept
          from bookings b
          join order_lines l on l.booking_id = b.id and l.kind = 'TICKET'
          join orders o on o.id = l.order_id
          left join lateral (
            select sum(amount_cents) as refunded from order_refunds
            where line_id = l.id and kind <> 'exchange'
          ) r on true
          where b.showtime_id = st.id
            and o.paid_at is not null and o.status in ('PAID', 'REFUNDED', 'PARTLY_REFUNDED')
            and (${opts.includeTestSales} or o.provider <> 'local')
        ) x
      ) f on true
      where st.starts_at >= ${from.toISOString()} and st.starts_at < ${until.toISOString()}
      order by st.starts_at, h.name`,
  );
  return rows.map((r) => {
    const startsAt = new Date(r.starts_at).toISOString();
    const local = localDayTime(startsAt, opts.timeZone);
    return {
      id: r.id,
      movieId: r.movie_id,
      title: r.title,
      startsAt,
      date: local.date,
      time: local.time,
      hall: r.hall,
      admissions: Number(r.admissions ?? 0),
      grossCents: Number(r.gross ?? 0),
      taxCents: Number(r.tax ?? 0),
    };
  });
}

/** The terms of the given movies, with the start of each one's first showtime ever (its week of run 1). */
async function termsOfMovies(db: Queryable, movieIds: string[]) {
  if (movieIds.length === 0) return new Map<string, never>();
  const rows = await db
    .select({
      ...termsColumns,
      firstStartsAt: sql<string | Date>`(select min(${showtimes.startsAt}) from ${showtimes}
        where ${showtimes.movieId} = ${filmHireTerms.movieId})`,
    })
    .from(filmHireTerms)
    .innerJoin(distributors, eq(distributors.id, filmHireTerms.distributorId))
    .where(inArray(filmHireTerms.movieId, movieIds));
  return new Map(rows.map((r) => [r.movieId, r]));
}

/** Per movie, in order of title: its showtimes' figures summed. */
function byMovie(rows: ShowtimeFigures[]) {
  const movies = new Map<string, { movieId: string; title: string; showtimes: ShowtimeFigures[] }>();
  for (const r of rows) {
    const movie = movies.get(r.movieId) ?? { movieId: r.movieId, title: r.title, showtimes: [] };
    movie.showtimes.push(r);
    movies.set(r.movieId, movie);
  }
  return [...movies.values()]
    .map((m) => ({ ...m, ...sum(m.showtimes) }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.movieId.localeCompare(b.movieId));
}

function sum(rows: { admissions: number; grossCents: number; taxCents?: number }[]) {
  let admissions = 0;
  let grossCents = 0;
  let taxCents = 0;
  for (const r of rows) {
    admissions += r.admissions;
    grossCents += r.grossCents;
    taxCents += r.taxCents ?? 0;
  }
  return { admissions, grossCents, taxCents, netCents: grossCents - taxCents };
}

/** `share` basis points of `net`, rounded half up to the minor unit (net is never negative). */
export const shareOf = (net: number, bp: number) => Math.floor((net * bp + 5000) / 10_000);

/** `GET /api/admin/reports/film-hire?week=`: rental due per distributor and film for the film week. */
export async function filmHireReport(
  db: Queryable,
  opts: FilmWeekOptions,
  week: string,
): Promise<FilmHireReport> {
  const span = filmWeekFrom(week, opts);
  const movies = byMovie(await showtimeFigures(db, opts, span.from, span.to));
  const terms = await termsOfMovies(
    db,
    movies.map((m) => m.movieId),
  );
  const groups = new Map<string, FilmHireReport['distributors'][number]>();
  const withoutTerms: FilmHireReport['withoutTerms'] = [];
  for (const m of movies) {
    const figures = {
      movieId: m.movieId,
      title: m.title,
      admissions: m.admissions,
      grossCents: m.grossCents,
      taxCents: m.taxCents,
      netCents: m.netCents,
    };
    const t = terms.get(m.movieId);
    if (!t) {
      withoutTerms.push(figures);
      continue;
    }
    const firstWeek = filmWeek(
      localDate(new Date(t.firstStartsAt), opts.timeZone),
      opts.timeZone,
      opts.filmWeekStart,
    );
    const weekOfRun = Math.round((Date.parse(week) - Date.parse(firstWeek.first)) / WEEK_MS) + 1;
    const bp = t.scale.findLast((s) => s.fromWeek <= weekOfRun)?.percentBp ?? t.percentBp;
    const share = shareOf(Math.max(m.netCents, 0), bp);
    const guarantee = t.guaranteeCents ?? 0;
    const film: FilmHireFilm = {
      ...figures,
      weekOfRun,
      percent: bp / 100,
      guaranteeCents: t.guaranteeCents,
      rentalCents: Math.max(share, guarantee),
      guaranteeApplied: guarantee > share,
    };
    const group = groups.get(t.distributorId) ?? {
      id: t.distributorId,
      name: t.distributorName,
      rentalCents: 0,
      films: [],
    };
    group.films.push(film);
    group.rentalCents += film.rentalCents;
    groups.set(t.distributorId, group);
  }
  const rentalCents = [...groups.values()].reduce((n, g) => n + g.rentalCents, 0);
  return {
    week,
    lastDay: span.last,
    timeZone: opts.timeZone,
    currency: opts.currency,
    filmWeekStart: opts.filmWeekStart,
    testSales: opts.includeTestSales ? 'included' : 'excluded',
    distributors: [...groups.values()].sort((a, b) => a.name.localeCompare(b.name)),
    withoutTerms,
    totals: { ...sum(movies), rentalCents },
  };
}

/** `GET /api/admin/reports/box-office?week=`: admissions and gross per film, day and showtime (every showtime). */
export async function boxOfficeReturns(
  db: Queryable,
  opts: FilmWeekOptions,
  week: string,
): Promise<BoxOfficeReturns> {
  const span = filmWeekFrom(week, opts);
  const rows = await showtimeFigures(db, opts, span.from, span.to);
  const movies = byMovie(rows);
  const terms = await termsOfMovies(
    db,
    movies.map((m) => m.movieId),
  );
  const figures = (r: { admissions: number; grossCents: number }) => ({
    admissions: r.admissions,
    grossCents: r.grossCents,
  });
  return {
    week,
    lastDay: span.last,
    timeZone: opts.timeZone,
    currency: opts.currency,
    testSales: opts.includeTestSales ? 'included' : 'excluded',
    films: movies.map((m) => {
      const days = new Map<string, ShowtimeFigures[]>();
      for (const s of m.showtimes) days.set(s.date, [...(days.get(s.date) ?? []), s]);
      return {
        movieId: m.movieId,
        title: m.title,
        distributor: terms.get(m.movieId)?.distributorName ?? null,
        ...figures(m),
        days: [...days].map(([date, shows]) => ({ date, ...figures(sum(shows)) })),
        showtimes: m.showtimes.map((s) => ({
          showtimeId: s.id,
          startsAt: s.startsAt,
          date: s.date,
          time: s.time,
          hall: s.hall,
          ...figures(s),
        })),
      };
    }),
    totals: figures(sum(rows)),
  };
}

const csv = (rows: (string | number | null)[][], textColumns: number) =>
  rows.map((r) => r.map((v, i) => cell(v, i < textColumns)).join(','));

/**
 * The film-hire report as CSV: a row per film under its distributor, a total row per distributor, the films without
 * terms (no rental), and a total row. Money in the currency's major unit, percent as a number.
 */
export function filmHireCsv(report: FilmHireReport): string {
  const money = (minor: number | null) => (minor === null ? null : minorToText(minor, report.currency));
  const figures = (f: { admissions: number; grossCents: number; taxCents: number; netCents: number }) => [
    f.admissions,
    money(f.grossCents),
    money(f.taxCents),
    money(f.netCents),
  ];
  return (
    [
      'Distributor,Film,Week of run,Admissions,Gross,Tax,Net,Percent,Guarantee,Rental due',
      ...csv(
        [
          ...report.distributors.flatMap((d) => [
            ...d.films.map((f) => [
              d.name,
              f.title,
              f.weekOfRun,
              ...figures(f),
              f.percent,
              money(f.guaranteeCents),
              money(f.rentalCents),
            ]),
            [d.name, 'Total', null, ...figures(sum(d.films)), null, null, money(d.rentalCents)],
          ]),
          ...report.withoutTerms.map((f) => [null, f.title, null, ...figures(f), null, null, null]),
          ['Total', null, null, ...figures(report.totals), null, null, money(report.totals.rentalCents)],
        ],
        2,
      ),
    ].join('\r\n') + '\r\n'
  );
}

/**
 * Box-office returns as CSV: admissions and gross per showtime (day and time on the cinema's clocks), then per film
 * and day, then per film with a total row; each table after a blank line.
 */
export function boxOfficeCsv(report: BoxOfficeReturns): string {
  const money = (minor: number) => minorToText(minor, report.currency);
  return (
    [
      'Film,Distributor,Day,Time,Hall,Admissions,Gross',
      ...csv(
        report.films.flatMap((f) =>
          f.showtimes.map((s) => [
            f.title,
            f.distributor,
            s.date,
            s.time,
            s.hall,
            s.admissions,
            money(s.grossCents),
          ]),
        ),
        5,
      ),
      '',
      'Film,Day,Admissions,Gross',
      ...csv(
        report.films.flatMap((f) => f.days.map((d) => [f.title, d.date, d.admissions, money(d.grossCents)])),
        2,
      ),
      '',
      'Film,Distributor,Admissions,Gross',
      ...csv(
        [
          ...report.films.map((f) => [f.title, f.distributor, f.admissions, money(f.grossCents)]),
          ['Total', null, report.totals.admissions, money(report.totals.grossCents)],
        ],
        2,
      ),
    ].join('\r\n') + '\r\n'
  );
}
