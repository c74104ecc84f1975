/**
 * The username catalogue's self-check as the admin screen reads it (GET /api/admin/site-health) and
 * runs it (POST /api/admin/site-health/run).
 */
import { z } from 'zod';
import { isoTimestamp } from './common.ts';

/**
 * ok: its last counted run passed; quarantined: its check has been failing since `failing_since` (the
 * lookups do not ask it); blocked: its last run met a WAF, a challenge or a 429 (says nothing of the
 * check); unchecked: never checked yet (or its pattern refused both names).
 */
export const SITE_HEALTH_STATES = ['ok', 'quarantined', 'blocked', 'unchecked'] as const;
export type SiteHealthState = (typeof SITE_HEALTH_STATES)[number];

export const SELF_CHECK_OUTCOMES = ['passed', 'failed', 'blocked', 'skipped'] as const;
export type SelfCheckOutcome = (typeof SELF_CHECK_OUTCOMES)[number];

export const siteHealthSite = z
  .object({
    id: z.string(),
    name: z.string(),
    category: z.string(),
    india: z.boolean(),
    state: z.enum(SITE_HEALTH_STATES),
    failing_since: isoTimestamp.nullable().describe('Set while the site is quarantined.'),
    last_checked_at: isoTimestamp.nullable(),
    last_passed_at: isoTimestamp.nullable(),
    last_outcome: z.enum(SELF_CHECK_OUTCOMES).nullable(),
    last_reason: z.string().nullable(),
    runs_30d: z.number().int().min(0).describe('Runs of the last 30 days that were not blocked or skipped.'),
    passed_30d: z.number().int().min(0),
    precision_30d: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe('passed_30d / runs_30d; null without a counted run.'),
  })
  .meta({ id: 'SiteHealthSite' });
export type SiteHealthSite = z.infer<typeof siteHealthSite>;

export const selfCheckRun = z
  .object({
    id: z.string(),
    trigger: z.enum(['schedule', 'admin']),
    started_at: isoTimestamp,
    finished_at: isoTimestamp.nullable(),
    sites: z.number().int().min(0),
    passed: z.number().int().min(0),
    failed: z.number().int().min(0),
    blocked: z.number().int().min(0),
    skipped: z.number().int().min(0),
  })
  .meta({ id: 'SelfCheckRun' });
export type SelfCheckRun = z.infer<typeof selfCheckRun>;

export const siteHealthResponse = z
  .object({
    enabled: z
      .boolean()
      .describe('Whether the site check is on (SITE_CHECK_ENABLED); off, nothing is checked.'),
    schedule_hours: z
      .number()
      .int()
      .min(0)
      .describe('Hours between scheduled self-checks (0: none scheduled).'),
    running: z.boolean().describe('A self-check run has started and not finished (the last 6 hours).'),
    last_run: selfCheckRun.nullable(),
    totals: z.object({
      sites: z.number().int().min(0),
      ok: z.number().int().min(0),
      quarantined: z.number().int().min(0),
      blocked: z.number().int().min(0),
      unchecked: z.number().int().min(0),
    }),
    sites: z.array(siteHealthSite),
  })
  .meta({ id: 'SiteHealth' });
export type SiteHealthResponse = z.infer<typeof siteHealthResponse>;

export const siteHealthRunResponse = z
  .object({
    queued: z
      .boolean()
      .describe('true: a run was queued; false: one was already waiting, and this request joined it.'),
  })
  .meta({ id: 'SiteHealthRun' });
export type SiteHealthRunResponse = z.infer<typeof siteHealthRunResponse>;
