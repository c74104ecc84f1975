import { Navigate } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** /admin opens on the users screen. */
export default function AdminIndex() {
  return <Navigate to={paths.adminUsers} replace />;
}
