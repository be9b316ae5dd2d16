import { createBrowserRouter } from 'react-router';
import { ComingSoon } from '../components/ui/coming-soon';
import { RouteErrorScreen } from './error-boundary';
import { HomeRedirect, RequireAdmin, RequireUser, RequireVisitor } from './guards';
import { Layout } from './layout';

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
            <ComingSoon title="Sign in" />
          </RequireVisitor>
        ),
      },
      {
        path: '/register',
        element: (
          <RequireVisitor>
            <ComingSoon title="Create account" />
          </RequireVisitor>
        ),
      },
      {
        path: '/movies',
        element: (
          <RequireUser>
            <ComingSoon title="Movies" />
          </RequireUser>
        ),
      },
      {
        path: '/movies/:id',
        element: (
          <RequireUser>
            <ComingSoon title="Showtimes" />
          </RequireUser>
        ),
      },
      {
        path: '/showtimes/:id/seats',
        element: (
          <RequireUser>
            <ComingSoon title="Select Seats" />
          </RequireUser>
        ),
      },
      { path: '/checkout/success', element: <ComingSoon title="Payment Successful" /> },
      { path: '/checkout/cancel', element: <ComingSoon title="Payment Cancelled" /> },
      {
        path: '/tickets',
        element: (
          <RequireUser>
            <ComingSoon title="My Tickets" />
          </RequireUser>
        ),
      },
      {
        path: '/profile',
        element: (
          <RequireUser>
            <ComingSoon title="Profile" />
          </RequireUser>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAdmin>
            <ComingSoon title="Admin" />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/showtimes',
        element: (
          <RequireAdmin>
            <ComingSoon title="Manage Showtimes" />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/showtimes/:id/booked',
        element: (
          <RequireAdmin>
            <ComingSoon title="Booked Seats" />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/showtimes/:id/tickets',
        element: (
          <RequireAdmin>
            <ComingSoon title="Showtime QR Codes" />
          </RequireAdmin>
        ),
      },
      {
        path: '/admin/scan',
        element: (
          <RequireAdmin>
            <ComingSoon title="Scan Tickets" />
          </RequireAdmin>
        ),
      },
      { path: '*', element: <ComingSoon title="Page not found" /> },
    ],
  },
]);
