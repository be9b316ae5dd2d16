import { useTranslation } from '../../lib/i18n';
/**
 * The cinema screen at the front of a seat map, as wide as the hall's seats so that its mark shows the hall's
 * centre; said in words before the first row.
 */
export function ScreenBar({ firstRow }: { firstRow: string | undefined }) {
  const { t } = useTranslation('common');
  return (
    <>
      <div aria-hidden className="relative w-full" data-testid="screen">
        <div className="h-2 rounded-t-full bg-gradient-to-b from-slate-200 to-slate-500 shadow-[0_8px_24px_rgba(226,232,240,0.25)]" />
        <span className="absolute top-0 left-1/2 h-3.5 w-0.5 -translate-x-1/2 rounded-full bg-gold" />
        <p className="mt-1.5 text-center text-xs tracking-[0.3em] text-muted uppercase">{t('seat.screen')}</p>
      </div>
      <p className="sr-only">{t('seat.screenAt', { row: firstRow ?? 'A' })}</p>
    </>
  );
}
