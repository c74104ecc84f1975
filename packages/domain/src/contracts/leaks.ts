import { z } from 'zod';
import {
  LEAK_FIELD_TYPES,
  LEAK_ORIGIN_KINDS,
  LEAK_ORIGIN_STATUSES,
  type LeakOrigin,
  type LeakOriginStatus,
  type LeakRecord,
  type LeakSearchResponse,
} from '../leaks.ts';
import { openObject } from './common.ts';

/** Where a record was found: the local index or a leak-search vendor. */
export const leakOrigin: z.ZodType<LeakOrigin> = z.object({
  kind: z.enum(LEAK_ORIGIN_KINDS),
  name: z.string().describe("'Local index' or the vendor's name."),
});

/** How one origin answered the search. */
export const leakOriginStatus: z.ZodType<LeakOriginStatus> = z.object({
  kind: z.enum(LEAK_ORIGIN_KINDS),
  name: z.string(),
  status: z
    .enum(LEAK_ORIGIN_STATUSES)
    .describe('`unsupported`: a vendor that cannot search any of the rows, so it was not asked.'),
  records: z.number().int().describe('Records it found, before records found in several places are merged.'),
});

export const leakRecordResponse: z.ZodType<LeakRecord> = z
  .object({
    id: z.string(),
    source: z.object({
      name: z.string(),
      breach_date: z.string().nullable(),
      description: z.string().nullable(),
    }),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    username: z.string().nullable(),
    address: z.string().nullable(),
    other: openObject<Record<string, string>>(
      'Every other field of the record, as imported (never passwords or hashes).',
      { type: 'string' },
    ),
    matched: z.array(z.enum(LEAK_FIELD_TYPES)).describe('Which searched types this record matched.'),
    origins: z
      .array(leakOrigin)
      .describe('Where it was found; an identical record from several origins is one record listing each.'),
  })
  .meta({ id: 'LeakRecord', description: 'One record of an imported breach.' });

/** Response of POST /api/leak-data-finder/ (request: `leakSearchBody` and `leakSearchQuery`). */
export const leakSearchResponse: z.ZodType<LeakSearchResponse> = z.object({
  data: z.array(leakRecordResponse),
  total: z.number().int(),
  total_capped: z.boolean().describe('More records match than are counted: `total` is the cap.'),
  page: z.number().int(),
  per_page: z.number().int(),
  credits: z.number().int(),
  cached: z.boolean(),
  lookup_id: z.string(),
  sandbox: z.boolean(),
  origin_status: z
    .array(leakOriginStatus)
    .describe(
      'Each origin searched (the local index first, then each configured vendor) and how it answered.',
    ),
});
