import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { AddMovieForm } from './add-movie-form';
import { AddShowtimeForm } from './add-showtime-form';
import { AdminMovieList } from './admin-movie-list';
import { AdminShowtimeList } from './admin-showtime-list';

/** /admin: add and delete movies and showtimes; links to the showtime overview, the halls' layouts, the door scanner and the outbox. */
export function AdminDashboard() {
  const { t } = useTranslation('admin');
  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 className="page-title mb-0">{t('dashboard.title')}</h1>
        <nav aria-label={t('dashboard.tools')} className="flex flex-wrap gap-2">
          <Link to="/admin/showtimes" className="btn-secondary">
            {t('dashboard.links.manageShowtimes')}
          </Link>
          <Link to="/admin/schedule" className="btn-secondary">
            {t('dashboard.links.scheduleRecurring')}
          </Link>
          <Link to="/admin/week" className="btn-secondary">
            {t('dashboard.links.weekByHall')}
          </Link>
          <Link to="/admin/halls" className="btn-secondary">
            {t('dashboard.links.halls')}
          </Link>
          <Link to="/admin/reports" className="btn-secondary">
            {t('dashboard.links.reports')}
          </Link>
          <Link to="/admin/reports/film-hire" className="btn-secondary">
            {t('dashboard.links.filmHire')}
          </Link>
          <Link to="/admin/distributors" className="btn-secondary">
            {t('dashboard.links.distributors')}
          </Link>
          <Link to="/admin/pricing" className="btn-secondary">
            {t('dashboard.links.pricing')}
          </Link>
          <Link to="/admin/promo-codes" className="btn-secondary">
            {t('dashboard.links.promoCodes')}
          </Link>
          <Link to="/admin/taxes" className="btn-secondary">
            {t('dashboard.links.taxes')}
          </Link>
          <Link to="/admin/concessions" className="btn-secondary">
            {t('dashboard.links.concessions')}
          </Link>
          <Link to="/admin/kitchen" reloadDocument className="btn-secondary">
            {t('dashboard.links.kitchen')}
          </Link>
          <Link to="/admin/box-office" className="btn-secondary">
            {t('dashboard.links.boxOffice')}
          </Link>
          <Link to="/admin/orders" className="btn-secondary">
            {t('dashboard.links.orders')}
          </Link>
          <Link to="/admin/gift-cards" className="btn-secondary">
            {t('dashboard.links.giftCards')}
          </Link>
          <Link to="/admin/scan" className="btn-secondary">
            {t('dashboard.links.scan')}
          </Link>
          <Link to="/admin/users" className="btn-secondary">
            {t('dashboard.links.users')}
          </Link>
          <Link to="/admin/audit" className="btn-secondary">
            {t('dashboard.links.audit')}
          </Link>
          <Link to="/admin/outbox" className="btn-secondary">
            {t('dashboard.links.outbox')}
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
