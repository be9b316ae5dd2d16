import { Suspense } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { LanguageSwitcher } from '../components/ui/language-switcher';
import { VerifyEmailBanner } from '../features/auth/components/verify-email-banner';
import { PageLoading } from '../components/ui/page-loading';
import { useSession } from '../lib/session';
import { useSettings } from '../lib/settings';
import { logout } from './logout';
import { useRouteHeading } from './route-heading';
import { useTranslation } from '../lib/i18n';

const linkBase =
  'inline-flex items-center rounded-md px-1.5 py-1.5 text-sm font-medium sm:px-3 no-underline transition hover:bg-panel-2 hover:text-white hover:no-underline';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${linkBase} ${isActive ? 'bg-panel-2 text-white ring-1 ring-line' : 'text-slate-300'}`;

export function Layout() {
  const { t } = useTranslation('common');
  const { user } = useSession();
  const settings = useSettings();
  const navigate = useNavigate();
  useRouteHeading();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-gold px-3 py-2 font-semibold text-ink focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-20"
      >
        {t('layout.skip')}
      </a>
      <header className="sticky top-0 z-10 border-b border-line bg-ink/90 backdrop-blur">
        {settings?.testMode && (
          // Every page says it (DESIGN §6.1): with the built-in test checkout nothing is ever charged.
          <p className="bg-amber-300 px-4 py-1 text-center text-xs font-bold tracking-wide text-amber-950">
            {t('layout.testMode')}
          </p>
        )}
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <Link
            to="/"
            className="flex items-center gap-2 text-lg font-extrabold tracking-tight text-white no-underline hover:no-underline"
          >
            <span
              aria-hidden
              className="grid h-8 w-8 place-items-center rounded-lg bg-accent-strong text-sm shadow-md shadow-rose-950"
            >
              ▶
            </span>
            {t('layout.brand')}
          </Link>
          {/* On a phone the links take a row of their own under the brand and wrap; on wider screens they sit right. */}
          <nav aria-label={t('layout.mainNav')} className="w-full sm:ml-auto sm:w-auto">
            <ul className="-mx-1 flex flex-wrap items-center gap-0.5 sm:mx-0 sm:justify-end sm:gap-1">
              {user ? (
                <>
                  <li>
                    <NavLink to="/movies" className={linkClass}>
                      {t('layout.movies')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/schedule" className={linkClass}>
                      {t('layout.schedule')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/menu" className={linkClass}>
                      {t('layout.menu')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/tickets" className={linkClass}>
                      {t('layout.myTickets')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/gift-cards" className={linkClass}>
                      {t('layout.giftCards')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/profile" className={linkClass}>
                      {t('layout.profile')}
                    </NavLink>
                  </li>
                  {/* The header keeps the daily desks; every other admin screen is one click away on Admin. */}
                  {user.role === 'ADMIN' && (
                    <>
                      <li>
                        <NavLink to="/admin" end className={linkClass}>
                          {t('layout.admin')}
                        </NavLink>
                      </li>
                      <li>
                        <NavLink to="/admin/showtimes" className={linkClass}>
                          {t('layout.manage')}
                        </NavLink>
                      </li>
                    </>
                  )}
                  {(user.role === 'ADMIN' || user.role === 'STAFF') && (
                    <>
                      <li>
                        <NavLink to="/admin/box-office" className={linkClass}>
                          {t('layout.boxOffice')}
                        </NavLink>
                      </li>
                      <li>
                        {/* A full page load: only the scanner's page may run its WebAssembly (CSP). */}
                        <NavLink to="/admin/scan" reloadDocument className={linkClass}>
                          {t('layout.scan')}
                        </NavLink>
                      </li>
                    </>
                  )}
                  <li>
                    <button
                      type="button"
                      className={`${linkBase} cursor-pointer text-slate-300`}
                      onClick={async () => {
                        await logout();
                        navigate('/login');
                      }}
                    >
                      {t('layout.logout')}
                    </button>
                  </li>
                </>
              ) : (
                <>
                  <li>
                    <NavLink to="/schedule" className={linkClass}>
                      {t('layout.schedule')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/login" className={linkClass}>
                      {t('layout.login')}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/register" className={linkClass}>
                      {t('layout.register')}
                    </NavLink>
                  </li>
                </>
              )}
              <li>
                <LanguageSwitcher />
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <VerifyEmailBanner />
      {/* At least a screen tall: the footer starts below the fold, so a screen's content arriving after its first
          paint does not push a visible footer down (Lighthouse counted that as a layout shift of 0.07). */}
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto min-h-screen w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:py-10"
      >
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="border-t border-line py-5 text-center text-xs text-muted">
        {t('layout.footer')}
      </footer>
    </div>
  );
}
