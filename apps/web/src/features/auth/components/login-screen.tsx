import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { i18n } from '../../../lib/i18n';
import { ApiError, errorText } from '../../../lib/api-client';
import { useLogin } from '../api/login';
import { AuthCard } from './auth-card';
import { TextField } from '../../../components/ui/text-field';

function loginError(err: unknown): string {
  if (err instanceof ApiError && err.status === 0) return i18n.t('common:errors.network');
  return errorText(err, i18n.t('common:auth.login.invalid'));
}

/** /login: email and password; on success the visitor guard sends the user back where they came from. */
export function LoginScreen() {
  const { t } = useTranslation('common');
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useLogin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signIn.mutate({ email: email.trim(), password });
  };

  return (
    <AuthCard title={t('auth.login.title')} lead={t('auth.login.lead')}>
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-label={t('auth.login.title')}>
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onValueChange={setEmail}
        />
        <TextField
          label={t('auth.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="underline">
            {t('auth.forgot.title')}
          </Link>
        </p>
        {signIn.isError && (
          <p className="error" role="alert">
            {loginError(signIn.error)}
          </p>
        )}
        <button type="submit" className="btn-primary w-full" disabled={signIn.isPending}>
          {signIn.isPending ? t('auth.login.pending') : t('auth.login.submit')}
        </button>
      </form>
      <p className="muted mt-6 text-center text-sm">
        {t('auth.login.newHere')}{' '}
        {/* Keeps the remembered destination, so registering also leads back to it. */}
        <Link to="/register" state={location.state} className="font-semibold underline">
          {t('auth.login.createAccount')}
        </Link>
      </p>
    </AuthCard>
  );
}
