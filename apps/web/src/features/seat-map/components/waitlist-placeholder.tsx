import { useTranslation } from '../../../lib/i18n';

/**
 * The waiting list's place on the seat map while its panel loads (its code, its texts and the customer's place in
 * line come after the map): the closed "Can't find the seats you want?" panel with its title unseen, the same text
 * wrapping the same way in every language and width, so that the map below does not move once the panel is there.
 * A seat map that moved under a finger took the wrong seat, or none. (Its title is in the seat map's own texts.)
 */
export function WaitlistPlaceholder() {
  const { t } = useTranslation('common');
  return (
    <details className="card" aria-hidden="true" data-testid="waitlist-placeholder">
      <summary className="invisible font-semibold text-white" tabIndex={-1}>
        {t('seatMap.waitlistNotFound')}
      </summary>
    </details>
  );
}
