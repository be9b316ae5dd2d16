import { useCallback, useEffect, useState } from 'react';

/** Seat notices fade after 1.5 seconds (spec §9). */
export const NOTICE_MS = 1500;

/** A short-lived message: each new one replaces the last and restarts the clock. */
export function useNotice() {
  const [notice, setNotice] = useState<{ text: string; id: number } | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const show = useCallback((text: string) => setNotice({ text, id: Date.now() + Math.random() }), []);
  return [notice?.text ?? null, show] as const;
}
