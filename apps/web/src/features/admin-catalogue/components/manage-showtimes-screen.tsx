import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { useManagedShowtimes } from '../api/get-managed-showtimes';
import { QueryStatus } from '../../../components/ui/query-status';

/** /admin/showtimes: every showtime with sold tickets and live holds, and links to its seats and QR codes. */
export function ManageShowtimesScreen() {
  const showtimes = useManagedShowtimes();
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">Manage Showtimes</h1>
        <Link to="/admin" className="text-sm">
          ← Admin
        </Link>
      </div>
      <QueryStatus query={showtimes} failure="Failed to load showtimes" />
      {showtimes.data?.length === 0 && <p className="card">No showtimes</p>}
      {showtimes.data && showtimes.data.length > 0 && (
        <div className="card p-0">
          {/* A table on wider screens; on a phone each showtime becomes a compact block of its own. */}
          <table className="w-full text-left text-sm">
            <thead className="hidden border-b border-line text-slate-300 sm:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Movie
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Hall
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Starts
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Confirmed
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Held
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Links</span>
                </th>
              </tr>
            </thead>
            <tbody className="block sm:table-row-group">
              {showtimes.data.map((s) => (
                <tr
                  key={s.id}
                  data-showtime-id={s.id}
                  className="flex flex-wrap gap-x-3 gap-y-1 border-b border-line/60 px-4 py-3 last:border-0 sm:table-row sm:p-0"
                >
                  <th scope="row" className="w-full font-semibold text-white sm:w-auto sm:px-4 sm:py-3">
                    {s.movie}
                  </th>
                  <td className="whitespace-nowrap text-slate-200 sm:px-4 sm:py-3">{s.auditorium}</td>
                  <td className="whitespace-nowrap text-slate-200 sm:px-4 sm:py-3">
                    <time dateTime={s.startsAt}>{formatDateTime(s.startsAt)}</time>
                  </td>
                  <td className="tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    {s.confirmed}
                    <span className="text-muted sm:hidden"> confirmed</span>
                  </td>
                  <td className="tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    {s.held}
                    <span className="text-muted sm:hidden"> held</span>
                  </td>
                  <td className="w-full whitespace-nowrap sm:w-auto sm:px-4 sm:py-3">
                    <span className="flex gap-4">
                      <Link to={`/admin/showtimes/${s.id}/booked`}>Booked seats</Link>
                      <Link to={`/admin/showtimes/${s.id}/tickets`}>QR codes</Link>
                    </span>
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
