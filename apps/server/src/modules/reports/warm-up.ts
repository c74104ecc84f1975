/**
 * The throwaway reports a new render thread draws before its first real one (pool.ts `warm`).
 * Kept apart from worker.ts, which renices the thread that loads it.
 */
import { jobOf, type ReportTask } from './job.ts';
import { warmUp as drawThrowaway, renderReport } from './render/index.ts';

const WARM_ID = '00000000-0000-4000-8000-000000000000';
const WARM_AT = '2026-01-01T00:00:00.000Z';
const WARM_ACCOUNT = { name: 'Warm-up', email: 'warm-up@example.test' };

/**
 * Pays a new thread's one-off costs before its first real report (pool.ts `warm`): the fonts parsed
 * and the drawing code compiled, by throwaway reports of the kinds a case bundle draws (a detail
 * report, a phone lookup report merged from a stored answer, a case summary), each twice so the
 * compiler has seen the hot paths more than once.
 */
export async function warmUp(): Promise<void> {
  const lookup: ReportTask = {
    template: 'lookup-source',
    reportId: WARM_ID,
    lookupId: WARM_ID,
    generatedAt: WARM_AT,
    searchedAt: WARM_AT,
    account: WARM_ACCOUNT,
    sandbox: true,
    kind: 'tel',
    query: '+91 9000000000',
    sourceErrors: {},
    sourceStatus: {},
    result: {
      payloads: {
        hlrData: { msisdn: '919000000000', timestamp: WARM_AT },
        osintData: {
          data: [
            {
              source: 'Warm-up',
              name: 'रोहन Łukasz',
              email: 'warm-up@example.test',
              address: 'Flat 1, Lane 2, Pune',
              last_seen: '2025-01-01',
            },
          ],
        },
      },
      errors: {},
    },
  };
  const summary: ReportTask = {
    template: 'case',
    reportId: WARM_ID,
    generatedAt: WARM_AT,
    account: WARM_ACCOUNT,
    sandbox: true,
    case: {
      id: WARM_ID,
      title: 'Warm-up',
      reference: 'WARM-UP',
      status: 'open',
      legalBasis: null,
      owner: WARM_ACCOUNT,
      createdAt: WARM_AT,
    },
    members: [],
    notes: [{ author: WARM_ACCOUNT, body: 'Warm-up note.', createdAt: WARM_AT }],
    searches: [
      { lookupId: WARM_ID, label: 'Phone lookup', createdAt: WARM_AT, status: 'complete', kept: true },
    ],
    entities: [
      { type: 'name', items: [{ value: 'Rohan', sources: ['Warm-up'], searches: 1, corroborated: false }] },
    ],
    timeline: [{ at: WARM_AT, label: 'Phone lookup', source: 'Footprint' }],
  };
  for (let round = 0; round < 2; round++) {
    await drawThrowaway();
    await renderReport(jobOf(lookup));
    await renderReport(jobOf(summary));
  }
}
