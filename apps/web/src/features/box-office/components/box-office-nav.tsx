import { useTranslation } from '../../../lib/i18n';
import { NavLink } from 'react-router';
import { useSession } from '../../../lib/session';

const link = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 font-semibold ${isActive ? 'bg-panel-2 text-white' : 'text-slate-300'}`;

/**
 * The box office's desks: selling at the counter, looking up a gift card, and (admins) finding an order to refund or
 * move.
 */
export function BoxOfficeNav() {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  return (
    <nav aria-label={t('boxOffice.title')} className="mb-4 flex flex-wrap gap-2 text-sm">
      <NavLink to="/admin/box-office" end className={link}>
        {t('boxOffice.counterSale')}
      </NavLink>
      <NavLink to="/admin/kitchen" reloadDocument className={link}>
        {t('dashboard.links.kitchen')}
      </NavLink>
      <NavLink to="/admin/gift-cards" className={link}>
        {t('giftCards.title')}
      </NavLink>
      {/* Refunds and exchanges are the admins' (DESIGN §6.5). */}
      {user?.role === 'ADMIN' && (
        <NavLink to="/admin/orders" className={link}>
          {t('orders.title')}
        </NavLink>
      )}
    </nav>
  );
}
