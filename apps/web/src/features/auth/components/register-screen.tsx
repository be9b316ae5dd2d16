import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { useRegister } from '../api/register';
import { AuthCard } from './auth-card';
import { PasswordHints } from './password-hints';
import { TextField } from '../../../components/ui/text-field';

/** /register: name, email, password with a live checklist; a new account is signed in at once. */
export function RegisterScreen() {
  const { t } = useTranslation('common');
  const location = useLocation();
  const hintsId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const createAccount = useRegister();
  const incomplete = !name.trim() || !email.trim() || !password;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (incomplete || createAccount.isPending) return;
    createAccount.mutate({ name: name.trim(), email: email.trim(), password });
  };

  return (
    <AuthCard title={t('auth.register.title')} lead={t('auth.register.lead')}>
      {/* The server checks every rule and says what is wrong; the browser's own bubbles would only duplicate it. */}
      <form
        className="flex flex-col gap-4"
        onSubmit={onSubmit}
        noValidate
        aria-label={t('auth.register.title')}
      >
        <TextField
          label={t('auth.name')}
          name="name"
          autoComplete="name"
          required
          value={name}
          onValueChange={setName}
        />
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
          autoComplete="new-password"
          required
          aria-describedby={hintsId}
          value={password}
          onValueChange={setPassword}
        />
        <PasswordHints id={hintsId} password={password} />
        {createAccount.isError && (
          <p className="error" role="alert">
            {errorText(createAccount.error, t('errors.generic'))}
          </p>
        )}
        <button type="submit" className="btn-primary w-full" disabled={incomplete || createAccount.isPending}>
          {createAccount.isPending ? t('auth.register.pending') : t('auth.register.submit')}
        </button>
      </form>
      <p className="muted mt-6 text-center text-sm">
        {t('auth.register.haveAccount')}{' '}
        <Link to="/login" state={location.state} className="font-semibold underline">
          {t('auth.login.submit')}
        </Link>
      </p>
    </AuthCard>
  );
}
