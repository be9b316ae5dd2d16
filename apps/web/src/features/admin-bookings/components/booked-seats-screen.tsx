import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { useBookedSeats } from '../api/get-booked-seats';
import { QueryStatus } from '../../../components/ui/query-status';
import { ShowtimeSummary } from './showtime-summary';
import { AccessibleSeatsPanel } from './accessible-seats-panel';

/** /admin/showtimes/{id}/booked: who bought which seat, and who is already in. */
export function BookedSeatsScreen() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const booked = useBookedSeats(id);
  const checkedIn = booked.data?.filter((b) => b.checkedInAt).length ?? 0;

  return (
    <section>
      <h1 className="page-title">{t('booked.title')}</h1>
      <nav aria-label={t('booked.showtime')} className="mb-4 flex flex-wrap gap-3 text-sm">
        <Link to="/admin/showtimes">{t('booked.backToShowtimes')}</Link>
        <Link to={`/admin/showtimes/${id}/tickets`}>{t('common.qrCodes')}</Link>
      </nav>
      <ShowtimeSummary ticket={booked.data?.[0]} />
      <AccessibleSeatsPanel showtimeId={id} />
      <QueryStatus query={booked} failure={t('booked.failed')} />
      {booked.data?.length === 0 && <p className="card">{t('booked.empty')}</p>}
      {booked.data && booked.data.length > 0 && (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <caption className="px-4 pt-4 text-left text-muted">
              {t('booked.caption', { sold: booked.data.length, checkedIn })}
            </caption>
            <thead className="border-b border-line text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('booked.seat')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('booked.buyer')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('common.email')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('booked.checkedIn')}
                </th>
              </tr>
            </thead>
            <tbody>
              {booked.data.map((b) => (
                <tr key={b.bookingId} className="border-b border-line/60 last:border-0">
                  <th scope="row" className="px-4 py-3 font-semibold whitespace-nowrap text-gold">
                    {seatWithType(b.seat)}
                  </th>
                  <td className="px-4 py-3">{b.user.name}</td>
                  <td className="px-4 py-3 break-all">{b.user.email}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {b.checkedInAt ? (
                      <time dateTime={b.checkedInAt} className="text-emerald-300">
                        {formatDateTime(b.checkedInAt)}
                      </time>
                    ) : (
                      <span className="text-muted">{t('booked.notYet')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
