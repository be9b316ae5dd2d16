import { Link } from 'react-router';
import { useMyTickets } from '../api/get-my-tickets';
import { TicketCard } from './ticket-card';
import { QueryStatus } from '../../../components/ui/query-status';
import { TicketsPdfButton } from '../../../components/ui/tickets-pdf-button';

/** /tickets: one card per paid ticket, each with the QR code shown at the door. */
export function MyTicketsScreen() {
  const tickets = useMyTickets();
  // One PDF per order, in the order the tickets are listed (upcoming first).
  const orders = [...new Set(tickets.data?.flatMap((t) => (t.orderRef ? [t.orderRef] : [])))];
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
      {orders.length > 0 && (
        <section aria-labelledby="pdf-heading" className="mb-4">
          <h2 id="pdf-heading" className="mb-2 text-sm font-semibold text-slate-200">
            Print or save your tickets
          </h2>
          <ul className="flex flex-wrap gap-2">
            {orders.map((ref) => (
              <li key={ref}>
                <TicketsPdfButton orderRef={ref} />
              </li>
            ))}
          </ul>
        </section>
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
