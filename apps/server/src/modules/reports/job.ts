/**
 * What a lookup report shows, computed from the stored answer: the merged profile, the highlights, the
 * analysis and the extra records. Pure functions of the answer, so the report worker computes them
 * for the lookup report (the request thread only reads the stored row); the AI report's analysis is
 * computed on the request thread, which hands it to the narrative writer.
 */
import {
  type AnswerMeta,
  analyzeEmailLookup,
  analyzePhoneLookup,
  type Breach,
  type EmailLookupData,
  extraRecords,
  mergeEmailProfile,
  mergePhoneProfile,
  type PhoneLookupResponse,
  type ProfileKind,
  phoneHighlights,
} from '@footprint/domain';
import type { LookupReportJob, ReportJob } from './render/types.ts';

/** A stored lookup's answer: the sources' payloads and what went wrong per source. */
export interface StoredAnswer {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
}

export function lookupViews(kind: ProfileKind, result: StoredAnswer, meta: AnswerMeta = {}) {
  if (kind === 'tel') {
    const response = { ...result.payloads, errors: result.errors } as Partial<PhoneLookupResponse>;
    return {
      profile: mergePhoneProfile(response),
      highlights: phoneHighlights(response),
      breaches: [] as Breach[],
      registeredSites: [] as string[],
      records: extraRecords(response.osintData),
      analysis: () => analyzePhoneLookup(response, meta),
    };
  }
  const data = { ...result.payloads, errors: result.errors } as Partial<EmailLookupData>;
  return {
    profile: mergeEmailProfile(data),
    highlights: undefined,
    breaches: Array.isArray(data.hibpData) ? data.hibpData : [],
    registeredSites: Array.isArray(data.holeheData?.used)
      ? data.holeheData.used.filter((s) => typeof s === 'string')
      : [],
    records: extraRecords(data.osintData),
    analysis: () => analyzeEmailLookup(data, meta),
  };
}

/**
 * A lookup report as the request thread sends it to the pool: the report's facts and the stored
 * answer, which the worker merges and analyses (`jobOf`).
 */
export interface LookupReportSource
  extends Omit<
    LookupReportJob,
    'template' | 'profile' | 'analysis' | 'highlights' | 'breaches' | 'registeredSites' | 'extraRecords'
  > {
  template: 'lookup-source';
  result: StoredAnswer;
}

/** What the report pool is given: a finished job, or a lookup report still to be merged. */
export type ReportTask = ReportJob | LookupReportSource;

/** The job a task draws. The provenance of each merged value is the statuses and answer time shown. */
export function jobOf(task: ReportTask): ReportJob {
  if (task.template !== 'lookup-source') return task;
  const { result, template: _template, ...facts } = task;
  const view = lookupViews(task.kind, result, {
    sourceStatus: task.sourceStatus,
    answeredAt: task.answeredAt ?? task.searchedAt,
  });
  return {
    ...facts,
    template: 'lookup',
    profile: view.profile,
    analysis: view.analysis(),
    highlights: view.highlights,
    breaches: view.breaches,
    registeredSites: view.registeredSites,
    extraRecords: view.records,
  };
}
