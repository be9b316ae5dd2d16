import { NavLink, Outlet, useNavigate } from 'react-router';
import { useSession } from '../lib/session';
import { logout } from './logout';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-2.5 py-1.5 text-sm font-medium no-underline hover:bg-panel-2 hover:no-underline ${
    isActive ? 'bg-panel-2 text-white' : 'text-slate-300'
  }`;

export function Layout() {
  const { user } = useSession();
  const navigate = useNavigate();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-10 border-b border-line bg-ink/90 backdrop-blur">
        <nav
          aria-label="Main"
          className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-3"
        >
          <a
            href="/"
            className="mr-auto flex items-center gap-2 text-lg font-extrabold text-white no-underline hover:no-underline"
          >
            <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-accent-strong text-sm">
              ▶
            </span>
            Cinema
          </a>
          {user ? (
            <>
              <NavLink to="/movies" className={linkClass}>
                Movies
              </NavLink>
              <NavLink to="/tickets" className={linkClass}>
                My Tickets
              </NavLink>
              <NavLink to="/profile" className={linkClass}>
                Profile
              </NavLink>
              {user.role === 'ADMIN' && (
                <>
                  <NavLink to="/admin" end className={linkClass}>
                    Admin
                  </NavLink>
                  <NavLink to="/admin/showtimes" className={linkClass}>
                    Manage
                  </NavLink>
                  <NavLink to="/admin/scan" className={linkClass}>
                    Scan
                  </NavLink>
                </>
              )}
              <button
                type="button"
                className="rounded-md px-2.5 py-1.5 text-sm font-medium text-slate-300 hover:bg-panel-2"
                onClick={async () => {
                  await logout();
                  navigate('/login');
                }}
              >
                Logout
              </button>
            </>
          ) : (
            <>
              <NavLink to="/login" className={linkClass}>
                Login
              </NavLink>
              <NavLink to="/register" className={linkClass}>
                Register
              </NavLink>
            </>
          )}
        </nav>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        <Outlet />
      </main>
      <footer className="border-t border-line py-4 text-center text-xs text-muted">
        Cinema — open-source ticketing
      </footer>
    </div>
  );
}
