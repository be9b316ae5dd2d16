import { Link, useParams } from 'react-router';
import { QrCode } from '../../../components/ui/qr-code';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { useShowtimeTickets } from '../api/get-showtime-tickets';
import './print-sheet.css';
import { QueryStatus } from '../../../components/ui/query-status';
import { ShowtimeSummary } from './showtime-summary';

/** /admin/showtimes/{id}/tickets: a printable sheet with one QR card per ticket of the showtime. */
export function ShowtimeQrCodesScreen() {
  const { id = '' } = useParams();
  const tickets = useShowtimeTickets(id);

  return (
    <section className="print-sheet">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title">Showtime QR Codes</h1>
        <button
          type="button"
          className="btn-primary print-hidden mb-6"
          onClick={() => window.print()}
          disabled={!tickets.data?.length}
        >
          Print
        </button>
      </div>
      <nav aria-label="Showtime" className="print-hidden mb-4 flex flex-wrap gap-3 text-sm">
        <Link to="/admin/showtimes">← Manage showtimes</Link>
        <Link to={`/admin/showtimes/${id}/booked`}>Booked seats</Link>
      </nav>
      <ShowtimeSummary ticket={tickets.data?.[0]} />
      <QueryStatus query={tickets} failure="Failed to load tickets" />
      {tickets.data?.length === 0 && <p className="card">No confirmed bookings yet.</p>}
      {tickets.data && tickets.data.length > 0 && (
        <ul className="ticket-grid grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Tickets">
          {tickets.data.map((t) => (
            <li
              key={t.bookingId}
              className="ticket-card card flex flex-col items-center gap-2 text-center"
              data-booking-id={t.bookingId}
            >
              <QrCode value={t.bookingId} size={160} label={`QR code for ${seatWithType(t.seat)}`} />
              <h2 className="text-lg font-bold text-white">{seatWithType(t.seat)}</h2>
              <p className="text-sm text-slate-200">
                {t.movie} · <time dateTime={t.startsAt}>{formatDateTime(t.startsAt)}</time> · {t.auditorium}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
