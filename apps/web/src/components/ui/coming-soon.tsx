import { useTranslation } from '../../lib/i18n';
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation('common');
  return (
    <section className="card">
      <h1 className="page-title">{title}</h1>
      <p className="muted">{t('ui.comingSoon')}</p>
    </section>
  );
}
