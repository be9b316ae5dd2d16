import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { LookupResponse, Ticket } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { seatName, seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { OrderSummary } from '../../../components/order/order-summary';
import { OrderItemsQr } from '../../../components/order/order-items-qr';
import { useCheckoutLookup } from '../api/lookup-checkout';
import { useOrder } from '../api/get-order';
import { TicketsPdfButton } from '../../../components/ui/tickets-pdf-button';
import { GiftCardsBought } from './gift-cards-bought';
import { useTranslation } from '../../../lib/i18n';

// checkout.titles.paid: "Payment Successful", …
const titleKey = (status: LookupResponse['status']) => `checkout.titles.${status}` as const;

function Links() {
  const { t } = useTranslation('common');
  return (
    <p className="mt-6 flex flex-wrap gap-3">
      <Link to="/movies" className="btn-secondary">
        {t('layout.movies')}
      </Link>
      <Link to="/tickets" className="btn-primary">
        {t('layout.myTickets')}
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
  const { t } = useTranslation('common');
  return (
    <ul className="grid gap-3" aria-label={t('checkout.tickets')}>
      {tickets.map((ticket) => (
        <li
          key={ticket.bookingId}
          className="card flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1"
        >
          <div>
            <p className="font-semibold text-white">{ticket.movie.title}</p>
            <p className="text-sm text-slate-200">
              <time dateTime={ticket.startsAt}>{formatDateTime(ticket.startsAt)}</time> · {ticket.auditorium}
            </p>
          </div>
          <p className="font-semibold text-gold">{seatWithType(ticket.seat)}</p>
        </li>
      ))}
    </ul>
  );
}

/** The order this payment is: its reference, each seat's ticket type and price, the discount and the total. */
function OrderPanel({ orderRef, status }: { orderRef: string; status: string }) {
  const { t } = useTranslation('common');
  const order = useOrder(orderRef, status);
  return (
    <section className="card mb-4 space-y-3" aria-labelledby="order-title">
      <h2 id="order-title" className="text-lg font-semibold text-white">
        {t('checkout.order')} <span className="font-mono tracking-wider text-gold">{orderRef}</span>
      </h2>
      {order.isError && (
        <p className="error" role="alert">
          {errorText(order.error, t('checkout.orderFailed'))}
        </p>
      )}
      {order.data && <OrderSummary order={order.data} />}
      {order.data?.paidAt && <TicketsPdfButton orderRef={order.data.ref} document="receipt" />}
      {order.data && <OrderItemsQr order={order.data} />}
    </section>
  );
}

/** /checkout/success: where the payment provider sends the customer back; the order and the session's tickets. */
export function CheckoutSuccessScreen() {
  const { t } = useTranslation('common');
  const [params] = useSearchParams();
  const location = useLocation();
  const sessionId = params.get('session_id');
  const { query: lookup, stoppedWaiting } = useCheckoutLookup(sessionId);
  // The order's lines (the panel reads the same query): what was bought besides tickets.
  const order = useOrder(lookup.data?.orderRef ?? undefined, lookup.data?.status);

  if (!sessionId) {
    return (
      <Shell title={t('checkout.status')}>
        <p className="error" role="alert">
          {t('checkout.missingSession')}
        </p>
      </Shell>
    );
  }
  if (lookup.isPending) {
    return (
      <Shell title={t('checkout.status')}>
        <p className="muted" role="status">
          {t('checkout.lookingUp')}
        </p>
      </Shell>
    );
  }
  if (lookup.isError) {
    const signedOut = lookup.error instanceof ApiError && lookup.error.status === 401;
    return (
      <Shell title={t('checkout.status')}>
        <p className="error" role="alert">
          {signedOut ? t('checkout.signInToSee') : errorText(lookup.error, t('checkout.lookupFailed'))}
        </p>
        {signedOut && (
          <p className="mt-4">
            <Link to="/login" state={{ from: location.pathname + location.search }}>
              {t('auth.login.submit')}
            </Link>
          </p>
        )}
      </Shell>
    );
  }

  const result = lookup.data;
  const refunded = result.refundedSeats ?? [];
  const giftCards = order.data?.lines.filter((l) => l.kind === 'GIFT_CARD') ?? [];
  // An order of gift cards or food alone has no tickets to list, and says so by listing what it bought instead.
  const otherPurchase = giftCards.length > 0 || (order.data?.products?.length ?? 0) > 0;
  const orderLoading = Boolean(result.orderRef) && order.isPending;
  return (
    <Shell title={t(titleKey(result.status))}>
      {result.status === 'pending' &&
        (stoppedWaiting ? (
          <p className="notice" role="status">
            {t('checkout.notConfirmed')}
          </p>
        ) : (
          <p className="notice" role="status">
            {t('checkout.waiting')}
          </p>
        ))}
      {result.status === 'expired' && (
        <p className="error" role="alert">
          {t('checkout.expired')}
        </p>
      )}
      {result.status === 'cancelled' && (
        <p className="error" role="alert">
          {t('checkout.cancelled')}
        </p>
      )}
      {refunded.length > 0 && (
        <div className="error mb-4" role="alert">
          <p className="font-semibold">{t('checkout.refundedSeats', { count: refunded.length })}</p>
          <ul className="mt-1 list-disc pl-5">
            {refunded.map((s) => (
              <li key={`${s.row}-${s.number}`}>{seatName(s)}</li>
            ))}
          </ul>
        </div>
      )}
      {result.orderRef && <OrderPanel orderRef={result.orderRef} status={result.status} />}
      {result.tickets.length > 0 && <TicketList tickets={result.tickets} />}
      {(result.tickets.length > 0 || (order.data?.products ?? []).some((p) => p.status === 'confirmed')) &&
        result.orderRef && (
          <p className="mt-4">
            <TicketsPdfButton orderRef={result.orderRef} label={t('checkout.downloadPdf')} />
          </p>
        )}
      {giftCards.length > 0 && result.status === 'paid' && order.data && (
        <GiftCardsBought lines={giftCards} currency={order.data.currency} />
      )}
      {result.tickets.length === 0 &&
        (result.status === 'paid' || result.status === 'refunded') &&
        !orderLoading &&
        !otherPurchase && <p className="muted">{t('checkout.noTickets')}</p>}
    </Shell>
  );
}
