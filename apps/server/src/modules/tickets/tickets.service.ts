import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  minAgeOf,
  type BookedSeat,
  type RatingSystem,
  type ShowtimeTicket,
  type Ticket,
} from '@cinema/contract';
import type { Database, Queryable } from '../../db/database.ts';
import {
  bookings,
  orderLines,
  orders,
  halls,
  movies,
  seats,
  showtimes,
  users,
} from '../../db/schema/index.ts';
import { textArray } from '../../db/arrays.ts';
import { notFound } from '../../errors.ts';

/** A booking with its buyer, seat, movie, start and hall: the base of the tickets, the admin lists and check-in. */
export const ticketDetails = (db: Queryable) =>
  db
    .select({
      bookingId: bookings.id,
      status: bookings.status,
      showtimeId: bookings.showtimeId,
      endsAt: showtimes.endsAt,
      checkedInBy: bookings.checkedInBy,
      checkedInDevice: bookings.checkedInDevice,
      email: users.email,
      name: users.name,
      row: seats.row,
      number: seats.number,
      rowLabel: seats.rowLabel,
      seatType: seats.type,
      movie: movies.title,
      rating: movies.rating,
      durationMinutes: movies.durationMinutes,
      startsAt: showtimes.startsAt,
      attributes: showtimes.attributes,
      auditorium: halls.name,
      checkedInAt: bookings.checkedInAt,
      // When it was sold: a door device's clock claiming an earlier check-in is not believed.
      confirmedAt: bookings.confirmedAt,
      // Paid through the built-in test checkout: no money moved.
      testMode: sql<boolean>`coalesce(${orders.provider} = 'local', false)`,
      orderRef: orders.ref,
      ticketType: orderLines.ticketTypeName,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(showtimes, eq(showtimes.id, bookings.showtimeId))
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .innerJoin(seats, eq(seats.id, bookings.seatId))
    .leftJoin(orders, eq(orders.id, bookings.checkoutSessionId))
    .leftJoin(
      orderLines,
      and(eq(orderLines.orderId, bookings.checkoutSessionId), eq(orderLines.bookingId, bookings.id)),
    );

type TicketDetail = Awaited<ReturnType<typeof ticketDetails>>[number];

/** Confirmed bookings matching `where`, as Tickets (DESIGN §3), in the given order. */
export async function selectTickets(
  db: Queryable,
  where: SQL | undefined,
  orderBy: SQL[],
): Promise<Ticket[]> {
  const rows = await ticketDetails(db)
    .where(and(eq(bookings.status, 'CONFIRMED'), where))
    .orderBy(...orderBy);
  return rows.map(asTicket);
}

function asTicket(r: TicketDetail): Ticket {
  return {
    bookingId: r.bookingId,
    movie: { title: r.movie, rating: r.rating, durationMinutes: r.durationMinutes },
    auditorium: r.auditorium,
    seat: { row: r.row, number: r.number, rowLabel: r.rowLabel, type: r.seatType },
    startsAt: r.startsAt.toISOString(),
    attributes: textArray(r.attributes),
    checkedInAt: r.checkedInAt?.toISOString() ?? null,
    testMode: r.testMode,
    ...(r.orderRef && { orderRef: r.orderRef }),
    ...(r.ticketType && { ticketType: r.ticketType }),
  };
}

// My Tickets and the booked list join eight tables: planning them costs more than running them once the tables
// hold a year of bookings (2 ms against 0.3 ms, decision 027), so each is prepared once per database handle and
// planned once per connection.
const statements = new WeakMap<object, { myTickets: PreparedMyTickets; booked: PreparedBooked }>();
type PreparedMyTickets = ReturnType<typeof prepareMyTickets>;
type PreparedBooked = ReturnType<typeof bookedQuery>;

function prepareMyTickets(db: Queryable) {
  const over = sql`${showtimes.endsAt} <= now()`;
  return ticketDetails(db)
    .where(and(eq(bookings.status, 'CONFIRMED'), eq(bookings.userId, sql.placeholder('userId'))))
    .orderBy(
      asc(over),
      sql`case when ${over} then null else ${showtimes.startsAt} end asc`,
      sql`${showtimes.startsAt} desc`,
      asc(seats.row),
      asc(seats.number),
    )
    .prepare('my_tickets');
}

// The booked list reads only what it shows: each ticket's buyer, seat and check-in; the showtime's movie, start and
// hall are read once (`showtimeOf`), not once per ticket (decisions 028, 030).
const bookedQuery = (db: Queryable) =>
  db
    .select({
      bookingId: bookings.id,
      email: users.email,
      name: users.name,
      row: seats.row,
      number: seats.number,
      rowLabel: seats.rowLabel,
      seatType: seats.type,
      checkedInAt: bookings.checkedInAt,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(seats, eq(seats.id, bookings.seatId))
    .where(and(eq(bookings.showtimeId, sql.placeholder('showtimeId')), sql`${bookings.status} = 'CONFIRMED'`))
    .orderBy(asc(seats.row), asc(seats.number))
    .prepare('booked_seats');

function statementsOf(db: Queryable) {
  let prepared = statements.get(db);
  if (!prepared)
    statements.set(db, (prepared = { myTickets: prepareMyTickets(db), booked: bookedQuery(db) }));
  return prepared;
}

/** The caller's paid tickets: showtimes not yet over first (soonest first), then past ones (latest first). */
export async function listMyTickets(db: Queryable, userId: string): Promise<Ticket[]> {
  const rows = await statementsOf(db).myTickets.execute({ userId });
  return rows.map(asTicket);
}

const showtimeTicketQuery = (db: Queryable, showtimeId: string) =>
  ticketDetails(db)
    .where(and(eq(bookings.showtimeId, showtimeId), eq(bookings.status, 'CONFIRMED')))
    .orderBy(asc(seats.row), asc(seats.number));

/** A showtime's movie, start and hall, for the admin lists; 404 for an unknown showtime. */
async function showtimeOf(db: Queryable, showtimeId: string) {
  const [show] = await db
    .select({
      movie: movies.title,
      startsAt: showtimes.startsAt,
      auditorium: halls.name,
      attributes: showtimes.attributes,
      rating: movies.rating,
    })
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(eq(showtimes.id, showtimeId))
    .limit(1);
  if (!show) throw notFound('Showtime not found');
  return show;
}

/**
 * Admin: the paid seats of a showtime with their buyers, in seat order; 404 for an unknown showtime.
 *
 * On the embedded engine the statement runs with hash and merge joins off: its planner costs a join as native
 * PostgreSQL would, and with a month of history chose to hash every customer and every seat of every hall (15,403 and
 * 3,548 rows) to join them to one showtime's 496 tickets, where looking each up by key costs the same on an empty
 * database and on a grown one (decision 030). PostgreSQL looks them up by key by itself (decision 028).
 */
export async function listBookedSeats(
  database: { db: Queryable; engine: Database['engine'] },
  showtimeId: string,
  ratingSystem: RatingSystem = 'MPAA',
): Promise<BookedSeat[]> {
  const { db } = database;
  const show = await showtimeOf(db, showtimeId);
  const rows =
    database.engine === 'pglite'
      ? await db.transaction(async (tx) => {
          await tx.execute(
            sql`select set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
              set_config('enable_memoize', 'off', true)`,
          );
          return bookedQuery(tx).execute({ showtimeId });
        })
      : await statementsOf(db).booked.execute({ showtimeId });
  const startsAt = show.startsAt.toISOString();
  const attributes = textArray(show.attributes);
  const minAge = minAgeOf(ratingSystem, show.rating);
  return rows.map((r) => ({
    bookingId: r.bookingId,
    user: { email: r.email, name: r.name },
    seat: { row: r.row, number: r.number, rowLabel: r.rowLabel, type: r.seatType },
    movie: show.movie,
    startsAt,
    auditorium: show.auditorium,
    checkedInAt: r.checkedInAt?.toISOString() ?? null,
    attributes,
    minAge,
  }));
}

/** Admin: the tickets of a showtime for printing QR codes, in seat order; 404 for an unknown showtime. */
export async function listShowtimeTickets(db: Queryable, showtimeId: string): Promise<ShowtimeTicket[]> {
  await showtimeOf(db, showtimeId);
  const rows = await showtimeTicketQuery(db, showtimeId);
  return rows.map((r) => ({
    bookingId: r.bookingId,
    seat: { row: r.row, number: r.number, rowLabel: r.rowLabel, type: r.seatType },
    movie: r.movie,
    startsAt: r.startsAt.toISOString(),
    auditorium: r.auditorium,
  }));
}
