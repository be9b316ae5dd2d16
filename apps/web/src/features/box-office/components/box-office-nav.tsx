import { NavLink } from 'react-router';

const link = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 font-semibold ${isActive ? 'bg-panel-2 text-white' : 'text-slate-300'}`;

/** The box office's two desks: selling at the counter, and finding an order to refund or move. */
export function BoxOfficeNav() {
  return (
    <nav aria-label="Box office" className="mb-4 flex flex-wrap gap-2 text-sm">
      <NavLink to="/admin/box-office" end className={link}>
        Counter sale
      </NavLink>
      <NavLink to="/admin/orders" className={link}>
        Orders
      </NavLink>
    </nav>
  );
}
