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
          <Link to="/admin/halls" className="btn-secondary">
            Halls and layouts
          </Link>
          <Link to="/admin/scan" className="btn-secondary">
            Scan tickets
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
