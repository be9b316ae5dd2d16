import { Trans, useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { useHalls } from '../api/get-halls';

/** /admin/halls: every hall with its size and seats, a link to each one's layout, and a new hall. */
export function HallsScreen() {
  const { t } = useTranslation('admin');
  const halls = useHalls();
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">{t('halls.title')}</h1>
        <Link to="/admin/halls/new" className="btn-primary">
          {t('halls.newHall')}
        </Link>
      </div>
      <QueryStatus query={halls} failure={t('common.failedHalls')} />
      {halls.data?.length === 0 && <p className="card">{t('common.noHalls')}</p>}
      {halls.data && halls.data.length > 0 && (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('halls.title')}</caption>
            <thead className="border-b border-line text-slate-300">
              <tr>
                {[t('common.hall'), t('halls.size'), t('halls.seats')].map((heading) => (
                  <th key={heading} scope="col" className="px-4 py-3 font-semibold">
                    {heading}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">{t('halls.layout')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {halls.data.map((hall) => (
                <tr key={hall.id} className="border-b border-line/60 last:border-0">
                  <th scope="row" className="px-4 py-3 font-semibold text-white">
                    {hall.name}
                  </th>
                  <td className="px-4 py-3 tabular-nums">
                    {hall.rows} × {hall.cols}
                  </td>
                  <td className="px-4 py-3 tabular-nums">{hall.seatCount ?? '—'}</td>
                  <td className="px-4 py-3 text-right">
                    <Link to={`/admin/halls/${hall.id}`}>
                      <Trans
                        t={t}
                        i18nKey="halls.editLayout"
                        values={{ name: hall.name }}
                        components={{ sr: <span className="sr-only" /> }}
                      />
                    </Link>
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
