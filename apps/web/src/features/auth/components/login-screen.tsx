import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ApiError, errorText } from '../../../lib/api-client';
import { useLogin } from '../api/login';
import { AuthCard } from './auth-card';
import { TextField } from '../../../components/ui/text-field';

function loginError(err: unknown): string {
  if (err instanceof ApiError && err.status === 0) return 'Network error — check the server';
  return errorText(err, 'Invalid credentials');
}

/** /login: email and password; on success the visitor guard sends the user back where they came from. */
export function LoginScreen() {
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useLogin();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signIn.mutate({ email: email.trim(), password });
  };

  return (
    <AuthCard title="Sign in" lead="Welcome back. Sign in to pick your seats and see your tickets.">
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-label="Sign in">
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onValueChange={setEmail}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="underline">
            Forgot password?
          </Link>
        </p>
        {signIn.isError && (
          <p className="error" role="alert">
            {loginError(signIn.error)}
          </p>
        )}
        <button type="submit" className="btn-primary w-full" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="muted mt-6 text-center text-sm">
        New here? {/* Keeps the remembered destination, so registering also leads back to it. */}
        <Link to="/register" state={location.state} className="font-semibold underline">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
