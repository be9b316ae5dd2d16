import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import {
  BATCH_MAX_SHOWTIMES,
  daysBetween,
  instantAt,
  isoWeekday,
  type BatchProblem,
  type BatchShowtime,
  type BatchShowtimesBody,
  type BatchShowtimesResponse,
} from '@cinema/contract';
import { PG_EXCLUSION_VIOLATION, PG_FOREIGN_KEY_VIOLATION, pgErrorCode, type Db } from '../../db/database.ts';
import { halls, movies, priceCards, showtimes } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { PriceBook } from '../pricing/pricing.service.ts';
import { MAX_DAYS_AHEAD, showtimeEndsAt } from './showtimes.service.ts';

interface Plan {
  movie: string;
  showtimes: BatchShowtime[];
  problems: BatchProblem[];
}

const overlaps = (a: { startsAt: string; endsAt: string }, b: { startsAt: string; endsAt: string }) =>
  a.startsAt < b.endsAt && b.startsAt < a.endsAt;

/**
 * Every showtime a recurring schedule names (days from..to on the cinema's calendar, on the given weekdays, not on
 * the exceptions, at each time on the cinema's clocks, in each hall), and every one that cannot be created: in the
 * past, at a time the clocks skip, without a price, overlapping a showtime already scheduled (cleaning included) or
 * another of the same batch. Reads only.
 */
export async function planBatch(db: Db, timeZone: string, input: BatchShowtimesBody): Promise<Plan> {
  const [movie] = await db
    .select({ title: movies.title, durationMinutes: movies.durationMinutes })
    .from(movies)
    .where(eq(movies.id, input.movieId));
  if (!movie) throw notFound('Movie not found');
  const hallRows = await db
    .select({ id: halls.id, name: halls.name })
    .from(halls)
    .where(inArray(halls.id, input.auditoriumIds));
  if (hallRows.length !== input.auditoriumIds.length) throw notFound('Hall not found');
  const hallsInOrder = input.auditoriumIds.map((id) => hallRows.find((h) => h.id === id)!);
  if (input.priceCardId) {
    const [card] = await db
      .select({ id: priceCards.id })
      .from(priceCards)
      .where(eq(priceCards.id, input.priceCardId));
    if (!card) throw notFound('Price card not found');
  }

  if (Date.parse(input.to) > Date.now() + MAX_DAYS_AHEAD * 86_400_000) {
    throw badRequest(`A showtime can start at most ${MAX_DAYS_AHEAD} days from now`);
  }
  const except = new Set(input.except ?? []);
  const days = daysBetween(input.from, input.to).filter(
    (d) => input.weekdays.includes(isoWeekday(d)) && !except.has(d),
  );
  const count = days.length * input.times.length * hallsInOrder.length;
  if (count === 0) throw badRequest('No day of that range falls on the chosen weekdays');
  if (count > BATCH_MAX_SHOWTIMES) {
    throw badRequest(`That is ${count} showtimes: a batch creates at most ${BATCH_MAX_SHOWTIMES}`);
  }

  const book = await PriceBook.load(db, timeZone);
  const now = Date.now();
  const wanted: (BatchShowtime & { problem?: Omit<BatchProblem, keyof BatchShowtime> })[] = [];
  for (const day of days) {
    for (const time of [...input.times].sort()) {
      const { at, exists } = instantAt(day, time, timeZone);
      const pricing = book.forShowtime({
        priceCardId: input.priceCardId ?? null,
        startsAt: at,
        priceCents: 0,
        attributes: input.attributes ?? [],
      });
      const priceCents = input.priceCents ?? (pricing.card ? pricing.displayPriceCents : 0);
      for (const hall of hallsInOrder) {
        const base: BatchShowtime = {
          auditoriumId: hall.id,
          auditorium: hall.name,
          startsAt: at.toISOString(),
          endsAt: showtimeEndsAt(at, movie.durationMinutes).toISOString(),
          localDate: day,
          localTime: time,
          priceCents,
        };
        const problem = !exists
          ? {
              reason: 'skipped_by_clocks' as const,
              message: `${time} does not exist on ${day}: the clocks skip it`,
            }
          : at.getTime() <= now
            ? { reason: 'in_the_past' as const, message: `${day} ${time} has passed` }
            : priceCents < 1
              ? {
                  reason: 'no_price' as const,
                  message: pricing.card
                    ? `The card “${pricing.card.name}” sells its first ticket type for nothing: give a price`
                    : `No price card covers ${day} ${time}: give a price or choose a card`,
                }
              : undefined;
        wanted.push({ ...base, ...(problem && { problem }) });
      }
    }
  }

  // What is already scheduled in these halls over the batch's span.
  const first = wanted[0]!.startsAt;
  const last = wanted.reduce((end, s) => (s.endsAt > end ? s.endsAt : end), first);
  const scheduled = (
    await db
      .select({
        id: showtimes.id,
        hallId: showtimes.hallId,
        movie: movies.title,
        auditorium: halls.name,
        startsAt: showtimes.startsAt,
        endsAt: showtimes.endsAt,
      })
      .from(showtimes)
      .innerJoin(movies, eq(movies.id, showtimes.movieId))
      .innerJoin(halls, eq(halls.id, showtimes.hallId))
      .where(
        and(
          inArray(showtimes.hallId, input.auditoriumIds),
          lt(showtimes.startsAt, new Date(last)),
          gt(showtimes.endsAt, new Date(first)),
        ),
      )
  ).map((s) => ({ ...s, startsAt: s.startsAt.toISOString(), endsAt: s.endsAt.toISOString() }));

  const accepted: BatchShowtime[] = [];
  const problems: BatchProblem[] = [];
  for (const s of wanted) {
    const { problem, ...showtime } = s;
    if (problem) {
      problems.push({ ...showtime, ...problem });
      continue;
    }
    const existing = scheduled.find((x) => x.hallId === s.auditoriumId && overlaps(x, s));
    if (existing) {
      const { hallId: _, ...clash } = existing;
      problems.push({
        ...showtime,
        reason: 'overlap',
        clash,
        message: `${s.auditorium} is busy: it overlaps “${existing.movie}”`,
      });
      continue;
    }
    const sibling = accepted.find((x) => x.auditoriumId === s.auditoriumId && overlaps(x, s));
    if (sibling) {
      problems.push({
        ...showtime,
        reason: 'overlaps_batch',
        clash: { id: null, movie: movie.title, ...sibling },
        message: `It overlaps this batch’s ${sibling.localTime} showing in ${s.auditorium}`,
      });
      continue;
    }
    accepted.push(showtime);
  }
  return { movie: movie.title, showtimes: accepted, problems };
}

/**
 * `POST /api/admin/showtimes/batch`: with `dryRun`, the plan; otherwise all of it or nothing: 409 batch_clashes with
 * the plan while anything cannot be created (a showtime scheduled meanwhile by someone else included).
 */
export async function createBatch(
  db: Db,
  actor: Actor,
  timeZone: string,
  input: BatchShowtimesBody,
): Promise<BatchShowtimesResponse> {
  const plan = await planBatch(db, timeZone, input);
  if (input.dryRun) return { created: false, showtimes: plan.showtimes, problems: plan.problems };
  const refuse = (p: Plan) =>
    conflict(
      `${p.problems.length} of these showtimes cannot be created: nothing was written`,
      'batch_clashes',
      { showtimes: p.showtimes, problems: p.problems },
    );
  if (plan.problems.length > 0) throw refuse(plan);
  try {
    const ids = await db.transaction(async (tx) => {
      const rows = await tx
        .insert(showtimes)
        .values(
          plan.showtimes.map((s) => ({
            movieId: input.movieId,
            hallId: s.auditoriumId,
            startsAt: new Date(s.startsAt),
            endsAt: new Date(s.endsAt),
            priceCents: s.priceCents,
            priceCardId: input.priceCardId ?? null,
            attributes: input.attributes ?? [],
          })),
        )
        .returning({ id: showtimes.id, hallId: showtimes.hallId, startsAt: showtimes.startsAt });
      await recordAudit(tx, actor, {
        action: 'showtime.batch',
        subjectType: 'movie',
        subjectId: input.movieId,
        after: {
          movie: plan.movie,
          created: rows.length,
          halls: [...new Set(plan.showtimes.map((s) => s.auditorium))],
          from: input.from,
          to: input.to,
          weekdays: input.weekdays,
          times: input.times,
          except: input.except ?? [],
          priceCents: input.priceCents ?? null,
          priceCardId: input.priceCardId ?? null,
          attributes: input.attributes ?? [],
        },
      });
      return new Map(rows.map((r) => [`${r.hallId}|${r.startsAt.toISOString()}`, r.id]));
    });
    return {
      created: true,
      showtimes: plan.showtimes.map((s) => ({ ...s, id: ids.get(`${s.auditoriumId}|${s.startsAt}`) })),
      problems: [],
    };
  } catch (err) {
    const code = pgErrorCode(err);
    // Someone scheduled a showtime in the way between the plan and the insert: plan again to name it.
    if (code === PG_EXCLUSION_VIOLATION) {
      const again = await planBatch(db, timeZone, input);
      if (again.problems.length > 0) throw refuse(again);
      throw conflict('A hall became busy meanwhile: try again', 'batch_clashes', {
        showtimes: [],
        problems: [],
      });
    }
    if (code === PG_FOREIGN_KEY_VIOLATION) throw notFound('Movie, hall or price card not found');
    throw err;
  }
}
