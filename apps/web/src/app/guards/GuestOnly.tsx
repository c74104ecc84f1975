import { Navigate, Outlet } from 'react-router';
import { Spinner } from '../../components/Spinner.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';

/** Login, register, password and OTP pages: a signed-in user has nothing to do there (spec §2.2). */
export default function GuestOnly() {
  const { user, loading } = useAuth();
  if (loading) {
    return (
      <div className="grid min-h-[60vh] w-full place-items-center">
        <Spinner size="lg" />
      </div>
    );
  }
  if (user) return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
