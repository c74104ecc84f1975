import { type analyzePhoneLookup, type extraRecords, type MergedProfile, messages } from '@footprint/domain';
import { useMemo } from 'react';
import {
  filterAnalysis,
  filterProfile,
  filterRecords,
  hasProfileContent,
  matches,
  unweighedProfile,
} from './filter.ts';

const t = messages.results;

const LABELS = { timeline: t.timeline, nextSteps: t.nextSteps };

/**
 * The filter over the answer's analysis and its per-source profile: what each section shows, and
 * whether anything is left.
 */
export function useFiltered(
  analysis: ReturnType<typeof analyzePhoneLookup>,
  profile: MergedProfile,
  records: ReturnType<typeof extraRecords>,
  query: string,
) {
  return useMemo(() => {
    const shown = filterAnalysis(analysis, query, LABELS);
    const more = filterProfile(unweighedProfile(profile), query);
    const raw = filterProfile(profile, query);
    const rawRecords = filterRecords(records, query, t.records);
    const sourceRecords = matches(query, t.sourceRecords, t.valuesBySource);
    return {
      ...shown,
      more,
      raw: sourceRecords ? profile : raw,
      records: sourceRecords ? records : rawRecords,
      anything:
        shown.attributes.length > 0 ||
        shown.timeline.length > 0 ||
        shown.nextSteps.length > 0 ||
        hasProfileContent(more) ||
        hasProfileContent(sourceRecords ? profile : raw) ||
        (sourceRecords ? records : rawRecords).length > 0,
    };
  }, [analysis, profile, records, query]);
}
