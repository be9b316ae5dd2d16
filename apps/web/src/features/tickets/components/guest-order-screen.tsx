import { useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { QueryStatus } from '../../../components/ui/query-status';
import { guestTicketsPdfUrl, useGuestOrder } from '../api/get-guest-order';
import { OrderItemsQr } from '../../../components/order/order-items-qr';
import { OrderFacts } from './order-facts';
import { TicketCard } from './ticket-card';

/**
 * /guest-order?token=…: a counter sale to an address no verified account had, as its emailed link shows it to
 * whoever holds the link, signed in or not: the order, its tickets with their QR codes, and their PDF.
 */
export function GuestOrderScreen() {
  const { t } = useTranslation('common');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const guest = useGuestOrder(token);
  const order = guest.data?.order;

  if (!token || !order) {
    return (
      <section className="space-y-4">
        <h1 className="page-title">{t('guestOrder.pageTitle')}</h1>
        {token ? (
          <QueryStatus query={guest} failure={t('guestOrder.invalid')} />
        ) : (
          <p className="error" role="alert">
            {t('guestOrder.incomplete')}
          </p>
        )}
      </section>
    );
  }
  const tickets = guest.data!.tickets;
  return (
    <section className="space-y-4">
      <h1 className="page-title">
        {t('checkout.order')} <span className="font-mono tracking-wider text-gold">{order.ref}</span>
      </h1>
      <OrderFacts order={order} />
      <p>{t('guestOrder.lead')}</p>
      {tickets.length > 0 ? (
        <>
          <a className="btn-secondary" href={guestTicketsPdfUrl(token)} download={`tickets-${order.ref}.pdf`}>
            {t('guestOrder.pdf')}
          </a>
          <ul className="grid gap-4 md:grid-cols-2" aria-label={t('tickets.ofOrder', { ref: order.ref })}>
            {tickets.map((ticket) => (
              <TicketCard key={ticket.bookingId} ticket={ticket} />
            ))}
          </ul>
        </>
      ) : (
        !order.products?.length && <p className="muted text-sm">{t('tickets.noneLeft')}</p>
      )}
      <OrderItemsQr order={order} withItems />
      <p className="muted text-sm">{t(guest.data!.claimed ? 'guestOrder.claimed' : 'guestOrder.claim')}</p>
    </section>
  );
}
