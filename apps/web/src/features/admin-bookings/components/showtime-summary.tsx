import { AttributeBadges } from '../../../components/ui/attribute-badges';
import { IdCheck } from '../../../components/ui/id-check';
import { formatDateTime } from '../../../lib/format';

/** "Movie · local start · Hall" above a showtime's lists, taken from its first ticket (nothing without tickets). */
export function ShowtimeSummary({
  ticket,
}: {
  ticket?: {
    movie: string;
    startsAt: string;
    auditorium: string;
    attributes?: string[];
    minAge?: number | null;
  };
}) {
  if (!ticket) return null;
  return (
    <div className="mb-4 space-y-1">
      <p className="text-slate-200">
        <span className="font-semibold text-white">{ticket.movie}</span> ·{' '}
        <time dateTime={ticket.startsAt}>{formatDateTime(ticket.startsAt)}</time> · {ticket.auditorium}
      </p>
      <AttributeBadges attributes={ticket.attributes} />
      <IdCheck minAge={ticket.minAge} />
    </div>
  );
}
