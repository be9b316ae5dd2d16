import type { Ticket } from '@cinema/contract';
import { AttributeBadges } from '../../../components/ui/attribute-badges';
import { QrCode } from '../../../components/ui/qr-code';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';

/** One ticket: the QR code of its booking id (what the door scans) beside what and where. */
export function TicketCard({ ticket, headingLevel = 2 }: { ticket: Ticket; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation('common');
  const seat = seatWithType(ticket.seat);
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <li className="card flex gap-4" data-booking-id={ticket.bookingId}>
      <QrCode
        value={ticket.bookingId}
        size={120}
        label={t('tickets.qrFor', { movie: ticket.movie.title, seat })}
      />
      <div className="min-w-0 space-y-1">
        <Heading className="text-lg leading-tight font-semibold text-white">{ticket.movie.title}</Heading>
        <p className="text-sm text-slate-200">
          <time dateTime={ticket.startsAt}>{formatDateTime(ticket.startsAt)}</time>
        </p>
        <p className="text-sm text-slate-200">{ticket.auditorium}</p>
        <AttributeBadges attributes={ticket.attributes} />
        <p className="font-semibold text-gold">
          {seat}
          {ticket.ticketType && <span className="font-normal text-slate-200"> · {ticket.ticketType}</span>}
        </p>
        {ticket.checkedInAt ? (
          <p className="text-sm text-emerald-300">
            {t('tickets.checkedIn')}{' '}
            <time dateTime={ticket.checkedInAt}>{formatDateTime(ticket.checkedInAt)}</time>
          </p>
        ) : (
          <p className="text-sm text-muted">{t('tickets.notCheckedIn')}</p>
        )}
      </div>
    </li>
  );
}
