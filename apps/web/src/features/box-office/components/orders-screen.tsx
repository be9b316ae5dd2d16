import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatMoney } from '@cinema/contract/constants';
import { formatDateTime } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { QueryStatus } from '../../../components/ui/query-status';
import { useStaffOrders } from '../api/box-office';
import { orderStatusText, paidByText } from '../lib/order-text';
import { BoxOfficeNav } from './box-office-nav';

/** /admin/orders: find an order by its reference or the customer's email; the newest first. */
export function OrdersScreen() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  const orders = useStaffOrders(q, page);
  const heading = usePageHeading('Orders');

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {});
  }

  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="page-title">
        Orders
      </h1>
      <BoxOfficeNav />
      <form role="search" onSubmit={onSubmit} className="mb-4 flex max-w-xl gap-2">
        <label className="field grow">
          <span className="field-label">Order reference or customer email</span>
          <input
            className="input"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="K7Q-4MX2 or name@example.com"
          />
        </label>
        <button type="submit" className="btn-secondary self-end">
          Find
        </button>
      </form>
      <QueryStatus query={orders} failure="Failed to load orders" />
      {orders.data && orders.data.orders.length === 0 && (
        <p className="card" role="status">
          {q ? `No order matches “${q}”.` : 'No orders yet.'}
        </p>
      )}
      {orders.data && orders.data.orders.length > 0 && (
        <ul className="space-y-2" aria-label={q ? `Orders matching ${q}` : 'Newest orders'}>
          {orders.data.orders.map((o) => (
            <li key={o.ref} className="card flex flex-wrap items-center gap-x-4 gap-y-1 p-4">
              <Link to={`/admin/orders/${o.ref}`} className="font-mono text-lg font-semibold">
                {o.ref}
              </Link>
              <span>{o.customer.email ?? o.customer.name ?? 'Walk-in customer'}</span>
              <span className="text-muted">{formatDateTime(o.paidAt ?? o.createdAt)}</span>
              <span className="text-muted">{paidByText(o)}</span>
              <span className="ml-auto font-semibold">{formatMoney(o.totalCents)}</span>
              <span className={o.status === 'paid' ? 'text-emerald-300' : 'text-amber-200'}>
                {orderStatusText[o.status]}
              </span>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className="mt-4 flex gap-3">
        {page > 1 && (
          <Link to={`?${new URLSearchParams({ ...(q && { q }), page: String(page - 1) })}`}>← Newer</Link>
        )}
        {orders.data?.nextPage && (
          <Link to={`?${new URLSearchParams({ ...(q && { q }), page: String(orders.data.nextPage) })}`}>
            Older →
          </Link>
        )}
      </nav>
    </section>
  );
}
