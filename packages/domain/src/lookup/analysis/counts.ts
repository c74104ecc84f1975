/**
 * What a merged profile says about itself, counted once: how many facts (values), how many of them
 * corroborated, how many attributes in conflict. The results page, the lookup PDF and the AI report
 * read these, so they cannot disagree.
 */
import { CORROBORATING_SOURCES } from './confidence.ts';
import type { AnalysisAttribute, AnalysisValue } from './types.ts';

/** A value is corroborated when at least two independent sources (source labels) gave it. */
export const isCorroborated = (value: Pick<AnalysisValue, 'sources'>): boolean =>
  new Set(value.sources).size >= CORROBORATING_SOURCES;

export interface ProfileCounts {
  /** Values across every attribute. */
  facts: number;
  /** Values given by two or more independent sources. */
  corroborated: number;
  /** Single-valued attributes whose sources disagree. */
  conflicts: number;
}

export function profileCounts(attributes: readonly AnalysisAttribute[]): ProfileCounts {
  let facts = 0;
  let corroborated = 0;
  let conflicts = 0;
  for (const attribute of attributes) {
    facts += attribute.values.length;
    corroborated += attribute.values.filter(isCorroborated).length;
    if (attribute.status === 'conflicting') conflicts += 1;
  }
  return { facts, corroborated, conflicts };
}
