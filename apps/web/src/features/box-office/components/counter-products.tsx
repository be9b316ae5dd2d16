import type { Menu, ProductOrder } from '@cinema/contract';
import { SnackDialogButton, useMenu } from '../../../components/menu/menu-chooser';
import { CheckIdBadge } from '../../../components/ui/item-badges';
import { formatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';

/** An item in the counter's basket: what the server is asked for, and how the basket shows it. */
export interface CounterItem {
  item: ProductOrder;
  text: string;
  /** The menu's price for one (the server prices the sale). */
  unitCents: number;
  ageRestricted: boolean;
}

/** What the basket's items come to at the menu's prices. */
export const itemsTotal = (items: readonly CounterItem[]) =>
  items.reduce((sum, i) => sum + i.unitCents * i.item.quantity, 0);

/** An item chosen from the menu, with its price and whether staff must check ID. */
function counterItem(menu: Menu | undefined, item: ProductOrder, text: string): CounterItem {
  const product = menu?.categories.flatMap((c) => c.products).find((p) => p.id === item.productId);
  const deltas = (product?.options ?? [])
    .flatMap((g) => g.choices)
    .filter((c) => item.options?.includes(c.id))
    .reduce((sum, c) => sum + c.priceDeltaCents, 0);
  return {
    item,
    text,
    unitCents: Math.max(0, (product?.priceCents ?? 0) + deltas),
    ageRestricted: product?.ageRestricted ?? false,
  };
}

/**
 * Food and drink at the counter (DESIGN §7.2): the menu in a dialog, each item in the basket with its price and
 * "Check ID" for an age-restricted one (staff check it before they hand it over, with the sale), and Remove.
 */
export function CounterProducts({
  items,
  onChange,
}: {
  items: CounterItem[];
  onChange: (items: CounterItem[]) => void;
}) {
  const { t } = useTranslation('admin');
  const menu = useMenu();
  return (
    <section className="space-y-2" aria-labelledby="counter-items">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="counter-items" className="text-lg font-semibold text-white">
          {items.length === 0 ? t('counterItems.title') : t('counterItems.count', { count: items.length })}
        </h3>
        <SnackDialogButton onAdd={(item, text) => onChange([...items, counterItem(menu.data, item, text)])} />
      </div>
      {items.length > 0 && (
        <ul className="space-y-2" aria-label={t('counterItems.title')}>
          {items.map((i, n) => (
            <li key={n} className="flex flex-wrap items-center gap-2">
              <span className="font-semibold text-white">
                {i.item.quantity > 1 ? `${i.item.quantity} × ${i.text}` : i.text}
              </span>
              {i.ageRestricted && <CheckIdBadge />}
              <span className="ml-auto tabular-nums">{formatMoney(i.unitCents * i.item.quantity)}</span>
              <button
                type="button"
                className="btn-secondary px-3 py-1"
                onClick={() => onChange(items.filter((_, k) => k !== n))}
              >
                {t('counterItems.remove', { item: i.text })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {items.some((i) => i.ageRestricted) && (
        <p className="text-sm font-semibold text-amber-200">{t('counterItems.checkId')}</p>
      )}
    </section>
  );
}
