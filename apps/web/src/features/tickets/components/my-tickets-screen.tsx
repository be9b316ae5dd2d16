import { Link } from 'react-router';
import { useMyTickets } from '../api/get-my-tickets';
import { useMyOrders } from '../api/get-my-orders';
import { groupByOrder, type OrderGroup } from '../lib/group-by-order';
import { OrderFacts } from './order-facts';
import { TicketCard } from './ticket-card';
import { QueryStatus } from '../../../components/ui/query-status';
import { TicketsPdfButton } from '../../../components/ui/tickets-pdf-button';
import { OrderItemsQr } from '../../../components/order/order-items-qr';
import { OrderTaxes } from '../../../components/order/order-taxes';
import { formatDateTime, useFormatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';

/** One order: its reference, date and total, its tickets, and each refund as a line. */
function OrderSection({ group }: { group: OrderGroup }) {
  const { t } = useTranslation('common');
  const { order, ref } = group;
  const titleId = `order-${ref ?? 'none'}`;
  const formatMoney = useFormatMoney();
  const money = (cents: number) => formatMoney(cents, order?.currency);
  return (
    <section aria-labelledby={titleId} className="space-y-3" data-order-ref={ref ?? undefined}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-line pb-2">
        <h2 id={titleId} className="text-lg font-semibold text-white">
          {ref ? (
            <>
              {t('checkout.order')} <span className="font-mono tracking-wider text-gold">{ref}</span>
            </>
          ) : (
            t('tickets.other')
          )}
        </h2>
        {order && <OrderFacts order={order} />}
      </div>
      <div className="flex flex-wrap gap-2">
        {ref && (group.tickets.length > 0 || !!order?.products?.length) && (
          <TicketsPdfButton orderRef={ref} />
        )}
        {ref && order?.paidAt && <TicketsPdfButton orderRef={ref} document="receipt" />}
      </div>
      {order && <OrderTaxes order={order} currency={order.currency} />}
      {order && <OrderItemsQr order={order} withItems />}
      {group.tickets.length > 0 ? (
        <ul
          className="grid gap-4 md:grid-cols-2"
          aria-label={ref ? t('tickets.ofOrder', { ref }) : t('tickets.other')}
        >
          {group.tickets.map((ticket) => (
            <TicketCard key={ticket.bookingId} ticket={ticket} headingLevel={3} />
          ))}
        </ul>
      ) : (
        !order?.products?.length && <p className="muted text-sm">{t('tickets.noneLeft')}</p>
      )}
      {order && order.refunds.length > 0 && (
        <ul aria-label={t('tickets.refundsOf', { ref: order.ref })} className="space-y-1 text-sm">
          {order.refunds.map((r, i) => (
            <li key={i} className="flex justify-between gap-4 tabular-nums">
              <span>
                {t('order.refund')} <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                {r.status === 'succeeded' ? '' : ` (${t(`order.refundStatus.${r.status}`, r.status)})`}
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
  const { t } = useTranslation('common');
  const tickets = useMyTickets();
  const orders = useMyOrders();
  // The orders only add their reference line: without them the tickets still show.
  const groups = tickets.data ? groupByOrder(tickets.data, orders.data ?? []) : [];
  const onlyUngrouped = groups.length === 1 && groups[0]!.ref === null;
  return (
    <section>
      <h1 className="page-title">{t('layout.myTickets')}</h1>
      <QueryStatus query={tickets} failure={t('tickets.loadFailed')} />
      {tickets.data && groups.length === 0 && (
        <div className="card space-y-3">
          <p>{t('tickets.none')}</p>
          <Link to="/movies">{t('tickets.browse')}</Link>
        </div>
      )}
      {onlyUngrouped && (
        <ul className="grid gap-4 md:grid-cols-2" aria-label={t('checkout.tickets')}>
          {groups[0]!.tickets.map((ticket) => (
            <TicketCard key={ticket.bookingId} ticket={ticket} />
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
