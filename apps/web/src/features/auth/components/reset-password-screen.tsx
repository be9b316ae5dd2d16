import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { ApiError, errorText } from '../../../lib/api-client';
import { clearSession } from '../../../lib/session';
import { useSubmit } from '../../../lib/use-submit';
import { TextField } from '../../../components/ui/text-field';
import { FormMessages } from '../../../components/ui/form-messages';
import { resetPassword } from '../api/password-reset';
import { AuthCard } from './auth-card';
import { PasswordHints } from './password-hints';

/** /reset-password?token=…: the emailed link; a new password ends every session of the account, this one too. */
export function ResetPasswordScreen() {
  const { t } = useTranslation('common');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const hintsId = useId();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const reset = useSubmit(resetPassword, () => {
    clearSession();
    setDone(true);
  });
  const deadLink = reset.error instanceof ApiError && reset.error.code === 'invalid_reset_link';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void reset.mutate({ token, newPassword: password });
  };

  if (done) {
    return (
      <AuthCard title={t('auth.reset.doneTitle')} lead={t('auth.reset.doneLead')}>
        <Link to="/login" className="btn-primary w-full">
          {t('auth.login.submit')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.reset.title')} lead={t('auth.reset.lead')}>
      {!token ? (
        <p className="error" role="alert">
          {t('auth.reset.incomplete')}
        </p>
      ) : (
        <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-label={t('auth.reset.form')}>
          <TextField
            label={t('auth.newPassword')}
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            value={password}
            onValueChange={setPassword}
            aria-describedby={hintsId}
          />
          <PasswordHints id={hintsId} password={password} />
          <FormMessages error={reset.isError ? errorText(reset.error, t('auth.reset.failed')) : null} />
          <button type="submit" className="btn-primary w-full" disabled={reset.isPending || !password}>
            {reset.isPending ? t('common.saving') : t('auth.reset.submit')}
          </button>
        </form>
      )}
      {(deadLink || !token) && (
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="font-semibold underline">
            {t('auth.reset.askAgain')}
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
