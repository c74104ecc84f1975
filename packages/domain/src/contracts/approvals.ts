import { z } from 'zod';
import { APPROVAL_STATUSES, type ApprovalsList, type HeldSearch, type SearchApproval } from '../approvals.ts';
import { isoTimestamp } from './common.ts';

/** The answers of /api/approvals (requests: approvalsQuery, approvalDecisionBody) and a held search's 202. */

const person = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const searchApprovalResponse: z.ZodType<SearchApproval> = z
  .object({
    id: z.string(),
    status: z.enum(APPROVAL_STATUSES),
    kind: z.string(),
    kind_label: z.string(),
    query: z.string().describe('The query as the requester typed it.'),
    case_reference: z.string().nullable(),
    legal_basis: z.string().nullable().describe("The case's legal basis, as every artefact prints it."),
    cost: z.number().int().describe('What the search is charged when approved.'),
    requester: person,
    requested_at: isoTimestamp,
    expires_at: isoTimestamp,
    decided_by: person.nullable(),
    decided_at: isoTimestamp.nullable(),
    note: z.string().nullable().describe("The approver's note, or the reason for a rejection."),
    lookup_id: z
      .string()
      .nullable()
      .describe('The search it ran once approved: GET /api/history/{lookup_id}.'),
    job_id: z
      .string()
      .optional()
      .describe('For a bulk job waiting for approval (kind `bulk:<type>`): the job, GET /api/bulk/{job_id}.'),
    failure: z.string().nullable().describe('Why an approved search could not run.'),
    decides: z.boolean().describe('Whether the caller may decide it now.'),
  })
  .meta({ id: 'SearchApproval', description: "A sensitive search held for a supervisor's approval." });

export const approvalsListResponse: z.ZodType<ApprovalsList> = z.object({
  data: z.array(searchApprovalResponse),
});

export const heldSearchResponse: z.ZodType<HeldSearch> = z
  .object({
    status: z.literal('pending'),
    message: z.string(),
    approval: searchApprovalResponse,
    poll: z.string().describe('GET this to follow the request.'),
  })
  .meta({ id: 'HeldSearch', description: 'A sensitive search is held until a supervisor approves it.' });
