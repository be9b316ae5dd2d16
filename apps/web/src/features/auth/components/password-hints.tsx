import { PASSWORD_MIN_LENGTH, PASSWORD_RULES } from '@cinema/contract/constants';
import { useTranslation } from '../../../lib/i18n';

// The rules in PASSWORD_RULES' order: the length, then one character of each kind.
const RULE_KEYS = ['length', 'upper', 'lower', 'number', 'symbol'] as const;

/** The password policy as a checklist; each rule ticks as the typed password meets it. */
export function PasswordHints({ id, password }: { id: string; password: string }) {
  const { t } = useTranslation('common');
  return (
    <ul id={id} className="grid gap-1 text-sm sm:grid-cols-2" aria-label={t('auth.rules.label')}>
      {PASSWORD_RULES.map((rule, i) => {
        const met = rule.test(password);
        return (
          <li
            key={rule.hint}
            data-met={met}
            className={`flex items-center gap-2 ${met ? 'text-emerald-300' : 'text-muted'}`}
          >
            <span
              aria-hidden
              className={`grid h-4 w-4 place-items-center rounded-full text-[10px] font-bold ${
                met ? 'bg-emerald-400 text-ink' : 'border border-line'
              }`}
            >
              {met ? '✓' : ''}
            </span>
            {t(`auth.rules.${RULE_KEYS[i] ?? 'length'}`, { min: PASSWORD_MIN_LENGTH })}
            <span className="sr-only">{met ? t('auth.rules.done') : t('auth.rules.missing')}</span>
          </li>
        );
      })}
    </ul>
  );
}
