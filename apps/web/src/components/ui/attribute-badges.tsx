import { SUBTITLES_PREFIX } from '@cinema/contract/constants';
import { currentLanguage, i18n, useTranslation } from '../../lib/i18n';

/** A language by its ISO 639-1 code, in the viewer's language ("German", "Deutsch"); its letters when unknown. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([currentLanguage()], { type: 'language' }).of(code) ?? code.toUpperCase();
  } catch {
    return code.toUpperCase();
  }
}

/** One attribute as its badge reads: "IMAX", "Captioned", "Subtitles: English" (in the viewer's language). */
export function attributeText(attribute: string): string {
  if (attribute.startsWith(SUBTITLES_PREFIX)) {
    const language = languageName(attribute.slice(SUBTITLES_PREFIX.length).toLowerCase());
    return i18n.t('common:attributes.SUBTITLES', { language });
  }
  return i18n.t(`common:attributes.${attribute}`, { defaultValue: attribute });
}

/**
 * A showtime's attributes as badges (format, language, accessibility, audience); nothing without any. `inline` for
 * inside a link or button: spans that become part of its name ("…, IMAX, Captioned"), where a list would not.
 */
export function AttributeBadges({
  attributes,
  className = '',
  inline = false,
}: {
  attributes?: readonly string[];
  className?: string;
  inline?: boolean;
}) {
  const { t } = useTranslation('common');
  if (!attributes?.length) return null;
  const look =
    'rounded border border-slate-400 px-1.5 py-px text-xs leading-tight font-semibold text-slate-100';
  if (inline) {
    return (
      <span className={`flex flex-wrap gap-1 ${className}`} data-attributes={attributes.join(',')}>
        {attributes.map((a) => (
          <span key={a} data-attribute={a} className={look}>
            <span className="sr-only">, </span>
            {attributeText(a)}
          </span>
        ))}
      </span>
    );
  }
  return (
    <ul className={`flex flex-wrap gap-1 ${className}`} aria-label={t('attributes.label')}>
      {attributes.map((a) => (
        <li key={a} data-attribute={a} className={look}>
          {attributeText(a)}
        </li>
      ))}
    </ul>
  );
}
