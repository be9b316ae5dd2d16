import { Link, useParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { formatDateTime, formatTime } from '../../../lib/format';
import { seatsInWords } from '../../../lib/seat-text';
import { useSettings } from '../../../lib/settings';
import { QueryStatus } from '../../../components/ui/query-status';
import { useShowtimeWaitlist } from '../api/get-showtime-waitlist';

/** /admin/showtimes/{id}/waitlist: who waits for the showtime, in join order (emails for the door), and the offers made. */
export function ShowtimeWaitlistScreen() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const list = useShowtimeWaitlist(id);
  const settings = useSettings();
  const clock = (iso: string) => formatTime(iso, settings?.timeZone ? { timeZone: settings.timeZone } : {});
  const data = list.data;

  return (
    <section>
      <h1 className="page-title">{t('waitlist.title')}</h1>
      <nav aria-label={t('booked.showtime')} className="mb-4 flex flex-wrap gap-3 text-sm">
        <Link to="/admin/showtimes">{t('booked.backToShowtimes')}</Link>
        <Link to={`/admin/showtimes/${id}/booked`}>{t('common.bookedSeats')}</Link>
      </nav>
      <QueryStatus query={list} failure={t('waitlist.failed')} />
      {data && data.entries.length === 0 && <p className="card">{t('waitlist.empty')}</p>}
      {data && data.entries.length > 0 && (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <caption className="px-4 pt-4 text-left text-muted">
              {t('waitlist.caption', { count: data.waiting })}
            </caption>
            <thead className="border-b border-line text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('waitlist.place')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('waitlist.customer')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('common.email')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('waitlist.request')}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t('waitlist.status')}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((e) => (
                <tr key={e.id} className="border-b border-line/60 last:border-0">
                  <th scope="row" className="px-4 py-3 font-semibold text-gold tabular-nums">
                    {e.position ?? '–'}
                  </th>
                  <td className="px-4 py-3">{e.user.name}</td>
                  <td className="px-4 py-3 break-all">{e.user.email}</td>
                  <td className="px-4 py-3">
                    {t('waitlist.seats', { count: e.count })}
                    {e.together && e.count > 1 && ` · ${t('waitlist.together')}`}
                    {e.type === 'WHEELCHAIR' && ` · ${t('waitlist.wheelchair')}`}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    {t(`waitlist.statuses.${e.status}`)}
                    <span className="block text-xs text-muted">
                      <time dateTime={e.joinedAt}>{formatDateTime(e.joinedAt)}</time>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.offers.length > 0 && (
        <>
          <h2 className="mt-6 mb-2 text-lg font-semibold text-white">{t('waitlist.offers')}</h2>
          <ul className="card flex flex-col gap-3">
            {data.offers.map((o) => (
              <li key={o.id} className="text-sm">
                <span className="font-semibold text-white">{o.user.name}</span>{' '}
                <span className="break-all text-slate-300">({o.user.email})</span>
                <span className="block text-slate-200">{seatsInWords(o.seats)}</span>
                <span className="block text-muted">
                  {t(`waitlist.offerStatuses.${o.status}`, { time: clock(o.expiresAt) })}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
