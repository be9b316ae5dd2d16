import { useTranslation } from '../../lib/i18n';

const look = 'ml-2 inline-block rounded px-1.5 py-px text-xs leading-tight font-semibold';

/** "Check ID": an age-restricted item (alcohol), wherever staff see it (DESIGN §7.2). */
export function CheckIdBadge() {
  const { t } = useTranslation('common');
  return <span className={`${look} bg-amber-300 text-slate-950`}>{t('concessions.checkId')}</span>;
}

/** A plain badge beside an item's name: "Sold out", "Only 3 left", "Inactive". */
export function ItemBadge({ children }: { children: string }) {
  return <span className={`${look} border border-slate-400 text-slate-100`}>{children}</span>;
}
