import { count, sql } from 'drizzle-orm';
import {
  addDays,
  instantAt,
  isoWeekday,
  localDate,
  localDayTime,
  sortAttributes,
  type MovieGenre,
  type RatingSystem,
} from '@cinema/contract';
import type { Db } from '../../db/database.ts';
import { movies, showtimes } from '../../db/schema/index.ts';
import { listHalls } from '../halls/halls.service.ts';
import { insertPoster, preparePoster } from '../movies/posters.service.ts';
import { showtimeEndsAt } from '../showtimes/showtimes.service.ts';
import { paintPoster, type PosterDesign } from './poster-art.ts';
import { seedDemoMenu } from './demo-menu.ts';
import { seedDemoFilmHire } from './demo-film-hire.ts';

interface DemoMovie {
  title: string;
  description: string;
  durationMinutes: number;
  /** Its certificate in each rating system (RATING_SYSTEM). */
  ratings: Record<RatingSystem, string>;
  genres: MovieGenre[];
  cast: string[];
  director: string;
  releaseDate: string;
  /** Fictional films have no trailer: the link shows where one would be. */
  trailerUrl: string;
  poster: Omit<PosterDesign, 'title'>;
}

/** Fictional films; their posters are painted at seed time, nothing is downloaded. */
export const DEMO_MOVIES: DemoMovie[] = [
  {
    title: 'The Last Lighthouse',
    description:
      'A retired keeper returns to the island lighthouse she swore never to light again, the night a storm strands a ferry offshore.',
    durationMinutes: 118,
    ratings: { MPAA: 'PG-13', BBFC: '12A', FSK: 'FSK 12', ACB: 'M', ICAA: '12' },
    genres: ['DRAMA', 'ADVENTURE'],
    cast: ['Maren Holt', 'Idris Calloway', 'Agnes Pryor'],
    director: 'Sigrid Vale',
    releaseDate: '2026-10-09',
    trailerUrl: 'https://example.com/trailers/the-last-lighthouse',
    poster: { motif: 'sunset', top: [255, 140, 90], bottom: [40, 30, 80], accent: [255, 220, 120], seed: 11 },
  },
  {
    title: 'Neon Harbor',
    description:
      'In a port city that never sleeps, a courier with a perfect memory is hired to forget one delivery.',
    durationMinutes: 132,
    ratings: { MPAA: 'R', BBFC: '18', FSK: 'FSK 18', ACB: 'R18+', ICAA: '18' },
    genres: ['THRILLER', 'CRIME', 'SCIENCE_FICTION'],
    cast: ['Dax Moreno', 'Yuki Tanabe', 'Lena Okafor'],
    director: 'Rafael Quint',
    releaseDate: '2026-11-13',
    trailerUrl: 'https://example.com/trailers/neon-harbor',
    poster: { motif: 'neon', top: [60, 10, 90], bottom: [10, 5, 30], accent: [255, 60, 170], seed: 22 },
  },
  {
    title: 'Paper Moons',
    description:
      'Two siblings fold a paper moon to replace the one that vanished from their village sky. An animated adventure for all ages.',
    durationMinutes: 94,
    ratings: { MPAA: 'G', BBFC: 'U', FSK: 'FSK 0', ACB: 'G', ICAA: 'A' },
    genres: ['ANIMATION', 'FAMILY', 'FANTASY'],
    cast: ['Poppy Lark', 'Theo Lark', 'Mabel Finch'],
    director: 'Jun Arakawa',
    releaseDate: '2026-11-20',
    trailerUrl: 'https://example.com/trailers/paper-moons',
    poster: { motif: 'moon', top: [20, 30, 80], bottom: [10, 12, 35], accent: [250, 240, 200], seed: 33 },
  },
  {
    title: 'Summit Fever',
    description:
      'Six climbers, one window of good weather and a secret buried on the ridge of the world’s most dangerous peak.',
    durationMinutes: 141,
    ratings: { MPAA: 'PG-13', BBFC: '12A', FSK: 'FSK 12', ACB: 'M', ICAA: '12' },
    genres: ['ADVENTURE', 'THRILLER'],
    cast: ['Kai Brenner', 'Noor Haddad', 'Ola Lindqvist', 'Sam Achebe'],
    director: 'Ingrid Falk',
    releaseDate: '2026-11-06',
    trailerUrl: 'https://example.com/trailers/summit-fever',
    poster: {
      motif: 'mountains',
      top: [120, 170, 230],
      bottom: [30, 45, 75],
      accent: [255, 200, 120],
      seed: 44,
    },
  },
  {
    title: 'The Quiet Orbit',
    description:
      'A lone engineer aboard a research station notices the planet below has started answering her messages.',
    durationMinutes: 126,
    ratings: { MPAA: 'PG', BBFC: 'PG', FSK: 'FSK 6', ACB: 'PG', ICAA: '7' },
    genres: ['SCIENCE_FICTION', 'DRAMA', 'MYSTERY'],
    cast: ['Vera Solis', 'Anton Reyes'],
    director: 'Hana Koval',
    releaseDate: '2026-10-23',
    trailerUrl: 'https://example.com/trailers/the-quiet-orbit',
    poster: { motif: 'planet', top: [5, 8, 25], bottom: [25, 15, 50], accent: [230, 120, 70], seed: 55 },
  },
  {
    title: 'Midnight Bakery',
    description:
      'A night-shift baker and a sleepless food critic trade insults, recipes and eventually secrets. A warm comedy.',
    durationMinutes: 101,
    ratings: { MPAA: 'PG', BBFC: 'PG', FSK: 'FSK 6', ACB: 'PG', ICAA: '7' },
    genres: ['COMEDY', 'ROMANCE'],
    cast: ['Rosa Delgado', 'Felix Marchetti', 'June Osei'],
    director: 'Pierre Lamont',
    releaseDate: '2026-11-27',
    trailerUrl: 'https://example.com/trailers/midnight-bakery',
    poster: { motif: 'bokeh', top: [70, 35, 45], bottom: [25, 12, 20], accent: [255, 170, 90], seed: 66 },
  },
];

// An arbitrary advisory-lock key reserved for seeding, so two processes starting together seed once.
const SEED_LOCK = 71_002;
const FIRST_SHOW_HOUR = 11;
const LAST_START_HOUR = 22;
const SEED_DAYS = 7;

/** A showtime's day and hour on the cinema's clocks, and its weekday as Sunday 0 … Saturday 6. */
interface DemoStart {
  date: string;
  hour: number;
  weekday: number;
}

/** Matinees are cheaper; the largest hall costs a little more. */
function demoPrice(start: DemoStart, hallIndex: number): number {
  const base = start.hour < 17 ? 1200 : 1500;
  return base + (hallIndex === 2 ? 300 : 0);
}

/**
 * What a demo showtime is (DESIGN §7.5): the largest hall shows IMAX, every third showtime elsewhere 3D; the
 * evening's late show in its original version with subtitles; a captioned, an audio described and a relaxed
 * screening each day, and parent-and-baby and seniors' mornings.
 */
function demoAttributes(start: DemoStart, hallIndex: number, nth: number): string[] {
  const attributes: string[] = [hallIndex === 2 ? 'IMAX' : nth % 3 === 1 ? '3D' : '2D'];
  if (start.hour >= 21) attributes.push('ORIGINAL', 'SUBTITLES_EN');
  if (hallIndex === 0 && nth === 1) attributes.push('CAPTIONED');
  if (hallIndex === 1 && nth === 2) attributes.push('AUDIO_DESCRIBED');
  if (hallIndex === 1 && nth === 0) attributes.push(start.weekday % 2 ? 'RELAXED' : 'PARENT_AND_BABY');
  if (hallIndex === 0 && nth === 0 && start.weekday === 3) attributes.push('SENIOR');
  return attributes;
}

const roundUpToQuarter = (d: Date) => new Date(Math.ceil(d.getTime() / (15 * 60_000)) * 15 * 60_000);

export interface SeedReport {
  movies: number;
  showtimes: number;
}

/** Where a showtime starting at `at` falls on the cinema's clocks. */
function demoStart(at: Date, timeZone: string): DemoStart {
  const { date, time } = localDayTime(at, timeZone);
  return { date, hour: Number(time.slice(0, 2)), weekday: isoWeekday(date) % 7 };
}

/**
 * On an empty catalogue: the demo movies (certified in the cinema's rating system) with generated posters and
 * back-to-back showtimes over the next seven days in every hall (on the cinema's clocks, `timeZone`). Returns null
 * when there already are movies.
 */
export async function seedDemo(
  db: Db,
  timeZone: string,
  now = new Date(),
  ratingSystem: RatingSystem = 'MPAA',
): Promise<SeedReport | null> {
  // Painted and re-encoded before the transaction, as an upload would be.
  const designs = await Promise.all(
    DEMO_MOVIES.map((m) => preparePoster(paintPoster({ title: m.title, ...m.poster }))),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(movies);
    if (existing!.n > 0) return null;
    const halls = await listHalls(tx);
    const created: { id: string; durationMinutes: number | null }[] = [];
    for (const [i, movie] of DEMO_MOVIES.entries()) {
      const posterId = await insertPoster(tx, designs[i]!);
      const [row] = await tx
        .insert(movies)
        .values({
          title: movie.title,
          description: movie.description,
          durationMinutes: movie.durationMinutes,
          rating: movie.ratings[ratingSystem],
          genres: movie.genres,
          castMembers: movie.cast,
          director: movie.director,
          releaseDate: movie.releaseDate,
          trailerUrl: movie.trailerUrl,
          posterId,
        })
        .returning({ id: movies.id, durationMinutes: movies.durationMinutes });
      created.push(row!);
    }

    const schedule: (typeof showtimes.$inferInsert)[] = [];
    // Nothing starts within the next half hour: a customer should be able to book what they see.
    const earliest = new Date(now.getTime() + 30 * 60_000);
    halls.forEach((hall, hallIndex) => {
      for (let day = 0; day < SEED_DAYS; day++) {
        const date = addDays(localDate(now, timeZone), day);
        // The first show of each hall half an hour after the previous hall's: 11:00, 11:30, 12:00.
        const first = FIRST_SHOW_HOUR * 60 + hallIndex * 30;
        const firstTime = `${String(Math.floor(first / 60)).padStart(2, '0')}:${String(first % 60).padStart(2, '0')}`;
        let start = instantAt(date, firstTime, timeZone).at;
        let local = demoStart(start, timeZone);
        let pick = day * 2 + hallIndex;
        let nth = 0;
        while (local.hour < LAST_START_HOUR && local.date === date) {
          const movie = created[pick++ % created.length]!;
          const endsAt = showtimeEndsAt(start, movie.durationMinutes);
          if (start > earliest) {
            schedule.push({
              movieId: movie.id,
              hallId: hall.id,
              startsAt: start,
              endsAt,
              priceCents: demoPrice(local, hallIndex),
              attributes: sortAttributes(demoAttributes(local, hallIndex, nth)),
            });
          }
          nth++;
          start = roundUpToQuarter(endsAt);
          local = demoStart(start, timeZone);
        }
      }
    });
    if (schedule.length > 0) await tx.insert(showtimes).values(schedule);
    await seedDemoMenu(tx);
    await seedDemoFilmHire(
      tx,
      created.map((m) => m.id),
    );
    return { movies: created.length, showtimes: schedule.length };
  });
}
