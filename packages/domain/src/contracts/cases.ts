import { z } from 'zod';
import {
  CASE_ROLES,
  CASE_STATUSES,
  type CaseDetail,
  type CaseItem,
  type CaseNote,
  type CaseSummary,
} from '../cases/cases.ts';
import { MAX_TIMELINE_ENTRIES } from '../cases/timeline.ts';
import { fileDownload, isoTimestamp } from './common.ts';
import { legalBasisObject } from './legal-basis.ts';
import { caseUnitShareResponse } from './units.ts';

/** The answers of /api/cases (requests: createCaseBody, updateCaseBody, casesQuery, addMemberBody, addNoteBody, addItemBody). */

const person = z
  .object({ id: z.string(), name: z.string(), email: z.string() })
  .meta({ id: 'Person', description: 'A user as others see them.' });

const legalBasis = legalBasisObject
  .nullable()
  .describe('What allows the searches of this case; printed on its reports and kept on its audit rows.');

const summaryShape = {
  id: z.string(),
  title: z.string(),
  reference: z.string().describe('A search carrying this reference files itself under this case.'),
  status: z.enum(CASE_STATUSES),
  legal_basis: legalBasis,
  legal_hold: z
    .object({ at: isoTimestamp, by: person.nullable(), reason: z.string() })
    .nullable()
    .describe("While set, the results of the case's searches are kept past every retention period."),
  owner: person,
  role: z.enum(CASE_ROLES).describe('How the caller sees the case.'),
  items_count: z.number().int(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
};

export const caseSummaryResponse: z.ZodType<CaseSummary> = z.object(summaryShape).meta({ id: 'CaseSummary' });
export const caseListResponse: z.ZodType<{ data: CaseSummary[] }> = z.object({
  data: z.array(caseSummaryResponse),
});

export const caseNoteResponse: z.ZodType<CaseNote> = z.object({
  id: z.string(),
  author: person,
  body: z.string(),
  created_at: isoTimestamp,
});

export const caseItemResponse: z.ZodType<CaseItem> = z
  .object({
    lookup_id: z.string(),
    kind: z.string(),
    query: z.string(),
    query_typed: z.string(),
    status: z.string(),
    cost: z.number().int(),
    sandbox: z.boolean(),
    user: person,
    created_at: isoTimestamp,
    added_at: isoTimestamp,
    result_available: z.boolean(),
  })
  .meta({ id: 'CaseItem', description: 'A search filed in a case.' });

export const caseItemsResponse: z.ZodType<{ data: CaseItem[] }> = z.object({
  data: z.array(caseItemResponse),
});

export const caseDetailResponse: z.ZodType<CaseDetail> = z.object({
  ...summaryShape,
  members: z.array(person.extend({ added_at: isoTimestamp })),
  notes: z.array(caseNoteResponse),
  items: z.array(caseItemResponse),
  entities: z.array(
    z.object({
      type: z.string(),
      value: z.string(),
      sources: z.array(z.string()),
      items: z.array(z.string()).describe('The lookup ids of the searches that found it.'),
      corroborated: z.boolean().describe('Found by two different sources or by two searches.'),
      other_cases: z
        .array(z.object({ id: z.string(), title: z.string(), reference: z.string() }))
        .describe('Other cases the caller can see whose searches found it too.'),
    }),
  ),
  timeline: z
    .array(
      z.object({
        at: z.string().describe("'YYYY-MM-DD' when the source gives a day, else an ISO date-time in UTC."),
        label: z.string().describe("What happened: 'Breach of Cricket Khel', 'Phone lookup of … by …'."),
        source: z.string().describe("Who said so; 'Footprint' for the searches themselves."),
        lookup_id: z.string().describe('The search whose result holds it, or the search itself.'),
      }),
    )
    .describe(
      `The case's dated facts, oldest first: every search, and the dates its result holds (at most ${MAX_TIMELINE_ENTRIES} entries; past that the most recent facts are kept).`,
    ),
  units: z
    .array(caseUnitShareResponse)
    .describe('The units the case is shared with: their members, and those of the units below, see it.'),
  shares: z
    .boolean()
    .describe(
      'Whether the caller may share the case with a unit or stop sharing it (owner, supervisor of the owner, admin).',
    ),
});

/** GET /api/cases/{id}/bundle. */
export const caseBundleResponse = fileDownload(
  'application/zip',
  "The case's evidence bundle as a ZIP (file name in Content-Disposition); its SHA-256 is registered once it is complete and verifies at POST /api/verify.",
);
