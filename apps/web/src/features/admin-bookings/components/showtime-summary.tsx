import { formatDateTime } from '../../../lib/format';

/** "Movie · local start · Hall" above a showtime's lists, taken from its first ticket (nothing without tickets). */
export function ShowtimeSummary({
  ticket,
}: {
  ticket?: { movie: string; startsAt: string; auditorium: string };
}) {
  if (!ticket) return null;
  return (
    <p className="mb-4 text-slate-200">
      <span className="font-semibold text-white">{ticket.movie}</span> ·{' '}
      <time dateTime={ticket.startsAt}>{formatDateTime(ticket.startsAt)}</time> · {ticket.auditorium}
    </p>
  );
}
