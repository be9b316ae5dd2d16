import type { Order } from '@cinema/contract';
import { formatDateTime, formatTime, useFormatMoney } from '../../lib/format';
import { seatWithType } from '../../lib/seat-text';
import { useTranslation, type TFunction } from '../../lib/i18n';
import { feeLineName, OrderTaxes } from './order-taxes';

/** How an order's food reaches the customer, and where the kitchen has it. */
function fulfilmentText(order: Order, t: TFunction<'common'>): string {
  const c = order.concessions!;
  const how =
    c.fulfilment === 'SEAT' && c.seat && c.deliverAt
      ? t('concessions.bringAt', {
          seat: seatWithType(c.seat),
          hall: c.seat.auditorium,
          time: formatTime(c.deliverAt),
        })
      : t('concessions.collectWith', { ref: order.ref });
  return c.status ? `${how} · ${t(`concessions.status.${c.status}`)}` : how;
}

/**
 * An order as the customer reads it: each seat with its ticket type and price, the discount, the total, and each
 * refund as a line of its own (never a silent change). `showShowtime`: name each line's movie and start.
 */
export function OrderSummary({ order, showShowtime = true }: { order: Order; showShowtime?: boolean }) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const money = (cents: number) => formatMoney(cents, order.currency);
  // A line's status worth saying ("not paid yet"); a refund's unless it went through.
  const lineStatus = (status: Order['lines'][number]['status']) =>
    status === 'confirmed' ? null : t(`order.lineStatus.${status}`);
  const refundStatus = (status: string) =>
    status === 'succeeded' ? '' : ` (${t(`order.refundStatus.${status}`, status)})`;
  return (
    <table className="w-full text-left text-sm tabular-nums">
      <caption className="sr-only">{t('order.caption', { ref: order.ref })}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">{t('order.seat')}</th>
          <th scope="col">{t('order.ticketType')}</th>
          <th scope="col">{t('order.price')}</th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line, i) => {
          const status = lineStatus(line.status);
          return (
            <tr key={line.bookingId ?? i} className="border-b border-line/60">
              <th scope="row" className="py-1.5 pr-3 font-normal">
                {line.kind === 'FEE' ? (
                  <span className="font-semibold text-white">{feeLineName(line, t)}</span>
                ) : line.kind === 'GIFT_CARD' ? (
                  <>
                    <span className="font-semibold text-white">{t('order.giftCard')}</span>
                    {line.giftCard?.recipientEmail && (
                      <span className="block text-xs text-slate-300">
                        {t('order.giftCardFor', { email: line.giftCard.recipientEmail })}
                      </span>
                    )}
                    {line.giftCard?.code && (
                      <span className="block font-mono text-xs text-gold">{line.giftCard.code}</span>
                    )}
                  </>
                ) : (
                  <span className="font-semibold text-white">{seatWithType(line.seat)}</span>
                )}
                {showShowtime && line.kind === 'TICKET' && (
                  <span className="block text-xs text-slate-300">
                    {line.movie} · <time dateTime={line.startsAt}>{formatDateTime(line.startsAt)}</time>
                  </span>
                )}
              </th>
              <td className="py-1.5 pr-3 text-slate-200">
                {line.kind === 'TICKET' ? line.ticketType : ''}
                {status && <span className="text-muted"> · {status}</span>}
              </td>
              <td className="py-1.5 text-right">
                {line.discountCents > 0 && (
                  <s
                    className="mr-1 text-xs text-muted"
                    aria-label={t('order.was', { amount: money(line.listPriceCents) })}
                  >
                    {money(line.listPriceCents)}
                  </s>
                )}
                {money(line.priceCents)}
              </td>
            </tr>
          );
        })}
        {order.products?.map((item, i) => {
          const status = lineStatus(item.status);
          const name = item.options.length > 0 ? `${item.name} (${item.options.join(', ')})` : item.name;
          return (
            <tr key={`item-${i}`} className="border-b border-line/60">
              <th scope="row" className="py-1.5 pr-3 font-normal">
                <span className="font-semibold text-white">
                  {item.quantity > 1 ? `${item.quantity} × ${name}` : name}
                </span>
                {i === 0 && order.concessions && (
                  <span className="block text-xs text-slate-300">{fulfilmentText(order, t)}</span>
                )}
              </th>
              <td className="py-1.5 pr-3 text-slate-200">
                {t('concessions.itemsCaption')}
                {status && <span className="text-muted"> · {status}</span>}
              </td>
              <td className="py-1.5 text-right">{money(item.priceCents)}</td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        {order.discountCents > 0 && (
          <tr>
            <th scope="row" colSpan={2} className="pt-2 pr-3 text-right font-normal text-slate-300">
              {t('order.discount')}
              {order.promoCode ? ` (${order.promoCode})` : ''}
            </th>
            <td className="pt-2 text-right">−{money(order.discountCents)}</td>
          </tr>
        )}
        <tr>
          <th scope="row" colSpan={2} className="pt-2 pr-3 text-right font-semibold text-white">
            {t('order.total')}
          </th>
          <td className="pt-2 text-right font-semibold text-gold">{money(order.totalCents)}</td>
        </tr>
        {order.taxCents > 0 && (
          <tr>
            <td colSpan={3} className="pt-1">
              <OrderTaxes order={order} currency={order.currency} />
            </td>
          </tr>
        )}
        {order.refunds.map((r, i) => (
          <tr key={i}>
            <th scope="row" colSpan={2} className="pt-1 pr-3 text-right font-normal text-slate-300">
              {t('order.refund')} <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
              {refundStatus(r.status)}
            </th>
            <td className="pt-1 text-right">−{money(r.amountCents)}</td>
          </tr>
        ))}
      </tfoot>
    </table>
  );
}
