import { LEGAL_BASIS_DECLARATIONS, type LegalBasis, messages } from '@footprint/domain';
import { Fragment } from 'react';
import { formatDate } from '../../../lib/datetime.ts';

const t = messages.cases;

/** The facts of a case's legal basis, labelled as its kind declares them; nothing for a basis without facts. */
export function LegalBasisFacts({ basis }: { basis: LegalBasis }) {
  const facts = basis.fields ?? {};
  const shown = LEGAL_BASIS_DECLARATIONS[basis.kind].fields.filter((field) => {
    const value = facts[field.name];
    return value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
  });
  if (shown.length === 0) return null;
  return (
    <dl
      aria-label={t.legalBasisFacts}
      className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 border-l-2 border-line pl-3 text-sm"
    >
      {shown.map((field) => {
        const value = facts[field.name];
        return (
          <div key={field.name} className="contents">
            <dt className="text-muted">{field.label}</dt>
            <dd className="break-words text-text">
              {Array.isArray(value)
                ? value.map((item, i) => {
                    const last = i === value.length - 1;
                    // Each section whole ("IT Act 66D" is not broken after "Act"); lines break between them.
                    return (
                      <Fragment key={item}>
                        <span className="whitespace-nowrap">
                          {item}
                          {last ? '' : ';'}
                        </span>
                        {last ? '' : ' '}
                      </Fragment>
                    );
                  })
                : field.type === 'date'
                  ? formatDate(String(value))
                  : String(value)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
