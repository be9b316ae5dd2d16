import { Link } from 'react-router';
import { formatMoney } from '@cinema/contract/constants';
import { useMyTickets } from '../api/get-my-tickets';
import { useMyOrders } from '../api/get-my-orders';
import { groupByOrder, type OrderGroup } from '../lib/group-by-order';
import { TicketCard } from './ticket-card';
import { QueryStatus } from '../../../components/ui/query-status';
import { TicketsPdfButton } from '../../../components/ui/tickets-pdf-button';
import { formatDateTime } from '../../../lib/format';

const statusText: Partial<Record<string, string>> = {
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  pending: 'Being paid',
};

/** One order: its reference, date and total, its tickets, and each refund as a line. */
function OrderSection({ group }: { group: OrderGroup }) {
  const { order, ref } = group;
  const titleId = `order-${ref ?? 'none'}`;
  const money = (cents: number) => formatMoney(cents, { currency: order?.currency });
  return (
    <section aria-labelledby={titleId} className="space-y-3" data-order-ref={ref ?? undefined}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-line pb-2">
        <h2 id={titleId} className="text-lg font-semibold text-white">
          {ref ? (
            <>
              Order <span className="font-mono tracking-wider text-gold">{ref}</span>
            </>
          ) : (
            'Other tickets'
          )}
        </h2>
        {order && (
          <p className="text-sm text-slate-200">
            <time dateTime={order.paidAt ?? order.createdAt}>
              {formatDateTime(order.paidAt ?? order.createdAt)}
            </time>
            {' · '}
            {order.lines.length} {order.lines.length === 1 ? 'seat' : 'seats'}
            {order.discountCents > 0 && ` · ${money(order.discountCents)} off`}
            {' · '}
            <span className="font-semibold text-white">Total {money(order.totalCents)}</span>
            {statusText[order.status] && ` · ${statusText[order.status]}`}
          </p>
        )}
      </div>
      {ref && group.tickets.length > 0 && <TicketsPdfButton orderRef={ref} />}
      {group.tickets.length > 0 ? (
        <ul
          className="grid gap-4 md:grid-cols-2"
          aria-label={ref ? `Tickets of order ${ref}` : 'Other tickets'}
        >
          {group.tickets.map((t) => (
            <TicketCard key={t.bookingId} ticket={t} headingLevel={3} />
          ))}
        </ul>
      ) : (
        <p className="muted text-sm">No tickets left on this order.</p>
      )}
      {order && order.refunds.length > 0 && (
        <ul aria-label={`Refunds of order ${order.ref}`} className="space-y-1 text-sm">
          {order.refunds.map((r, i) => (
            <li key={i} className="flex justify-between gap-4 tabular-nums">
              <span>
                Refund <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                {r.status === 'succeeded' ? '' : ` (${r.status})`}
              </span>
              <span>−{money(r.amountCents)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /tickets: the customer's tickets grouped by order, each with the QR code shown at the door. */
export function MyTicketsScreen() {
  const tickets = useMyTickets();
  const orders = useMyOrders();
  // The orders only add their reference line: without them the tickets still show.
  const groups = tickets.data ? groupByOrder(tickets.data, orders.data ?? []) : [];
  const onlyUngrouped = groups.length === 1 && groups[0]!.ref === null;
  return (
    <section>
      <h1 className="page-title">My Tickets</h1>
      <QueryStatus query={tickets} failure="Failed to load tickets" />
      {tickets.data && groups.length === 0 && (
        <div className="card space-y-3">
          <p>No tickets yet.</p>
          <Link to="/movies">Browse movies</Link>
        </div>
      )}
      {onlyUngrouped && (
        <ul className="grid gap-4 md:grid-cols-2" aria-label="Tickets">
          {groups[0]!.tickets.map((t) => (
            <TicketCard key={t.bookingId} ticket={t} />
          ))}
        </ul>
      )}
      {!onlyUngrouped && groups.length > 0 && (
        <div className="flex flex-col gap-8">
          {groups.map((g) => (
            <OrderSection key={g.ref ?? 'none'} group={g} />
          ))}
        </div>
      )}
    </section>
  );
}
