import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { resendVerification } from '../api/verify-email';

/** "Send the link again": a new verification link to the signed-in user's address. */
export function ResendVerificationButton() {
  const { t } = useTranslation('common');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const send = async () => {
    setState('sending');
    try {
      await resendVerification();
      setState('sent');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="btn-secondary"
        onClick={send}
        disabled={state === 'sending' || state === 'sent'}
      >
        {t('verify.resend')}
      </button>
      {/* aria-live rather than role=status: the banner sits on every customer page beside the screens' own status. */}
      <span aria-live="polite" className="text-sm">
        {state === 'sent' ? t('verify.sent') : ''}
      </span>
      {state === 'failed' && (
        <span className="error text-sm" role="alert">
          {t('verify.sendFailed')}
        </span>
      )}
    </span>
  );
}

/**
 * Under the header while a customer's email is not verified: counter sales reach an account only once its email
 * is (README, "Walk-in orders"), so the customer is asked, with a way to get the link again.
 */
export function VerifyEmailBanner() {
  const { t } = useTranslation('common');
  const { user } = useSession();
  const { pathname } = useLocation();
  if (!user || user.role !== 'USER' || user.emailVerified !== false || pathname === '/verify-email')
    return null;
  return (
    <aside
      aria-label={t('verify.bannerLabel')}
      className="border-b border-line bg-panel px-4 py-2 text-sm text-slate-100"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2">
        <p className="min-w-0 [overflow-wrap:anywhere]">{t('verify.banner', { email: user.email })}</p>
        <ResendVerificationButton />
      </div>
    </aside>
  );
}
