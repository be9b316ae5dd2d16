import { useSettings } from '../../../lib/settings';

/** The cinema's time zone (CINEMA_TIME_ZONE, from GET /api/settings), or null until the settings arrived. */
export const useCinemaTimeZone = (): string | null => useSettings()?.timeZone ?? null;
