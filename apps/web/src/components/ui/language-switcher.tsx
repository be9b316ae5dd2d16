import { useTranslation } from '../../lib/i18n';
import { currentLanguage, LANGUAGES, switchLanguage, type Language } from '../../lib/i18n';

/** The header's language choice: each language named in its own language, remembered for the next visit. */
export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const { t } = useTranslation('common');
  return (
    <label className={`inline-flex items-center gap-1 text-sm text-slate-300 ${className}`}>
      <span className="sr-only">{t('layout.language')}</span>
      <svg
        aria-hidden
        viewBox="0 0 24 24"
        className="h-4 w-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
      </svg>
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
