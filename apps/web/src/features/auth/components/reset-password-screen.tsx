import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
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
      <AuthCard
        title="Password changed"
        lead="You are signed out everywhere. Sign in with your new password."
      >
        <Link to="/login" className="btn-primary w-full">
          Sign in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" lead="This link works once, for one hour after it was sent.">
      {!token ? (
        <p className="error" role="alert">
          This link is incomplete. Copy the whole link from the email, or ask for a new one.
        </p>
      ) : (
        <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-label="Set a new password">
          <TextField
            label="New password"
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            value={password}
            onValueChange={setPassword}
            aria-describedby={hintsId}
          />
          <PasswordHints id={hintsId} password={password} />
          <FormMessages
            error={reset.isError ? errorText(reset.error, 'Could not change the password.') : null}
          />
          <button type="submit" className="btn-primary w-full" disabled={reset.isPending || !password}>
            {reset.isPending ? 'Saving…' : 'Set new password'}
          </button>
        </form>
      )}
      {(deadLink || !token) && (
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="font-semibold underline">
            Ask for a new link
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
