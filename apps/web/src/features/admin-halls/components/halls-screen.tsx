import { Link } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { useHalls } from '../api/get-halls';

/** /admin/halls: every hall with its size and seats, a link to each one's layout, and a new hall. */
export function HallsScreen() {
  const halls = useHalls();
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">Halls</h1>
        <Link to="/admin/halls/new" className="btn-primary">
          New hall
        </Link>
      </div>
      <QueryStatus query={halls} failure="Failed to load halls" />
      {halls.data?.length === 0 && <p className="card">No halls yet.</p>}
      {halls.data && halls.data.length > 0 && (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Halls</caption>
            <thead className="border-b border-line text-slate-300">
              <tr>
                {['Hall', 'Rows × columns', 'Seats'].map((heading) => (
                  <th key={heading} scope="col" className="px-4 py-3 font-semibold">
                    {heading}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">Layout</span>
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
                      Edit layout<span className="sr-only"> of {hall.name}</span>
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
