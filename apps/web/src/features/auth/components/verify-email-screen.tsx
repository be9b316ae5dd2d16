import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import type { VerifyEmailResponse } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { getUser, updateSessionUser, useSession } from '../../../lib/session';
import { verifyEmail } from '../api/verify-email';
import { AuthCard } from './auth-card';
import { ResendVerificationButton } from './verify-email-banner';

// One request per token, however often the screen mounts (React's development double effects, a re-render): the
// link works once, and a second request would answer "used".
const requests = new Map<string, Promise<VerifyEmailResponse>>();
const verifyOnce = (token: string) => {
  let request = requests.get(token);
  if (!request) {
    request = verifyEmail({ token });
    requests.set(token, request);
  }
  return request;
};

/** /verify-email?token=…: the emailed link; opening it verifies the address (signed in or not, any device). */
export function VerifyEmailScreen() {
  const { t } = useTranslation('common');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user } = useSession();
  const [state, setState] = useState<
    { kind: 'checking' } | { kind: 'done'; result: VerifyEmailResponse } | { kind: 'failed'; error: unknown }
  >({ kind: 'checking' });

  useEffect(() => {
    if (!token) return;
    let live = true;
    verifyOnce(token).then(
      (result) => {
        const signedIn = getUser();
        if (signedIn && signedIn.email === result.email)
          updateSessionUser({ ...signedIn, emailVerified: true });
        if (live) setState({ kind: 'done', result });
      },
      (error: unknown) => live && setState({ kind: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (!token) {
    return (
      <AuthCard title={t('verify.title')} lead={t('verify.lead')}>
        <p className="error" role="alert">
          {t('verify.incomplete')}
        </p>
      </AuthCard>
    );
  }
  if (state.kind === 'done') {
    const { email, claimedOrders } = state.result;
    return (
      <AuthCard title={t('verify.doneTitle')} lead={t('verify.doneLead', { email })}>
        {claimedOrders > 0 && <p className="mb-4">{t('verify.claimed', { count: claimedOrders })}</p>}
        {user ? (
          <Link to="/tickets" className="btn-primary w-full">
            {t('verify.seeTickets')}
          </Link>
        ) : (
          <Link to="/login" className="btn-primary w-full">
            {t('auth.login.submit')}
          </Link>
        )}
      </AuthCard>
    );
  }
  if (state.kind === 'failed') {
    const deadLink = state.error instanceof ApiError && state.error.code === 'invalid_verification_link';
    return (
      <AuthCard title={t('verify.title')} lead={t('verify.lead')}>
        <p className="error mb-4" role="alert">
          {deadLink ? t('verify.failed') : errorText(state.error, t('verify.failed'))}
        </p>
        {user ? (
          user.emailVerified === false && <ResendVerificationButton />
        ) : (
          <p className="text-sm">
            <Link to="/login" className="font-semibold underline">
              {t('verify.signInToResend')}
            </Link>
          </p>
        )}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('verify.title')} lead={t('verify.lead')}>
      <p role="status">{t('verify.checking')}</p>
    </AuthCard>
  );
}
