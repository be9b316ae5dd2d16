import type { Order } from '@cinema/contract';
import { formatMoney } from '@cinema/contract/constants';
import { formatDateTime } from '../../lib/format';
import { seatWithType } from '../../lib/seat-text';

const lineStatus: Record<Order['lines'][number]['status'], string | null> = {
  pending: 'not paid yet',
  confirmed: null,
  refunded: 'refunded',
  released: 'released',
};

const refundStatus = (status: string) => (status === 'succeeded' ? '' : ` (${status})`);

/**
 * An order as the customer reads it: each seat with its ticket type and price, the discount, the total, and each
 * refund as a line of its own (never a silent change). `showShowtime`: name each line's movie and start.
 */
export function OrderSummary({ order, showShowtime = true }: { order: Order; showShowtime?: boolean }) {
  const money = (cents: number) => formatMoney(cents, { currency: order.currency });
  return (
    <table className="w-full text-left text-sm tabular-nums">
      <caption className="sr-only">Order {order.ref}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Seat</th>
          <th scope="col">Ticket type</th>
          <th scope="col">Price</th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line, i) => {
          const status = lineStatus[line.status];
          return (
            <tr key={line.bookingId ?? i} className="border-b border-line/60">
              <th scope="row" className="py-1.5 pr-3 font-normal">
                <span className="font-semibold text-white">{seatWithType(line.seat)}</span>
                {showShowtime && (
                  <span className="block text-xs text-slate-300">
                    {line.movie} · <time dateTime={line.startsAt}>{formatDateTime(line.startsAt)}</time>
                  </span>
                )}
              </th>
              <td className="py-1.5 pr-3 text-slate-200">
                {line.ticketType}
                {status && <span className="text-muted"> · {status}</span>}
              </td>
              <td className="py-1.5 text-right">
                {line.discountCents > 0 && (
                  <s className="mr-1 text-xs text-muted" aria-label={`was ${money(line.listPriceCents)}`}>
                    {money(line.listPriceCents)}
                  </s>
                )}
                {money(line.priceCents)}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        {order.discountCents > 0 && (
          <tr>
            <th scope="row" colSpan={2} className="pt-2 pr-3 text-right font-normal text-slate-300">
              Discount{order.promoCode ? ` (${order.promoCode})` : ''}
            </th>
            <td className="pt-2 text-right">−{money(order.discountCents)}</td>
          </tr>
        )}
        <tr>
          <th scope="row" colSpan={2} className="pt-2 pr-3 text-right font-semibold text-white">
            Total
          </th>
          <td className="pt-2 text-right font-semibold text-gold">{money(order.totalCents)}</td>
        </tr>
        {order.refunds.map((r, i) => (
          <tr key={i}>
            <th scope="row" colSpan={2} className="pt-1 pr-3 text-right font-normal text-slate-300">
              Refund <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
              {refundStatus(r.status)}
            </th>
            <td className="pt-1 text-right">−{money(r.amountCents)}</td>
          </tr>
        ))}
      </tfoot>
    </table>
  );
}
