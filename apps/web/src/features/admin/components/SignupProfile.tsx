import { type AdminUser, messages, SIGNUP_FIELDS } from '@footprint/domain';

const t = messages.admin;

/**
 * What a sign-up gave for an approver to judge: organisation, designation and official ID
 * reference, each "Not given" when left empty (or when an admin made the account).
 */
export function SignupProfile({
  user,
  className = '',
}: {
  user: Pick<AdminUser, 'organisation' | 'designation' | 'identity_reference'>;
  className?: string;
}) {
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm ${className}`}>
      {SIGNUP_FIELDS.map((field) => {
        const value = user[field];
        return (
          <div key={field} className="contents">
            <dt className="text-muted">{messages.signupFields.labels[field]}</dt>
            <dd className={`break-words ${value ? 'text-text' : 'text-muted italic'}`}>
              {value ?? t.user.profileNotGiven}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
