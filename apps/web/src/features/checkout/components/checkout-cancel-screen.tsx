import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { SeatMap } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { getToken } from '../../../lib/session';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useTranslation } from '../../../lib/i18n';

/** Kept by the seat map when checkout starts (its feature's CHECKOUT_SHOWTIME_KEY): where the seats are. */
const CHECKOUT_SHOWTIME_KEY = 'cinema.checkoutShowtime';

/** How many seats of that showtime the customer still holds (0 when none, or not signed in). */
function useSeatsStillHeld(showtimeId: string | null) {
  return useQuery({
    queryKey: ['seat-map', showtimeId],
    queryFn: ({ signal }) => api<SeatMap>(`/showtimes/${encodeURIComponent(showtimeId!)}/seats`, { signal }),
    enabled: Boolean(showtimeId && getToken()),
    select: (map) => map.seats.filter((s) => s.heldByMe).length,
  });
}

/**
 * /checkout/cancel: where the customer lands after backing out of the payment page. While their seats are still
 * held, the way back to them comes first.
 */
export function CheckoutCancelScreen() {
  const { t } = useTranslation('common');
  const heading = usePageHeading(t('checkout.cancel.pageTitle'));
  const showtimeId = sessionStorage.getItem(CHECKOUT_SHOWTIME_KEY);
  const held = useSeatsStillHeld(showtimeId).data ?? 0;
  return (
    <section className="mx-auto max-w-2xl">
      <h1 ref={heading} tabIndex={-1} className="page-title">
        <span className="block">{t('checkout.cancel.title')}</span>{' '}
        <span className="mt-2 block text-lg font-normal text-slate-200">
          {t('checkout.cancel.mayExpire')}
        </span>
      </h1>
      {held > 0 ? (
        <p className="muted">{t('checkout.cancel.stillHeld', { count: held })}</p>
      ) : (
        <p className="muted">{t('checkout.cancel.pickAgain')}</p>
      )}
      <p className="mt-6 flex flex-wrap gap-3">
        {held > 0 && (
          <Link to={`/showtimes/${showtimeId}/seats`} className="btn-primary">
            {t('checkout.cancel.backToSeats')}
          </Link>
        )}
        <Link to="/movies" className={held > 0 ? 'btn-secondary' : 'btn-primary'}>
          {t('layout.movies')}
        </Link>
      </p>
    </section>
  );
}
