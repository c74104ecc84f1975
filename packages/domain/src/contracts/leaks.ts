import { z } from 'zod';
import { LEAK_FIELD_TYPES, type LeakSearchResponse } from '../leaks.ts';
import { openObject } from './common.ts';

/** Response of POST /api/leak-data-finder/ (request: `leakSearchBody` and `leakSearchQuery`). */

const leakRecord = z.object({
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
});

export const leakSearchResponse: z.ZodType<LeakSearchResponse> = z.object({
  data: z.array(leakRecord),
  total: z.number().int(),
  total_capped: z.boolean().describe('More records match than are counted: `total` is the cap.'),
  page: z.number().int(),
  per_page: z.number().int(),
  credits: z.number().int(),
  cached: z.boolean(),
  lookup_id: z.string(),
  sandbox: z.boolean(),
});
