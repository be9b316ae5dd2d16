import {
  ACCESSIBLE_ATTRIBUTES,
  AUDIENCE_ATTRIBUTES,
  SHOWTIME_FORMATS,
  SHOWTIME_LANGUAGES,
  SUBTITLES_PREFIX,
} from '@cinema/contract/constants';
import { useId } from 'react';
import { attributeText, languageName } from '../../../components/ui/attribute-badges';
import { useTranslation } from '../../../lib/i18n';

const GROUPS = [
  ['format', SHOWTIME_FORMATS],
  ['language', SHOWTIME_LANGUAGES],
  ['accessibility', ACCESSIBLE_ATTRIBUTES],
  ['audience', AUDIENCE_ATTRIBUTES],
] as const;

/** Languages a showtime is most often subtitled in (ISO 639-1); the list a cinema picks from. */
const SUBTITLE_LANGUAGES = [
  'en',
  'es',
  'de',
  'fr',
  'it',
  'pt',
  'nl',
  'pl',
  'tr',
  'ar',
  'zh',
  'ja',
  'ko',
  'hi',
];

/** A showtime's attributes as staff choose them: format, language and subtitles, accessibility, audience. */
export function AttributesField({
  value,
  onChange,
}: {
  value: string[];
  onChange: (next: string[]) => void;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const subtitles = value.find((a) => a.startsWith(SUBTITLES_PREFIX));
  const toggle = (attribute: string, on: boolean) =>
    onChange(on ? [...value, attribute] : value.filter((a) => a !== attribute));
  return (
    <fieldset className="space-y-3">
      <legend className="field-label">{t('attributes.legend')}</legend>
      {GROUPS.map(([group, attributes]) => (
        <div
          key={group}
          role="group"
          aria-labelledby={`${id}-${group}`}
          className="flex flex-wrap gap-x-4 gap-y-2"
        >
          <span id={`${id}-${group}`} className="w-full text-xs text-muted">
            {t(`attributes.${group}`)}
          </span>
          {attributes.map((a) => (
            <label key={a} className="flex min-h-11 items-center gap-2 text-sm text-slate-100">
              <input
                type="checkbox"
                name="attributes"
                value={a}
                checked={value.includes(a)}
                onChange={(e) => toggle(a, e.target.checked)}
              />
              {attributeText(a)}
            </label>
          ))}
        </div>
      ))}
      <label className="field max-w-xs">
        <span className="field-label">{t('attributes.subtitles')}</span>
        <select
          className="input"
          name="subtitles"
          value={subtitles ?? ''}
          onChange={(e) =>
            onChange([
              ...value.filter((a) => !a.startsWith(SUBTITLES_PREFIX)),
              ...(e.target.value ? [e.target.value] : []),
            ])
          }
        >
          <option value="">{t('attributes.noSubtitles')}</option>
          {SUBTITLE_LANGUAGES.map((code) => (
            <option key={code} value={`${SUBTITLES_PREFIX}${code.toUpperCase()}`}>
              {languageName(code)}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
