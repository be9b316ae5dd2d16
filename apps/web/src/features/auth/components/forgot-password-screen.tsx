import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { useSubmit } from '../../../lib/use-submit';
import { TextField } from '../../../components/ui/text-field';
import { FormMessages } from '../../../components/ui/form-messages';
import { requestPasswordReset } from '../api/password-reset';
import { AuthCard } from './auth-card';

/** /forgot-password: asks for a reset link; says the same whether or not an account uses the email. */
export function ForgotPasswordScreen() {
  const { t } = useTranslation('common');
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useSubmit(requestPasswordReset, () => setSentTo(email.trim()));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send.mutate({ email: email.trim() });
  };

  return (
    <AuthCard title={t('auth.forgot.title')} lead={t('auth.forgot.lead')}>
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-label={t('auth.forgot.form')}>
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onValueChange={setEmail}
        />
        <FormMessages
          error={send.isError ? errorText(send.error, t('auth.forgot.failed')) : null}
          notice={sentTo ? t('auth.forgot.sent', { email: sentTo }) : null}
        />
        <button type="submit" className="btn-primary w-full" disabled={send.isPending}>
          {send.isPending ? t('auth.forgot.sending') : t('auth.forgot.submit')}
        </button>
      </form>
      <p className="muted mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold underline">
          {t('auth.backToSignIn')}
        </Link>
      </p>
    </AuthCard>
  );
}
