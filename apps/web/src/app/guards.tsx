import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session';

export const homeFor = (role: string | undefined) =>
  role === 'ADMIN' ? '/admin' : role === 'STAFF' ? '/admin/scan' : '/movies';

/** Signed-in only: a visitor goes to /login, remembering where they were headed. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return children;
}

/** Admin only: a visitor goes to /login (remembering the origin), a customer to /movies. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (user.role !== 'ADMIN') return <Navigate to="/movies" replace />;
  return children;
}

/** Staff and admins (the door): a visitor goes to /login (remembering the origin), a customer to /movies. */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (user.role !== 'ADMIN' && user.role !== 'STAFF') return <Navigate to="/movies" replace />;
  return children;
}

/** Visitors only: a signed-in user goes where they came from, else their home. */
export function RequireVisitor({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const location = useLocation();
  if (user) {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && from !== '/login' ? from : homeFor(user.role)} replace />;
  }
  return children;
}

export function HomeRedirect() {
  const { user } = useSession();
  return <Navigate to={user ? homeFor(user.role) : '/login'} replace />;
}
