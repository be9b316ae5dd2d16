import { useEffect, useState } from 'react';
import type { Settings } from '@cinema/contract';
import { RATING_SYSTEM_NAMES, type RatingSystem } from '@cinema/contract/constants';
import { api } from './api-client';

let loaded: Settings | null = null;
let loading = false;
let failures = 0;
/** The screens waiting for the settings: told once they arrive. */
const waiting = new Set<(settings: Settings) => void>();

/** Waits between attempts to read the settings after a failure: 1 s, doubling up to 30 s. */
export const settingsRetryMs = (failures: number) => Math.min(1000 * 2 ** (failures - 1), 30_000);

/**
 * GET /api/settings, once per page load (no react-query: the layout is on every page, the sign-in page too), through
 * the one HTTP client like every other call, so a screen's test that stands in for the API answers it too. A failed
 * read (the server away, a 503 while its database is) is tried again with backoff until it succeeds: the screens
 * waiting for the settings are told then.
 */
function loadSettings(): void {
  if (loaded || loading) return;
  loading = true;
  api<Settings>('/settings').then(
    (settings) => {
      loaded = settings;
      loading = false;
      for (const tell of waiting) tell(settings);
      waiting.clear();
    },
    () => {
      failures += 1;
      setTimeout(() => {
        loading = false;
        loadSettings();
      }, settingsRetryMs(failures));
    },
  );
}

/** The cinema's currency (ISO 4217), USD until the settings arrived. */
export const cinemaCurrency = (): string => loaded?.currency ?? 'USD';

/** The cinema's public settings (test mode, currency, hold rules), or null until they arrived. */
export function useSettings(): Settings | null {
  const [settings, setSettings] = useState(loaded);
  useEffect(() => {
    if (settings) return;
    if (loaded) {
      setSettings(loaded);
      return;
    }
    waiting.add(setSettings);
    loadSettings();
    return () => void waiting.delete(setSettings);
  }, [settings]);
  return settings;
}

/** The cinema's currency for a component: renders again when the settings arrive (USD until then). */
export function useCinemaCurrency(): string {
  useSettings();
  return cinemaCurrency();
}

/** The cinema's rating system (RATING_SYSTEM: MPAA, BBFC, FSK, …), MPAA until the settings arrived. */
export function useRatingSystem(): RatingSystem {
  const asked = useSettings()?.ratingSystem;
  return RATING_SYSTEM_NAMES.find((s) => s === asked) ?? 'MPAA';
}
