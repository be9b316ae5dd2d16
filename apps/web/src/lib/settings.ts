import { useEffect, useState } from 'react';
import type { Settings } from '@cinema/contract';
import { RATING_SYSTEM_NAMES, type RatingSystem } from '@cinema/contract/constants';
import { api } from './api-client';

let loaded: Settings | null = null;
let loading: Promise<Settings | null> | null = null;

/**
 * GET /api/settings, once per page load (no react-query: the layout is on every page, the sign-in page too), through
 * the one HTTP client like every other call, so a screen's test that stands in for the API answers it too.
 */
function loadSettings(): Promise<Settings | null> {
  loading ??= api<Settings>('/settings')
    .catch(() => null)
    .then((settings) => (loaded = settings));
  return loading;
}

/** The cinema's currency (ISO 4217), USD until the settings arrived. */
export const cinemaCurrency = (): string => loaded?.currency ?? 'USD';

/** The cinema's public settings (test mode, currency, hold rules), or null until they arrived. */
export function useSettings(): Settings | null {
  const [settings, setSettings] = useState(loaded);
  useEffect(() => {
    if (!settings) void loadSettings().then(setSettings);
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
