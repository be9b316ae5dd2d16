import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import {
  entryRefusal,
  entryWindow,
  judgeAdmission,
  minAgeOf,
  type DoorCounts,
  type DoorListResponse,
  type DoorShowtime,
  type EntryRefusal,
  type ScanBody,
  type ScanResponse,
  type ScanSyncBody,
  type ScanSyncResponse,
  type ScanSyncResult,
  type ScanUndoResponse,
} from '@cinema/contract';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/database.ts';
import { bookings, halls, movies, seats, showtimes, users } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { ticketDetails } from '../tickets/tickets.service.ts';

export interface CheckinDeps {
  db: Db;
  config: Pick<Config, 'entryOpensMinutes'> & Partial<Pick<Config, 'ratingSystem'>>;
}

/** A check-in may be undone this long after it was made (DESIGN §6.5). */
export const UNDO_MINUTES = 15;

const notAdmissible: Record<string, string> = {
  HELD: 'Ticket is not paid',
  EXPIRED: 'Ticket is not paid',
  CANCELLED: 'Ticket was cancelled',
  REFUNDED: 'Ticket was refunded',
};

type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketDetails>['where']>>[number];

const windowOf = (show: { startsAt: Date; endsAt: Date }, config: CheckinDeps['config']) =>
  entryWindow(show.startsAt, show.endsAt, config.entryOpensMinutes);

/** The 409 of a ticket the entry window refuses, naming the window. */
function windowRefused(
  refusal: EntryRefusal,
  show: { startsAt: Date; endsAt: Date },
  config: CheckinDeps['config'],
) {
  const extra = {
    entryOpensAt: new Date(windowOf(show, config).opensAt).toISOString(),
    entryClosesAt: show.endsAt.toISOString(),
  };
  return refusal === 'too_early'
    ? conflict('Too early: entry has not opened yet', 'too_early', extra)
    : conflict('Too late: this showtime is over', 'too_late', extra);
}

function wrongShowtime(ticket: TicketRow) {
  return conflict('Ticket is for another showtime', 'wrong_showtime', {
    ticket: { movie: ticket.movie, startsAt: ticket.startsAt.toISOString(), auditorium: ticket.auditorium },
  });
}

async function nameOf(db: Queryable, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name ?? null;
}

/** Paid tickets, checked in and still to come, per showtime. */
export async function doorCounts(db: Queryable, showtimeIds: string[]): Promise<Map<string, DoorCounts>> {
  const counts = new Map<string, DoorCounts>(
    showtimeIds.map((id) => [id, { sold: 0, checkedIn: 0, toCome: 0 }]),
  );
  if (showtimeIds.length === 0) return counts;
  const rows = await db
    .select({
      showtimeId: bookings.showtimeId,
      sold: sql<number>`count(*)::int`,
      checkedIn: sql<number>`count(${bookings.checkedInAt})::int`,
    })
    .from(bookings)
    .where(and(inArray(bookings.showtimeId, showtimeIds), eq(bookings.status, 'CONFIRMED')))
    .groupBy(bookings.showtimeId);
  for (const r of rows)
    counts.set(r.showtimeId, { sold: r.sold, checkedIn: r.checkedIn, toCome: r.sold - r.checkedIn });
  return counts;
}

const countsOf = async (db: Queryable, showtimeId: string) =>
  (await doorCounts(db, [showtimeId])).get(showtimeId)!;

/**
 * Checks a ticket in at the door. One conditional update sets checked_in_at only where it is still null on a
 * CONFIRMED booking, so of two scanners reading the same ticket at once exactly one sees it as first entry.
 *
 * Naming the showtime being admitted (the web scanner always does) refuses a ticket for another showtime
 * (wrong_showtime). Either way a ticket is admitted only within its showtime's entry window on the server's clock
 * (too_early / too_late) unless staff force it, which is audited as `checkin.force`.
 */
export async function checkInTicket(
  deps: CheckinDeps,
  actor: Actor | null,
  body: ScanBody | string,
): Promise<ScanResponse> {
  const { db, config } = deps;
  const { bookingId, showtimeId, force, deviceLabel } = typeof body === 'string' ? { bookingId: body } : body;
  const [ticket] = await ticketDetails(db).where(eq(bookings.id, bookingId)).limit(1);
  if (!ticket) throw notFound('Unknown ticket');
  if (ticket.status !== 'CONFIRMED')
    throw conflict(notAdmissible[ticket.status] ?? 'Ticket is not valid', 'ticket_not_paid');
  if (showtimeId && ticket.showtimeId !== showtimeId) throw wrongShowtime(ticket);

  let forced = false;
  if (!ticket.checkedInAt) {
    const admission = judgeAdmission({ window: windowOf(ticket, config), receivedAt: Date.now(), force });
    if (!admission.admit) throw windowRefused(admission.refusal, ticket, config);
    forced = admission.forced;
  }

  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(bookings)
      .set({
        checkedInAt: sql`now()`,
        updatedAt: sql`now()`,
        checkedInBy: actor?.id ?? null,
        checkedInDevice: deviceLabel ?? null,
      })
      .where(and(eq(bookings.id, bookingId), eq(bookings.status, 'CONFIRMED'), isNull(bookings.checkedInAt)))
      .returning({ checkedInAt: bookings.checkedInAt });
    if (row && forced && actor)
      await recordAudit(tx, actor, {
        action: 'checkin.force',
        subjectType: 'booking',
        subjectId: bookingId,
        before: { checkedInAt: null },
        after: {
          checkedInAt: row.checkedInAt,
          showtimeId: ticket.showtimeId,
          deviceLabel: deviceLabel ?? null,
        },
      });
    return row;
  });

  const [now] = await ticketDetails(db).where(eq(bookings.id, bookingId)).limit(1);
  if (!now) throw notFound('Unknown ticket');
  if (now.status !== 'CONFIRMED')
    throw conflict(notAdmissible[now.status] ?? 'Ticket is not valid', 'ticket_not_paid');
  return {
    ok: true,
    alreadyCheckedIn: !updated,
    user: { email: now.email, name: now.name },
    movie: now.movie,
    startsAt: now.startsAt.toISOString(),
    seat: { row: now.row, number: now.number, rowLabel: now.rowLabel, type: now.seatType },
    auditorium: now.auditorium,
    checkedInAt: now.checkedInAt?.toISOString(),
    testMode: now.testMode,
    checkedInBy: now.checkedInAt ? { name: (await nameOf(db, now.checkedInBy)) ?? 'Unknown' } : null,
    deviceLabel: now.checkedInDevice,
    ...(updated && forced && { forced: true }),
    ...(showtimeId && { counts: await countsOf(db, showtimeId) }),
  };
}

/** Reverses a check-in made within the last 15 minutes (audited as `checkin.undo`). */
export async function undoCheckIn(
  deps: CheckinDeps,
  actor: Actor,
  bookingId: string,
): Promise<ScanUndoResponse> {
  const { db } = deps;
  const [booking] = await db
    .select({
      showtimeId: bookings.showtimeId,
      checkedInAt: bookings.checkedInAt,
      checkedInBy: bookings.checkedInBy,
      checkedInDevice: bookings.checkedInDevice,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (!booking) throw notFound('Unknown ticket');
  const undone = await db.transaction(async (tx) => {
    // One conditional update: a scan racing this undo either lands before it (and is undone) or after it.
    const [row] = await tx
      .update(bookings)
      .set({ checkedInAt: null, checkedInBy: null, checkedInDevice: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(bookings.id, bookingId),
          isNotNull(bookings.checkedInAt),
          gt(bookings.checkedInAt, sql`now() - make_interval(mins => ${UNDO_MINUTES})`),
        ),
      )
      .returning({ id: bookings.id });
    if (row)
      await recordAudit(tx, actor, {
        action: 'checkin.undo',
        subjectType: 'booking',
        subjectId: bookingId,
        before: {
          checkedInAt: booking.checkedInAt,
          checkedInBy: booking.checkedInBy,
          deviceLabel: booking.checkedInDevice,
        },
        after: { checkedInAt: null },
      });
    return row;
  });
  if (!undone) {
    const [again] = await db
      .select({ checkedInAt: bookings.checkedInAt })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    if (!again?.checkedInAt) throw conflict('Ticket is not checked in', 'not_checked_in');
    throw conflict(`A check-in can only be undone within ${UNDO_MINUTES} minutes`, 'undo_expired');
  }
  return { ok: true, bookingId, counts: await countsOf(db, booking.showtimeId) };
}

const doorShowtimeColumns = {
  id: showtimes.id,
  movie: movies.title,
  startsAt: showtimes.startsAt,
  endsAt: showtimes.endsAt,
  auditorium: halls.name,
  rating: movies.rating,
};

function presentShowtime(
  r: { id: string; movie: string; startsAt: Date; endsAt: Date; auditorium: string; rating: string | null },
  counts: DoorCounts,
  config: CheckinDeps['config'],
  now: Date,
): DoorShowtime {
  const window = windowOf(r, config);
  return {
    id: r.id,
    movie: r.movie,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    auditorium: r.auditorium,
    entryOpensAt: new Date(window.opensAt).toISOString(),
    entryOpen: entryRefusal(window, now) === null,
    counts,
    minAge: minAgeOf(config.ratingSystem ?? 'MPAA', r.rating),
  };
}

/** The showtimes a door may admit: not over and starting within a week, those whose entry is open first. */
export async function doorShowtimes(deps: CheckinDeps): Promise<DoorShowtime[]> {
  const { db, config } = deps;
  const now = new Date();
  const rows = await db
    .select(doorShowtimeColumns)
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(
      and(gt(showtimes.endsAt, now), lt(showtimes.startsAt, new Date(now.getTime() + 7 * 24 * 3600_000))),
    )
    .orderBy(asc(showtimes.startsAt))
    .limit(200);
  const counts = await doorCounts(
    db,
    rows.map((r) => r.id),
  );
  const list = rows.map((r) => presentShowtime(r, counts.get(r.id)!, config, now));
  return [...list.filter((s) => s.entryOpen), ...list.filter((s) => !s.entryOpen)];
}

/** A showtime's tickets for a scanning device to keep (ids, seats, check-in state), with its counts. */
export async function doorList(deps: CheckinDeps, showtimeId: string): Promise<DoorListResponse> {
  const { db, config } = deps;
  const now = new Date();
  const [show] = await db
    .select(doorShowtimeColumns)
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(eq(showtimes.id, showtimeId));
  if (!show) throw notFound('Showtime not found');
  const rows = await ticketDetails(db)
    .where(
      and(
        eq(bookings.showtimeId, showtimeId),
        inArray(bookings.status, ['CONFIRMED', 'CANCELLED', 'REFUNDED']),
      ),
    )
    .orderBy(asc(seats.row), asc(seats.number), desc(bookings.createdAt));
  const checkers = new Map<string, string>();
  const checkerIds = [...new Set(rows.flatMap((r) => (r.checkedInBy ? [r.checkedInBy] : [])))];
  if (checkerIds.length)
    for (const u of await db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, checkerIds)))
      checkers.set(u.id, u.name);
  return {
    showtime: presentShowtime(show, (await doorCounts(db, [showtimeId])).get(showtimeId)!, config, now),
    tickets: rows.map((r) => ({
      bookingId: r.bookingId,
      status: r.status as 'CONFIRMED' | 'CANCELLED' | 'REFUNDED',
      name: r.name,
      seat: { row: r.row, number: r.number, rowLabel: r.rowLabel, type: r.seatType },
      checkedInAt: r.checkedInAt?.toISOString() ?? null,
      checkedInBy: r.checkedInBy ? (checkers.get(r.checkedInBy) ?? null) : null,
      testMode: r.testMode,
    })),
    at: now.toISOString(),
  };
}

/**
 * Check-ins a device made offline. Each is the same conditional update as a scan, so the server's first check-in
 * wins and every other is a conflict naming it. It is dated when the device admitted the ticket if the server can
 * believe the device's clock, else when the request arrived (DOOR_CLOCK_TOLERANCE_MINUTES), and the entry window
 * is judged at that moment: outside it the check-in is refused unless forced, and a forced one is audited.
 * Idempotent: a check-in already recorded for this scanner on this device answers checked_in again, unchanged.
 */
export async function syncCheckIns(
  deps: CheckinDeps,
  actor: Actor,
  body: ScanSyncBody,
): Promise<ScanSyncResponse> {
  const { db, config } = deps;
  const results: ScanSyncResult[] = [];
  const receivedAt = Date.now();
  for (const item of body.checkIns) {
    const [ticket] = await ticketDetails(db).where(eq(bookings.id, item.bookingId)).limit(1);
    const refuse = (code: string, error: string) =>
      results.push({ bookingId: item.bookingId, result: 'refused', code, error });
    if (!ticket) {
      refuse('not_found', 'Unknown ticket');
      continue;
    }
    if (ticket.status !== 'CONFIRMED') {
      refuse('ticket_not_paid', notAdmissible[ticket.status] ?? 'Ticket is not valid');
      continue;
    }
    if (ticket.showtimeId !== body.showtimeId) {
      refuse('wrong_showtime', 'Ticket is for another showtime');
      continue;
    }
    const admission = judgeAdmission({
      window: windowOf(ticket, config),
      receivedAt,
      scannedAt: item.scannedAt,
      soldAt: ticket.confirmedAt,
      force: item.force,
    });
    // A ticket already in is answered below (this device's check-in again, or a conflict), whatever the window.
    if (!admission.admit && !ticket.checkedInAt) {
      const refused = windowRefused(admission.refusal, ticket, config);
      refuse(refused.code, refused.message);
      continue;
    }
    const at = new Date(admission.at);
    const forced = admission.admit && admission.forced;
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(bookings)
        .set({
          checkedInAt: at,
          updatedAt: sql`now()`,
          checkedInBy: actor.id,
          checkedInDevice: body.deviceLabel,
        })
        .where(
          and(
            eq(bookings.id, item.bookingId),
            eq(bookings.status, 'CONFIRMED'),
            isNull(bookings.checkedInAt),
          ),
        )
        .returning({ checkedInAt: bookings.checkedInAt });
      if (row && forced)
        await recordAudit(tx, actor, {
          action: 'checkin.force',
          subjectType: 'booking',
          subjectId: item.bookingId,
          before: { checkedInAt: null },
          after: {
            checkedInAt: row.checkedInAt,
            showtimeId: body.showtimeId,
            deviceLabel: body.deviceLabel,
            offline: true,
            // What the device's clock said, kept beside the server's own dating of the check-in.
            deviceScannedAt: item.scannedAt,
          },
        });
      return row;
    });
    if (updated) {
      results.push({
        bookingId: item.bookingId,
        result: 'checked_in',
        checkedInAt: updated.checkedInAt!.toISOString(),
        checkedInBy: await nameOf(db, actor.id),
        deviceLabel: body.deviceLabel,
      });
      continue;
    }
    const [current] = await db
      .select({
        at: bookings.checkedInAt,
        by: bookings.checkedInBy,
        device: bookings.checkedInDevice,
        status: bookings.status,
      })
      .from(bookings)
      .where(eq(bookings.id, item.bookingId));
    if (!current?.at) {
      refuse('ticket_not_paid', notAdmissible[current?.status ?? ''] ?? 'Ticket is not valid');
      continue;
    }
    const mine = current.by === actor.id && current.device === body.deviceLabel;
    results.push({
      bookingId: item.bookingId,
      result: mine ? 'checked_in' : 'conflict',
      checkedInAt: current.at.toISOString(),
      checkedInBy: await nameOf(db, current.by),
      deviceLabel: current.device,
    });
  }
  return { results, counts: await countsOf(db, body.showtimeId) };
}
