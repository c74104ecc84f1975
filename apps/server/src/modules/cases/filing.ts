import type { CaseFiling } from '../searches/ports.ts';
import { caseAuditDetails } from './present.ts';
import type { Cases } from './service.ts';

/** The cases as the paid search files into them (its CaseFiling port, wired in app.ts). */
export const caseFilingOf = (cases: Cases): CaseFiling => ({
  caseFor: (user, reference, options) => cases.forSearch(user, reference, options),
  file: (filed, lookupId, user) => cases.file(filed, lookupId, user),
  auditDetails: caseAuditDetails,
});
