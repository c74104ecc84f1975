import { Navigate, Outlet } from 'react-router';
import { LoadingBlock } from '../../components/LoadError.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import { reachesUnits, useUnits } from '../../lib/units.ts';

/**
 * /units, the units screen outside the admin area: for admins and for whoever supervises or administers
 * a unit (their memberships, read from GET /api/units: the navigation's source too). Anyone else goes to
 * the dashboard. The server decides again on every call (members, pool, allowances, top-ups).
 */
export default function UnitsOnly() {
  const { user } = useAuth();
  const units = useUnits({ enabled: Boolean(user) && user?.role !== 'admin' });
  if (!user) return null;
  if (user.role === 'admin') return <Outlet />;
  // Still loading; a failed read lets the page say so (and offer a retry) itself.
  if (units.isPending) return <LoadingBlock />;
  if (units.isSuccess && !reachesUnits(user, units.data)) return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
