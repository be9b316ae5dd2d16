import { useEffect, useRef, useState } from 'react';
import type { MoreTimeResponse } from '@cinema/contract';
import { api, errorText } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';

const remaining = (expiresAt: string) => Math.max(0, new Date(expiresAt).getTime() - Date.now());

function mmss(ms: number) {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** The warnings a hold gives before it runs out (WCAG 2.2.1), said once each. */
// Each text is a key of the catalogue ("20 seconds left on your hold.").
const WARNINGS = [
  { at: 20_000, text: 'hold.warn20' },
  { at: 60_000, text: 'hold.warn60' },
] as const;

/**
 * Time left on the customer's hold, ticking each second; `onExpire` fires once when it runs out. At 60 and 20
 * seconds left a live region says so, and "More time" extends the hold once (the server caps it); `onExtended` lets
 * the page read the new expiry.
 */
export function HoldCountdown({
  expiresAt,
  onExpire,
  bookingIds = [],
  onExtended,
}: {
  expiresAt: string;
  onExpire: () => void;
  bookingIds?: string[];
  onExtended?: () => void;
}) {
  const { t } = useTranslation('common');
  const [left, setLeft] = useState(() => remaining(expiresAt));
  const [warning, setWarning] = useState<string | null>(null);
  const [extension, setExtension] = useState<'none' | 'asking' | 'done' | 'used'>('none');
  const [error, setError] = useState<string | null>(null);
  const said = useRef(new Set<number>());

  useEffect(() => {
    setLeft(remaining(expiresAt));
    // A new expiry (More time, another hold): the warnings may come again.
    said.current = new Set(WARNINGS.filter((w) => remaining(expiresAt) <= w.at).map((w) => w.at));
    setWarning(null);
    let fired = false;
    const timer = setInterval(() => {
      const ms = remaining(expiresAt);
      setLeft(ms);
      const due = WARNINGS.find((w) => ms > 0 && ms <= w.at && !said.current.has(w.at));
      if (due) {
        WARNINGS.filter((w) => w.at >= due.at).forEach((w) => said.current.add(w.at));
        setWarning(due.text);
      }
      if (ms === 0 && !fired) {
        fired = true;
        clearInterval(timer);
        onExpire();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [expiresAt, onExpire]);

  async function askForMoreTime() {
    setExtension('asking');
    setError(null);
    try {
      await api<MoreTimeResponse>('/showtimes/bookings/more-time', {
        method: 'POST',
        body: { bookingIds },
      });
      setExtension('done');
      setWarning('hold.moreTimeGiven');
      onExtended?.();
    } catch (err) {
      setExtension('used');
      setError(errorText(err, t('hold.moreTimeFailed')));
    }
  }

  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-200" role="timer" data-testid="hold-countdown">
        {left > 0 ? (
          <>
            {t('hold.heldFor')} <strong className="font-mono text-gold tabular-nums">{mmss(left)}</strong>
          </>
        ) : (
          t('hold.expired')
        )}
      </p>
      <p className="text-sm font-semibold text-amber-200" aria-live="assertive" aria-atomic="true">
        {left > 0 && warning ? t(warning) : null}
      </p>
      {left > 0 &&
        left <= 2 * 60_000 &&
        bookingIds.length > 0 &&
        extension !== 'done' &&
        extension !== 'used' && (
          <button
            type="button"
            className="btn-secondary"
            disabled={extension === 'asking'}
            onClick={() => void askForMoreTime()}
          >
            {t('hold.moreTime')}
          </button>
        )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {left === 0 && (
        <p className="error" role="alert">
          {t('hold.expiredReleased')}
        </p>
      )}
    </div>
  );
}
