import { Link } from 'react-router';
import { AddMovieForm } from './add-movie-form';
import { AddShowtimeForm } from './add-showtime-form';
import { AdminMovieList } from './admin-movie-list';
import { AdminShowtimeList } from './admin-showtime-list';

/** /admin: add and delete movies and showtimes; links to the showtime overview, the halls' layouts, the door scanner and the outbox. */
export function AdminDashboard() {
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">Admin</h1>
        <nav aria-label="Admin tools" className="flex flex-wrap gap-2">
          <Link to="/admin/showtimes" className="btn-secondary">
            Manage showtimes
          </Link>
          <Link to="/admin/schedule" className="btn-secondary">
            Schedule recurring
          </Link>
          <Link to="/admin/week" className="btn-secondary">
            Week by hall
          </Link>
          <Link to="/admin/halls" className="btn-secondary">
            Halls and layouts
          </Link>
          <Link to="/admin/reports" className="btn-secondary">
            Sales reports
          </Link>
          <Link to="/admin/pricing" className="btn-secondary">
            Prices and ticket types
          </Link>
          <Link to="/admin/promo-codes" className="btn-secondary">
            Promo codes
          </Link>
          <Link to="/admin/box-office" className="btn-secondary">
            Box office
          </Link>
          <Link to="/admin/orders" className="btn-secondary">
            Orders and refunds
          </Link>
          <Link to="/admin/scan" className="btn-secondary">
            Scan tickets
          </Link>
          <Link to="/admin/users" className="btn-secondary">
            Users and roles
          </Link>
          <Link to="/admin/audit" className="btn-secondary">
            Audit log
          </Link>
          <Link to="/admin/outbox" className="btn-secondary">
            Outbox
          </Link>
        </nav>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <AddMovieForm />
          <AddShowtimeForm />
        </div>
        <div className="space-y-6">
          <AdminMovieList />
          <AdminShowtimeList />
        </div>
      </div>
    </section>
  );
}
