import { useTranslation } from '../../lib/i18n';

/** "ID check 18+": the door checks the age of a film's audience (the youngest age its certificate admits). */
export function IdCheck({ minAge, className = '' }: { minAge?: number | null; className?: string }) {
  const { t } = useTranslation('common');
  if (!minAge) return null;
  return (
    <span
      className={`inline-block rounded border-2 border-amber-300 px-2 py-0.5 font-bold text-amber-200 ${className}`}
      data-id-check={minAge}
    >
      {t('idCheck', { age: minAge })}
    </span>
  );
}
