import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { QrCode } from '../../../components/ui/qr-code';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { useShowtimeTickets } from '../api/get-showtime-tickets';
import '../../../components/ui/print-sheet.css';
import { QueryStatus } from '../../../components/ui/query-status';
import { ShowtimeSummary } from './showtime-summary';

/** /admin/showtimes/{id}/tickets: a printable sheet with one QR card per ticket of the showtime. */
export function ShowtimeQrCodesScreen() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const tickets = useShowtimeTickets(id);

  return (
    <section className="print-sheet">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title">{t('qr.title')}</h1>
        <button
          type="button"
          className="btn-primary print-hidden mb-6"
          onClick={() => window.print()}
          disabled={!tickets.data?.length}
        >
          {t('qr.print')}
        </button>
      </div>
      <nav aria-label={t('booked.showtime')} className="print-hidden mb-4 flex flex-wrap gap-3 text-sm">
        <Link to="/admin/showtimes">{t('booked.backToShowtimes')}</Link>
        <Link to={`/admin/showtimes/${id}/booked`}>{t('common.bookedSeats')}</Link>
      </nav>
      <ShowtimeSummary ticket={tickets.data?.[0]} />
      <QueryStatus query={tickets} failure={t('qr.failed')} />
      {tickets.data?.length === 0 && <p className="card">{t('booked.empty')}</p>}
      {tickets.data && tickets.data.length > 0 && (
        <ul className="ticket-grid grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t('qr.tickets')}>
          {tickets.data.map((ticket) => (
            <li
              key={ticket.bookingId}
              className="ticket-card card flex flex-col items-center gap-2 text-center"
              data-booking-id={ticket.bookingId}
            >
              <QrCode
                value={ticket.bookingId}
                size={160}
                label={t('qr.codeFor', { seat: seatWithType(ticket.seat) })}
              />
              <h2 className="text-lg font-bold text-white">{seatWithType(ticket.seat)}</h2>
              <p className="text-sm text-slate-200">
                {ticket.movie} · <time dateTime={ticket.startsAt}>{formatDateTime(ticket.startsAt)}</time> ·{' '}
                {ticket.auditorium}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
