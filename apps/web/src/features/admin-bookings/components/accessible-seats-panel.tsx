import { useState } from 'react';
import { accessibleSeatsReleased } from '@cinema/contract/constants';
import { useTranslation } from '../../../lib/i18n';
import { formatDateTime } from '../../../lib/format';
import { useSeatMap } from '../../seat-map/api/get-seat-map';
import { useReleaseAccessibleSeats } from '../api/release-accessible-seats';

/**
 * A showtime's wheelchair spaces and companion seats (DESIGN §7.5): kept for those who need them until
 * ACCESSIBLE_RELEASE_MINUTES before the start, or until every other seat is taken; staff may put them on sale to
 * everyone earlier (audited). Nothing shows for a hall without them.
 */
export function AccessibleSeatsPanel({ showtimeId }: { showtimeId: string }) {
  const { t } = useTranslation('admin');
  const map = useSeatMap(showtimeId);
  const release = useReleaseAccessibleSeats(showtimeId);
  const [confirming, setConfirming] = useState(false);
  const seats = map.data?.seats.filter((s) => s.type === 'WHEELCHAIR' || s.type === 'COMPANION') ?? [];
  const releaseAt = map.data?.showtime.accessibleReleaseAt;
  if (!map.data || !releaseAt || seats.length === 0) return null;
  const free = seats.filter((s) => s.status === 'AVAILABLE').length;
  const released = accessibleSeatsReleased(
    releaseAt,
    map.data.seats.map((s) => ({ type: s.type ?? 'STANDARD', free: s.status === 'AVAILABLE' })),
  );
  const started = Date.parse(map.data.showtime.startsAt) <= Date.now();

  return (
    <section aria-labelledby="accessible-seats" className="card mb-4 flex flex-col gap-3 text-sm">
      <h2 id="accessible-seats" className="text-base font-semibold">
        {t('accessible.title')}
      </h2>
      <p>{t('accessible.count', { count: seats.length, free })}</p>
      <p>{released ? t('accessible.released') : t('accessible.kept', { time: formatDateTime(releaseAt) })}</p>
      <div role="status" className="empty:hidden">
        {release.data && t('accessible.done', { time: formatDateTime(release.data.accessibleReleaseAt) })}
      </div>
      {release.error && (
        <p role="alert" className="text-red-300">
          {release.error.message}
        </p>
      )}
      {!released && !started && (
        <div className="flex flex-wrap items-center gap-3">
          {confirming ? (
            <>
              <span>{t('accessible.confirm')}</span>
              <button
                type="button"
                className="btn-primary"
                disabled={release.isPending}
                onClick={() => release.mutate(undefined, { onSettled: () => setConfirming(false) })}
              >
                {t('accessible.confirmYes')}
              </button>
              <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
                {t('accessible.confirmNo')}
              </button>
            </>
          ) : (
            <button type="button" className="btn-secondary" onClick={() => setConfirming(true)}>
              {t('accessible.release')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
