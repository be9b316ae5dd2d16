import { PASSWORD_RULES } from '@cinema/contract/constants';

/** The password policy as a checklist; each rule ticks as the typed password meets it. */
export function PasswordHints({ id, password }: { id: string; password: string }) {
  return (
    <ul id={id} className="grid gap-1 text-sm sm:grid-cols-2" aria-label="Password requirements">
      {PASSWORD_RULES.map((rule) => {
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
            {rule.hint}
            <span className="sr-only">{met ? ' (done)' : ' (missing)'}</span>
          </li>
        );
      })}
    </ul>
  );
}
