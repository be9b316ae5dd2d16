import { useTranslation } from '../../lib/i18n';
/** What a screen shows while its code loads: said politely to screen readers, shown only after a short pause. */
export function PageLoading({ what = 'page' }: { what?: 'page' | 'scanner' }) {
  const { t } = useTranslation('common');
  return (
    <p className="muted animate-appear" role="status">
      {t(`ui.loading.${what}`)}
    </p>
  );
}
