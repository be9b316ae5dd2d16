import { useTranslation } from 'react-i18next';
import { currentLanguage, LANGUAGES, switchLanguage, type Language } from '../../lib/i18n';

/** The header's language choice: each language named in its own language, remembered for the next visit. */
export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const { t } = useTranslation('common');
  return (
    <label className={`inline-flex items-center gap-1 text-sm text-slate-300 ${className}`}>
      <span className="sr-only">{t('layout.language')}</span>
      <span aria-hidden>🌐</span>
      <select
        value={currentLanguage()}
        onChange={(event) => void switchLanguage(event.target.value as Language)}
        className="cursor-pointer rounded-md border border-line bg-panel px-2 py-1 text-sm text-slate-200"
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
