import { type AnsweredSite, messages } from '@footprint/domain';
import { useId } from 'react';
import { UNASKED_STATES, type UnaskedState } from '../username.ts';
import { UnaskedGroup } from './UnaskedGroup.tsx';

const t = messages.usernameResults;

/**
 * The sites that gave no answer either way (blocked, errors, not checked): the name may or may not be
 * on them, and the investigator must know the picture is partial. Nothing when every site answered.
 */
export function UnaskedSites({
  sites,
  totals,
  filtering,
}: {
  /** Per state, the sites shown (the filter may have narrowed them). */
  sites: Record<UnaskedState, readonly AnsweredSite[]>;
  /** Per state, how many sites the answer has in it. */
  totals: Record<UnaskedState, number>;
  filtering: boolean;
}) {
  const id = useId();
  if (UNASKED_STATES.every((state) => sites[state].length === 0)) return null;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h2 id={id} className="section-title">
        {t.unaskedTitle}
      </h2>
      <p className="mt-1.5 text-sm leading-relaxed text-muted">{t.unaskedLead}</p>
      <div className="mt-3 space-y-2">
        {UNASKED_STATES.map((state) => (
          <UnaskedGroup
            key={state}
            state={state}
            sites={sites[state]}
            total={totals[state]}
            filtering={filtering}
          />
        ))}
      </div>
    </section>
  );
}
