import { useEffect, useState } from 'react';

const remaining = (expiresAt: string) => Math.max(0, new Date(expiresAt).getTime() - Date.now());

function mmss(ms: number) {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Time left on the customer's hold, ticking each second; `onExpire` fires once when it runs out. */
export function HoldCountdown({ expiresAt, onExpire }: { expiresAt: string; onExpire: () => void }) {
  const [left, setLeft] = useState(() => remaining(expiresAt));
  useEffect(() => {
    setLeft(remaining(expiresAt));
    let fired = false;
    const timer = setInterval(() => {
      const ms = remaining(expiresAt);
      setLeft(ms);
      if (ms === 0 && !fired) {
        fired = true;
        clearInterval(timer);
        onExpire();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [expiresAt, onExpire]);

  return (
    <p className="text-sm text-slate-200" role="timer" data-testid="hold-countdown">
      {left > 0 ? (
        <>
          Your seats are held for <strong className="font-mono text-gold tabular-nums">{mmss(left)}</strong>
        </>
      ) : (
        'Your hold has expired'
      )}
    </p>
  );
}
