import type { FormEvent, ReactNode } from 'react';

/**
 * A small titled form inside a panel of /admin/units (add a member, top up the pool): its heading names
 * the form, a lead line under it, then the fields in a row that wraps.
 */
export function FormBox({
  id,
  title,
  lead,
  onSubmit,
  children,
  after,
}: {
  /** The prefix of the form's ids (`${id}-title`). */
  id: string;
  title: string;
  lead: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  /** The fields and the submit button. */
  children: ReactNode;
  /** Under the row: messages about the whole form. */
  after?: ReactNode;
}) {
  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby={`${id}-title`}
      className="mt-4 rounded-lg border border-line bg-surface-2/50 p-3"
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold text-text">
        {title}
      </h3>
      <p className="mt-0.5 text-xs text-muted">{lead}</p>
      <div className="mt-3 flex flex-wrap items-start gap-3">{children}</div>
      {after}
    </form>
  );
}
