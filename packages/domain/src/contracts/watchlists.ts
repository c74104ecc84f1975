import { z } from 'zod';
import { caseReferenceField } from '../case-reference.ts';
import { leakSearchBody } from '../leaks.ts';
import { emailQuery, telQuery, usernameQuery } from '../lookup/requests.ts';
import { messages } from '../messages.ts';
import {
  WATCH_FACT_TYPES,
  WATCH_KINDS,
  WATCH_SCHEDULES,
  WATCH_STATUSES,
  type WatchChanges,
} from '../watchlists.ts';
import { isoTimestamp } from './common.ts';

/**
 * Watchlists (/api/watches): a phone, e-mail, username or leak query run again daily or weekly, each run charged
 * like a lookup; a change is kept as an event and e-mailed. The contract the server answers and the
 * /watchlist page reads.
 */

const t = messages.watchlist;
const schedule = z.enum(WATCH_SCHEDULES, { error: t.scheduleInvalid });

/**
 * POST /api/watches. The query is checked by the same rules as the search it repeats: a dialled phone
 * number as GET /api/tel takes it, an e-mail address as GET /api/email, a username as GET /api/username
 * (a leading '@' dropped), the rows of a leak search.
 */
export const createWatchBody = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('tel'),
      query: telQuery.shape.number,
      schedule,
      case_reference: caseReferenceField,
    }),
    z.strictObject({
      kind: z.literal('email'),
      query: emailQuery.shape.email,
      schedule,
      case_reference: caseReferenceField,
    }),
    z.strictObject({
      kind: z.literal('username'),
      query: usernameQuery.shape.username,
      schedule,
      case_reference: caseReferenceField,
    }),
    z.strictObject({
      kind: z.literal('leak'),
      query: leakSearchBody.shape.fields,
      schedule,
      case_reference: caseReferenceField,
    }),
  ],
  { error: t.kindInvalid },
);
export type CreateWatchBody = z.infer<typeof createWatchBody>;

/** PATCH /api/watches/{id}: a new schedule, and/or pause or resume (a stopped watch resumes too). */
export const updateWatchBody = z
  .strictObject({
    schedule: schedule.optional(),
    status: z.enum(['active', 'paused'], { error: t.statusInvalid }).optional(),
  })
  .refine((body) => body.schedule !== undefined || body.status !== undefined, { message: t.nothingToChange });
export type UpdateWatchBody = z.infer<typeof updateWatchBody>;

export const watchResponse = z
  .object({
    id: z.string(),
    kind: z.enum(WATCH_KINDS),
    query: z.string().describe('The normalized query the runs search (a leak search: its rows as a key).'),
    query_typed: z.string().describe('The query as the user gave it, for display.'),
    case_reference: z.string().nullable(),
    schedule: z.enum(WATCH_SCHEDULES),
    status: z.enum(WATCH_STATUSES),
    next_run_at: isoTimestamp,
    last_run_at: isoTimestamp.nullable(),
    last_lookup_id: z.string().nullable().describe('The lookup of the last run that answered.'),
    changes_count: z.number().int().describe('Runs that found a change.'),
    created_at: isoTimestamp,
    user: z
      .object({ id: z.string(), name: z.string(), email: z.string() })
      .optional()
      .describe(
        "Whose it is: in a list of the caller's units (scope=unit), on the entries that are not the caller's.",
      ),
  })
  .meta({ id: 'Watch', description: 'A watched query, run again on its schedule.' });
export type Watch = z.infer<typeof watchResponse>;
export const watchListResponse = z.object({ data: z.array(watchResponse) });

const watchChange = z.object({
  change: z.enum(['added', 'removed']),
  type: z.enum(WATCH_FACT_TYPES),
  value: z.string(),
  label: z
    .string()
    .optional()
    .describe("How to name the fact (a leak record: its breach; a username's account: its site's name)."),
});

export const watchChanges: z.ZodType<WatchChanges> = z.object({
  items: z.array(watchChange),
  total: z
    .object({ before: z.number().int(), after: z.number().int() })
    .optional()
    .describe('A leak search: the number of matching records, when it moved.'),
});

export const watchEventResponse = z.object({
  id: z.string(),
  watch_id: z.string(),
  kind: z.enum(WATCH_KINDS),
  lookup_id: z.string().nullable().describe('The run (a lookup: history opens it).'),
  run_at: isoTimestamp,
  changes: watchChanges,
  emailed_at: isoTimestamp.nullable(),
});
export type WatchEvent = z.infer<typeof watchEventResponse>;
export const watchEventsResponse = z.object({ data: z.array(watchEventResponse) });

export const WATCH_RUN_OUTCOMES = [
  'baseline',
  'changed',
  'unchanged',
  'no_source',
  'stopped_no_credits',
  'failed',
] as const;
export type WatchRunOutcome = (typeof WATCH_RUN_OUTCOMES)[number];

/** POST /api/watches/{id}/run: the run's outcome, the watch after it and its event if it saw a change. */
export const watchRunResponse = z.object({
  outcome: z.enum(WATCH_RUN_OUTCOMES),
  watch: watchResponse,
  event: watchEventResponse.nullable(),
});
export type WatchRun = z.infer<typeof watchRunResponse>;
