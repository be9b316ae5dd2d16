import { lazy, Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { ComingSoon } from '../components/ui/coming-soon';
import { RouteErrorScreen } from './error-boundary';
import { HomeRedirect, RequireAdmin, RequireUser, RequireVisitor } from './guards';
import { Layout } from './layout';
import { SeatMapScreen } from '../features/seat-map/components/seat-map-screen';
import { LoginScreen } from '../features/auth/components/login-screen';
import { RegisterScreen } from '../features/auth/components/register-screen';
import { ProfileScreen } from '../features/profile/components/profile-screen';
import { logout } from './logout';
import { CheckoutSuccessScreen } from '../features/checkout/components/checkout-success-screen';
import { CheckoutCancelScreen } from '../features/checkout/components/checkout-cancel-screen';
import { MyTicketsScreen } from '../features/tickets/components/my-tickets-screen';
import { BookedSeatsScreen } from '../features/admin-bookings/components/booked-seats-screen';
import { ShowtimeQrCodesScreen } from '../features/admin-bookings/components/showtime-qr-codes-screen';
import { MoviesScreen } from '../features/catalogue/components/movies-screen';
import { MovieShowtimesScreen } from '../features/catalogue/components/movie-showtimes-screen';
import { AdminDashboard } from '../features/admin-catalogue/components/admin-dashboard';
import { ManageShowtimesScreen } from '../features/admin-catalogue/components/manage-showtimes-screen';

// The scanner (and its WebAssembly decoder) loads only on /admin/scan.
const ScannerPage = lazy(() => import('../features/scanner/components/scanner-page'));

// Each feature contributes its screens here; features never import one another.
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <RouteErrorScreen />,
    children: [
      { path: '/', element: <HomeRedirect /> },
      {
        path: '/login',
        element: (
          <RequireVisitor>
            <LoginScreen />
          </RequireVisitor>
        ),
      },
      {
        path: '/register',
        element: (
          <RequireVisitor>
            <RegisterScreen />
          </RequireVisitor>
        ),
      },
      {
        path: '/movies',
        element: (
          <RequireUser>
            <MoviesScreen />
          </RequireUser>
        ),
      },
      {
        path: '/movies/:id',
        element: (
          <RequireUser>
            <MovieShowtimesScreen />
          </RequireUser>
        ),
      },
      {
        path: '/showtimes/:id/seats',
        element: (
          <RequireUser>
            <SeatMapScreen />
          </RequireUser>
        ),
      },
      { path: '/checkout/success', element: <CheckoutSuccessScreen /> },
      { path: '/checkout/cancel', element: <CheckoutCancelScreen /> },
      {
        path: '/tickets',
        element: (
          <RequireUser>
            <MyTicketsScreen />
          </RequireUser>
        ),
      },
      {
        path: '/profile',
        element: (
          <RequireUser>
            <ProfileScreen onLogout={logout} />
          </RequireUser>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAdmin>
            <AdminDashboard />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/showtimes',
        element: (
          <RequireAdmin>
            <ManageShowtimesScreen />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/showtimes/:id/booked',
        element: (
          <RequireAdmin>
            <BookedSeatsScreen />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/showtimes/:id/tickets',
        element: (
          <RequireAdmin>
            <ShowtimeQrCodesScreen />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/scan',
        element: (
          <RequireAdmin>
            <Suspense fallback={<p className="muted">Loading scanner…</p>}>
              <ScannerPage />
            </Suspense>
          </RequireAdmin>
        ),
      },
      { path: '*', element: <ComingSoon title="Page not found" /> },
    ],
  },
]);
