import { messages } from '@footprint/domain';
import { useId } from 'react';

const t = messages.results;

/** What an investigator could lawfully do next, most important first. */
export function NextSteps({ steps }: { steps: string[] }) {
  const id = useId();
  if (steps.length === 0) return null;
  return (
    <section aria-labelledby={id} className="card p-4 sm:p-5">
      <h2 id={id} className="section-title">
        {t.nextSteps}
        <span className="section-count">{steps.length}</span>
      </h2>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-text marker:text-muted">
        {steps.map((step) => (
          <li key={step} className="pl-1 leading-relaxed">
            {step}
          </li>
        ))}
      </ol>
    </section>
  );
}
