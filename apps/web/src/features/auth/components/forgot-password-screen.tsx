import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../../lib/api-client';
import { useSubmit } from '../../../lib/use-submit';
import { TextField } from '../../../components/ui/text-field';
import { FormMessages } from '../../../components/ui/form-messages';
import { requestPasswordReset } from '../api/password-reset';
import { AuthCard } from './auth-card';

/** /forgot-password: asks for a reset link; says the same whether or not an account uses the email. */
export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useSubmit(requestPasswordReset, () => setSentTo(email.trim()));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send.mutate({ email: email.trim() });
  };

  return (
    <AuthCard
      title="Forgot password?"
      lead="Enter the email of your account and we will send you a link to choose a new password."
    >
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-label="Reset password">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onValueChange={setEmail}
        />
        <FormMessages
          error={send.isError ? errorText(send.error, 'Could not send the link. Try again.') : null}
          notice={
            sentTo
              ? `If an account uses ${sentTo}, we have sent it a link to reset the password. The link works once, for one hour.`
              : null
          }
        />
        <button type="submit" className="btn-primary w-full" disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
      <p className="muted mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
