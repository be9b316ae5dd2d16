import { Link } from 'react-router';
import { useMyTickets } from '../api/get-my-tickets';
import { TicketCard } from './ticket-card';
import { QueryStatus } from '../../../components/ui/query-status';

/** /tickets: one card per paid ticket, each with the QR code shown at the door. */
export function MyTicketsScreen() {
  const tickets = useMyTickets();
  return (
    <section>
      <h1 className="page-title">My Tickets</h1>
      <QueryStatus query={tickets} failure="Failed to load tickets" />
      {tickets.data?.length === 0 && (
        <div className="card space-y-3">
          <p>No tickets yet.</p>
          <Link to="/movies">Browse movies</Link>
        </div>
      )}
      {tickets.data && tickets.data.length > 0 && (
        <ul className="grid gap-4 md:grid-cols-2" aria-label="Tickets">
          {tickets.data.map((t) => (
            <TicketCard key={t.bookingId} ticket={t} />
          ))}
        </ul>
      )}
    </section>
  );
}
