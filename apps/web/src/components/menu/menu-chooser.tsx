import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Menu, Product, ProductOrder } from '@cinema/contract';
import { api } from '../../lib/api-client';
import { useFormatMoney } from '../../lib/format';
import { useTranslation } from '../../lib/i18n';
import { ModalDialog } from '../ui/modal-dialog';
import { QueryStatus } from '../ui/query-status';

/** GET /api/menu: the active menu with what is left. */
export const useMenu = () =>
  useQuery({
    queryKey: ['menu'],
    queryFn: ({ signal }) => api<Menu>('/menu', { signal }),
    staleTime: 15_000,
  });

/** "Popcorn (Large, Sweet)": an item chosen, in words. */
export function itemText(product: Product, options: readonly string[]): string {
  const names = product.options.flatMap((g) =>
    g.choices.filter((c) => options.includes(c.id)).map((c) => c.name),
  );
  return names.length > 0 ? `${product.name} (${names.join(', ')})` : product.name;
}

/** One product: its options (a radio group each), how many, and Add. */
function ProductChoice({
  product,
  onAdd,
}: {
  product: Product;
  onAdd: (item: ProductOrder, text: string) => void;
}) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const id = useId();
  const [chosen, setChosen] = useState<Record<string, string>>(() =>
    Object.fromEntries(product.options.filter((g) => g.required).map((g) => [g.id, g.choices[0]?.id ?? ''])),
  );
  const [quantity, setQuantity] = useState(1);
  const options = Object.values(chosen).filter(Boolean);
  const unit =
    product.priceCents +
    product.options.reduce(
      (sum, g) => sum + (g.choices.find((c) => c.id === chosen[g.id])?.priceDeltaCents ?? 0),
      0,
    );
  return (
    <li className="flex flex-col gap-2 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 id={`${id}-name`} className="font-semibold text-white">
          {product.name}
          {product.ageRestricted && (
            <span className="ml-2 rounded border border-amber-300 px-1.5 text-xs text-amber-200">
              {t('concessions.adultsOnly')}
            </span>
          )}
        </h4>
        <span className="tabular-nums">{formatMoney(product.priceCents)}</span>
      </div>
      {product.description && <p className="text-sm text-slate-300">{product.description}</p>}
      {product.components && (
        <p className="text-sm text-slate-300">
          {product.components.map((c) => (c.quantity > 1 ? `${c.quantity} × ${c.name}` : c.name)).join(', ')}
        </p>
      )}
      {product.soldOut ? (
        <p className="text-sm font-semibold text-amber-300">{t('concessions.soldOut')}</p>
      ) : (
        <>
          {product.lowStock && (
            <p className="text-sm text-amber-300">
              {t('concessions.onlyLeft', { count: product.stock ?? 0 })}
            </p>
          )}
          {product.options.map((g) => (
            <fieldset key={g.id} className="flex flex-wrap gap-x-4 gap-y-1">
              <legend className="mb-1 text-sm text-slate-200">
                {g.required ? g.name : t('concessions.optional', { name: g.name })}
              </legend>
              {!g.required && (
                <label className="flex min-h-8 items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-${g.id}`}
                    checked={!chosen[g.id]}
                    onChange={() => setChosen((c) => ({ ...c, [g.id]: '' }))}
                  />
                  {t('concessions.none')}
                </label>
              )}
              {g.choices.map((c) => (
                <label key={c.id} className="flex min-h-8 items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-${g.id}`}
                    checked={chosen[g.id] === c.id}
                    onChange={() => setChosen((all) => ({ ...all, [g.id]: c.id }))}
                  />
                  {c.priceDeltaCents > 0 ? `${c.name} (+${formatMoney(c.priceDeltaCents)})` : c.name}
                </label>
              ))}
            </fieldset>
          ))}
          <div className="flex flex-wrap items-end gap-2">
            <label className="field w-24">
              <span className="field-label">{t('concessions.quantity')}</span>
              <input
                className="input"
                type="number"
                min={1}
                max={product.stock !== null ? Math.min(50, product.stock) : 50}
                value={quantity}
                onChange={(e) => setQuantity(Math.max(1, Math.min(50, Number(e.target.value) || 1)))}
              />
            </label>
            <button
              type="button"
              className="btn-secondary"
              aria-describedby={`${id}-name`}
              onClick={() =>
                onAdd(
                  { productId: product.id, quantity, ...(options.length > 0 && { options }) },
                  itemText(product, options),
                )
              }
            >
              {t('concessions.addFor', { price: formatMoney(unit * quantity) })}
            </button>
          </div>
        </>
      )}
    </li>
  );
}

/** The menu by category, each item with its options and an Add button (in the basket's dialog and on /menu). */
export function MenuChooser({ onAdd }: { onAdd: (item: ProductOrder, text: string) => void }) {
  const { t } = useTranslation('common');
  const menu = useMenu();
  return (
    <div className="flex flex-col gap-4">
      <QueryStatus query={menu} failure={t('concessions.menuFailed')} />
      {menu.data?.categories.length === 0 && <p className="muted">{t('concessions.emptyMenu')}</p>}
      {menu.data?.categories.map((c) => (
        <section key={c.id} aria-labelledby={`menu-${c.id}`}>
          <h3 id={`menu-${c.id}`} className="text-base font-semibold text-gold">
            {c.name}
          </h3>
          <ul className="divide-y divide-line/60">
            {c.products.map((p) => (
              <ProductChoice key={p.id} product={p} onAdd={onAdd} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** "Add snacks": the menu in a modal dialog (focus kept inside, Escape closes), items added to the basket. */
export function SnackDialogButton({ onAdd }: { onAdd: (item: ProductOrder, text: string) => void }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const id = useId();
  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => setOpen(true)} aria-haspopup="dialog">
        {t('concessions.addSnacks')}
      </button>
      {open && (
        <ModalDialog
          labelledBy={`${id}-title`}
          onClose={() => {
            setOpen(false);
            setAdded(null);
          }}
        >
          <div className="mb-3 flex items-center justify-between gap-3">
            <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
              {t('concessions.menuTitle')}
            </h2>
            <form method="dialog">
              <button type="submit" className="btn-primary">
                {t('concessions.done')}
              </button>
            </form>
          </div>
          <p role="status" className="min-h-5 text-sm text-emerald-300">
            {added && t('concessions.added', { item: added })}
          </p>
          <MenuChooser
            onAdd={(item, text) => {
              onAdd(item, text);
              setAdded(item.quantity > 1 ? `${item.quantity} × ${text}` : text);
            }}
          />
        </ModalDialog>
      )}
    </>
  );
}
