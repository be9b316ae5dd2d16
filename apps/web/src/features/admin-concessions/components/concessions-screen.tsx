import { useState } from 'react';
import { Link } from 'react-router';
import type { Product } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { CheckIdBadge, ItemBadge } from '../../../components/ui/item-badges';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useAdminMenu, useChangeStock, useDeleteProduct } from '../api/menu';
import { ProductForm } from './product-form';

/** A product's stock: what is left, a delivery added, or not counted. */
function StockControl({
  product,
  onNotice,
}: {
  product: Product;
  onNotice: (text: string | null, error?: string) => void;
}) {
  const { t } = useTranslation('admin');
  const change = useChangeStock();
  const [add, setAdd] = useState('');
  if (product.components) {
    return (
      <p className="text-sm text-slate-300">
        {product.stock === null
          ? t('concessions.notCounted')
          : t('concessions.comboLeft', { count: product.stock })}
      </p>
    );
  }
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(add);
        if (!Number.isInteger(n) || n === 0) return;
        change.mutate(
          product.stock === null ? { id: product.id, stock: Math.max(0, n) } : { id: product.id, add: n },
          {
            onSuccess: (saved) => {
              setAdd('');
              onNotice(t('concessions.stockNow', { name: saved.name, count: saved.stock ?? 0 }));
            },
            onError: (err) => onNotice(null, errorText(err, t('concessions.saveFailed'))),
          },
        );
      }}
    >
      <p className="min-w-24 text-sm text-slate-200">
        {product.stock === null
          ? t('concessions.notCounted')
          : t('concessions.left', { count: product.stock })}
      </p>
      <label className="field w-28">
        <span className="field-label">
          {product.stock === null ? t('concessions.startCount') : t('concessions.delivery')}
        </span>
        <input
          className="input"
          type="number"
          value={add}
          onChange={(e) => setAdd(e.target.value)}
          aria-label={
            product.stock === null
              ? t('concessions.startCountOf', { name: product.name })
              : t('concessions.deliveryOf', { name: product.name })
          }
        />
      </label>
      <button type="submit" className="btn-secondary" disabled={change.isPending || add.trim() === ''}>
        {t('concessions.updateStock')}
      </button>
    </form>
  );
}

/** /admin/concessions: the menu (DESIGN §7.2): categories, products with options, combos, stock. */
export function ConcessionsScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('concessions.title'));
  const menu = useAdminMenu();
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const products = menu.data?.products ?? [];
  const edited = products.find((p) => p.id === editing);
  const tell = (text: string | null, err?: string) => {
    setNotice(text);
    setError(err ?? null);
  };

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('concessions.title')}
        </h1>
        <span className="flex gap-4 text-sm">
          <Link to="/admin/kitchen" reloadDocument>
            {t('dashboard.links.kitchen')}
          </Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </span>
      </div>
      <QueryStatus query={menu} failure={t('concessions.loadFailed')} />
      <FormMessages error={error} notice={notice} />
      {menu.data?.categories.map((category) => {
        const own = products.filter((p) => p.categoryId === category.id);
        if (own.length === 0) return null;
        return (
          <section key={category.id} className="card space-y-2" aria-labelledby={`cat-${category.id}`}>
            <h2 id={`cat-${category.id}`} className="text-lg font-semibold text-white">
              {category.name}
            </h2>
            <ul className="divide-y divide-line/60" aria-label={category.name}>
              {own.map((p) => (
                <li key={p.id} className="flex flex-col gap-2 py-3">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="font-semibold text-white">
                        {p.name} · {formatMoney(p.priceCents)}
                        {!p.active && <ItemBadge>{t('concessions.inactive')}</ItemBadge>}
                        {p.ageRestricted && <CheckIdBadge />}
                        {p.soldOut && <ItemBadge>{t('concessions.soldOut')}</ItemBadge>}
                      </p>
                      {p.options.length > 0 && (
                        <p className="text-sm text-slate-300">
                          {p.options
                            .map(
                              (g) =>
                                `${g.name}${g.required ? '*' : ''}: ${g.choices
                                  .map((c) =>
                                    c.priceDeltaCents
                                      ? `${c.name} +${formatMoney(c.priceDeltaCents)}`
                                      : c.name,
                                  )
                                  .join(', ')}`,
                            )
                            .join(' · ')}
                        </p>
                      )}
                      {p.components && (
                        <p className="text-sm text-slate-300">
                          {p.components.map((c) => `${c.quantity} × ${c.name}`).join(', ')}
                        </p>
                      )}
                    </div>
                    <span className="flex gap-2">
                      <button
                        type="button"
                        className="btn-secondary"
                        onClick={() => {
                          tell(null);
                          setEditing(p.id);
                        }}
                      >
                        {t('concessions.edit', { name: p.name })}
                      </button>
                      <button
                        type="button"
                        className="btn-danger"
                        disabled={remove.isPending}
                        onClick={() => {
                          if (!window.confirm(t('concessions.confirmDelete', { name: p.name }))) return;
                          remove.mutate(p.id, {
                            onSuccess: () => tell(t('concessions.deleted', { name: p.name })),
                            onError: (err) => tell(null, errorText(err, t('concessions.deleteFailed'))),
                          });
                        }}
                      >
                        {t('concessions.delete', { name: p.name })}
                      </button>
                    </span>
                  </div>
                  <StockControl product={p} onNotice={tell} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      {menu.data && (
        <ProductForm
          key={edited ? `edit-${edited.id}` : `new-${notice ?? ''}`}
          product={edited}
          products={products}
          categories={menu.data.categories.map((c) => c.name)}
          onDone={(text) => {
            setEditing(null);
            tell(text || null);
          }}
        />
      )}
    </section>
  );
}
