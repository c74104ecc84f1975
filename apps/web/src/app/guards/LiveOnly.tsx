import { isLive } from '@footprint/domain';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';

/**
 * Live-only pages (spec §4 Guards, §6): corporate and verification searches and their results. While the
 * user loads nothing shows; no user goes to /login; a user whose app_mode is not 'live' goes to /upgrade.
 * The server refuses trial accounts on their endpoints as well, so this is a courtesy, not the lock.
 */
export default function LiveOnly() {
  const { user, loading } = useAuth();
  if (loading) return null;
  if (!user) return <Navigate to={paths.login} replace />;
  if (!isLive(user)) return <Navigate to={paths.upgrade} replace />;
  return <Outlet />;
}
