import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ScanResponse } from '@cinema/contract';
import type { Db } from '../../db/database.ts';
import { bookings } from '../../db/schema/index.ts';
import { ticketDetails } from '../tickets/tickets.service.ts';
import { conflict, notFound } from '../../errors.ts';

const notAdmissible: Record<string, string> = {
  HELD: 'Ticket is not paid',
  EXPIRED: 'Ticket is not paid',
  CANCELLED: 'Ticket was cancelled',
  REFUNDED: 'Ticket was refunded',
};

/**
 * Checks a ticket in at the door. One conditional update sets checked_in_at only where it is still null on a
 * CONFIRMED booking, so of two scanners reading the same ticket at once exactly one sees it as first entry.
 */
export async function checkInTicket(db: Db, bookingId: string): Promise<ScanResponse> {
  const [updated] = await db
    .update(bookings)
    .set({ checkedInAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(bookings.id, bookingId), eq(bookings.status, 'CONFIRMED'), isNull(bookings.checkedInAt)))
    .returning({ id: bookings.id });

  const [ticket] = await ticketDetails(db).where(eq(bookings.id, bookingId)).limit(1);

  if (!ticket) throw notFound('Unknown ticket');
  if (ticket.status !== 'CONFIRMED')
    throw conflict(notAdmissible[ticket.status] ?? 'Ticket is not valid', 'ticket_not_paid');
  return {
    ok: true,
    alreadyCheckedIn: !updated,
    user: { email: ticket.email, name: ticket.name },
    movie: ticket.movie,
    startsAt: ticket.startsAt.toISOString(),
    seat: { row: ticket.row, number: ticket.number, rowLabel: ticket.rowLabel, type: ticket.seatType },
    auditorium: ticket.auditorium,
    checkedInAt: ticket.checkedInAt?.toISOString(),
    testMode: ticket.testMode,
  };
}
