import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { QueryStatus } from '../../../components/ui/query-status';
import { useStaffOrders } from '../api/box-office';
import { orderStatusText, paidByText } from '../lib/order-text';
import { BoxOfficeNav } from './box-office-nav';

/** /admin/orders: find an order by its reference or the customer's email; the newest first. */
export function OrdersScreen() {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  const orders = useStaffOrders(q, page);
  const heading = usePageHeading(t('orders.title'));

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {});
  }

  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="page-title">
        {t('orders.title')}
      </h1>
      <BoxOfficeNav />
      <form role="search" onSubmit={onSubmit} className="mb-4 flex max-w-xl gap-2">
        <label className="field grow">
          <span className="field-label">{t('orders.query')}</span>
          <input
            className="input"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('orders.queryPlaceholder')}
          />
        </label>
        <button type="submit" className="btn-secondary self-end">
          {t('orders.find')}
        </button>
      </form>
      <QueryStatus query={orders} failure={t('orders.loadFailed')} />
      {orders.data && orders.data.orders.length === 0 && (
        <p className="card" role="status">
          {q ? t('orders.noMatch', { q }) : t('orders.empty')}
        </p>
      )}
      {orders.data && orders.data.orders.length > 0 && (
        <ul className="space-y-2" aria-label={q ? t('orders.matching', { q }) : t('orders.newest')}>
          {orders.data.orders.map((o) => (
            <li key={o.ref} className="card flex flex-wrap items-center gap-x-4 gap-y-1 p-4">
              <Link to={`/admin/orders/${o.ref}`} className="font-mono text-lg font-semibold">
                {o.ref}
              </Link>
              <span>{o.customer.email ?? o.customer.name ?? t('orders.walkIn')}</span>
              <span className="text-muted">{formatDateTime(o.paidAt ?? o.createdAt)}</span>
              <span className="text-muted">{paidByText(o)}</span>
              <span className="ml-auto font-semibold">{formatMoney(o.totalCents)}</span>
              <span className={o.status === 'paid' ? 'text-emerald-300' : 'text-amber-200'}>
                {orderStatusText(o.status)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <nav aria-label={t('common.pages')} className="mt-4 flex gap-3">
        {page > 1 && (
          <Link to={`?${new URLSearchParams({ ...(q && { q }), page: String(page - 1) })}`}>
            {t('orders.newer')}
          </Link>
        )}
        {orders.data?.nextPage && (
          <Link to={`?${new URLSearchParams({ ...(q && { q }), page: String(orders.data.nextPage) })}`}>
            {t('orders.older')}
          </Link>
        )}
      </nav>
    </section>
  );
}
