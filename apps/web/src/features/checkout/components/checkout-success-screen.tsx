import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { LookupResponse, Ticket } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { seatLabel } from '@cinema/contract/constants';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { OrderSummary } from '../../../components/order/order-summary';
import { useCheckoutLookup } from '../api/lookup-checkout';
import { useOrder } from '../api/get-order';
import { TicketsPdfButton } from '../../../components/ui/tickets-pdf-button';

const titles: Record<LookupResponse['status'], string> = {
  paid: 'Payment Successful',
  pending: 'Payment Processing',
  refunded: 'Payment Refunded',
  expired: 'Checkout Expired',
  cancelled: 'Payment Cancelled',
};

function Links() {
  return (
    <p className="mt-6 flex flex-wrap gap-3">
      <Link to="/movies" className="btn-secondary">
        Movies
      </Link>
      <Link to="/tickets" className="btn-primary">
        My Tickets
      </Link>
    </p>
  );
}

function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="page-title">{title}</h1>
      {children}
      <Links />
    </section>
  );
}

function TicketList({ tickets }: { tickets: Ticket[] }) {
  return (
    <ul className="grid gap-3" aria-label="Tickets">
      {tickets.map((t) => (
        <li key={t.bookingId} className="card flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1">
          <div>
            <p className="font-semibold text-white">{t.movie.title}</p>
            <p className="text-sm text-slate-200">
              <time dateTime={t.startsAt}>{formatDateTime(t.startsAt)}</time> · {t.auditorium}
            </p>
          </div>
          <p className="font-semibold text-gold">{seatWithType(t.seat)}</p>
        </li>
      ))}
    </ul>
  );
}

/** The order this payment is: its reference, each seat's ticket type and price, the discount and the total. */
function OrderPanel({ orderRef, status }: { orderRef: string; status: string }) {
  const order = useOrder(orderRef, status);
  return (
    <section className="card mb-4 space-y-3" aria-labelledby="order-title">
      <h2 id="order-title" className="text-lg font-semibold text-white">
        Order <span className="font-mono tracking-wider text-gold">{orderRef}</span>
      </h2>
      {order.isError && (
        <p className="error" role="alert">
          {errorText(order.error, 'Failed to load the order')}
        </p>
      )}
      {order.data && <OrderSummary order={order.data} />}
    </section>
  );
}

/** /checkout/success: where the payment provider sends the customer back; the order and the session's tickets. */
export function CheckoutSuccessScreen() {
  const [params] = useSearchParams();
  const location = useLocation();
  const sessionId = params.get('session_id');
  const { query: lookup, stoppedWaiting } = useCheckoutLookup(sessionId);

  if (!sessionId) {
    return (
      <Shell title="Payment Status">
        <p className="error" role="alert">
          Missing session_id in URL.
        </p>
      </Shell>
    );
  }
  if (lookup.isPending) {
    return (
      <Shell title="Payment Status">
        <p className="muted" role="status">
          Looking up your payment…
        </p>
      </Shell>
    );
  }
  if (lookup.isError) {
    const signedOut = lookup.error instanceof ApiError && lookup.error.status === 401;
    return (
      <Shell title="Payment Status">
        <p className="error" role="alert">
          {signedOut
            ? 'Sign in to see the tickets of this payment.'
            : errorText(lookup.error, 'Lookup failed')}
        </p>
        {signedOut && (
          <p className="mt-4">
            <Link to="/login" state={{ from: location.pathname + location.search }}>
              Sign in
            </Link>
          </p>
        )}
      </Shell>
    );
  }

  const result = lookup.data;
  const refunded = result.refundedSeats ?? [];
  return (
    <Shell title={titles[result.status]}>
      {result.status === 'pending' &&
        (stoppedWaiting ? (
          <p className="notice" role="status">
            The payment has not been confirmed yet. Your tickets will appear in My Tickets as soon as it is.
          </p>
        ) : (
          <p className="notice" role="status">
            Waiting for the payment to be confirmed…
          </p>
        ))}
      {result.status === 'expired' && (
        <p className="error" role="alert">
          This checkout expired before it was paid, and its seats were released.
        </p>
      )}
      {result.status === 'cancelled' && (
        <p className="error" role="alert">
          This checkout was cancelled, and its seats were released.
        </p>
      )}
      {refunded.length > 0 && (
        <div className="error mb-4" role="alert">
          <p className="font-semibold">
            {refunded.length === 1 ? 'One seat was' : `${refunded.length} seats were`} taken by someone else
            before your payment arrived, so {refunded.length === 1 ? 'it was' : 'they were'} refunded:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {refunded.map((s) => (
              <li key={`${s.row}-${s.number}`}>{seatLabel(s)}</li>
            ))}
          </ul>
        </div>
      )}
      {result.orderRef && <OrderPanel orderRef={result.orderRef} status={result.status} />}
      {result.tickets.length > 0 && <TicketList tickets={result.tickets} />}
      {result.tickets.length > 0 && result.orderRef && (
        <p className="mt-4">
          <TicketsPdfButton orderRef={result.orderRef} label="Download tickets (PDF)" />
        </p>
      )}
      {result.tickets.length === 0 && (result.status === 'paid' || result.status === 'refunded') && (
        <p className="muted">No tickets found for this session.</p>
      )}
    </Shell>
  );
}
