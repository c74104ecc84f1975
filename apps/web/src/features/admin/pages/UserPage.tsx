import { messages } from '@footprint/domain';
import { useParams } from 'react-router';
import { LoadError, LoadingBlock } from '../../../components/LoadError.tsx';
import { failureMessage, hasStatus } from '../../../lib/field-errors.ts';
import { useAdminUser } from '../api/getUser.ts';
import { BackLink } from '../components/BackLink.tsx';
import { UserDetails } from '../components/UserDetails.tsx';

const t = messages.admin;

/** /admin/users/{id}: one account's details, access, sessions and credits. */
export default function UserPage() {
  const { id = '' } = useParams();
  const user = useAdminUser(id);

  if (user.isPending) return <LoadingBlock />;
  if (user.isError) {
    const missing = hasStatus(user.error, 404, 422);
    return (
      <div className="space-y-4">
        <BackLink />
        <LoadError
          message={missing ? failureMessage(user.error, t.loadFailed) : t.loadFailed}
          retryLabel={t.retry}
          onRetry={() => void user.refetch()}
          retrying={user.isFetching}
        />
      </div>
    );
  }
  // Keyed by id so the name field starts over when another user's screen opens.
  return <UserDetails key={user.data.id} user={user.data} />;
}
