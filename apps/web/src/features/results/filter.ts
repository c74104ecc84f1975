import {
  type AnalysisAttribute,
  type Breach,
  type ExtraRecord,
  type MergedProfile,
  PROFILE_SECTIONS,
  type ProfileAnalysis,
  type ProfileEntry,
} from '@footprint/domain';

/**
 * The results page's filter box: one text that narrows every section of the page. A case-insensitive
 * match on labels and values: a section whose label matches keeps everything in it; otherwise only the
 * items whose own texts (value, key, sources, provenance names) match. Pure, so it is unit-tested.
 */

/** The filter as matched: trimmed, lower-cased, spacing folded. '' matches everything. */
export const filterKey = (query: string): string => query.trim().toLowerCase().replace(/\s+/g, ' ');

/** Whether any of the texts contains the query (case-insensitive); an empty query matches all. */
export function matches(query: string, ...texts: ReadonlyArray<string | number | null | undefined>): boolean {
  const key = filterKey(query);
  if (!key) return true;
  return texts.some((t) => t !== null && t !== undefined && String(t).toLowerCase().includes(key));
}

/** The merged values that match: an attribute whose label matches keeps all its values. */
export function filterAttributes(attributes: AnalysisAttribute[], query: string): AnalysisAttribute[] {
  if (!filterKey(query)) return attributes;
  return attributes.flatMap((attribute) => {
    if (matches(query, attribute.attribute)) return [attribute];
    const values = attribute.values.filter((v) =>
      matches(query, v.value, ...v.sources, ...(v.provenance ?? []).map((p) => p.name)),
    );
    return values.length > 0 ? [{ ...attribute, values }] : [];
  });
}

/** The timeline events and next steps that match. */
export function filterAnalysis(
  analysis: ProfileAnalysis,
  query: string,
  labels: { timeline: string; nextSteps: string },
): Pick<ProfileAnalysis, 'attributes' | 'timeline' | 'nextSteps'> {
  return {
    attributes: filterAttributes(analysis.attributes, query),
    timeline: matches(query, labels.timeline)
      ? analysis.timeline
      : analysis.timeline.filter((e) => matches(query, e.date, e.event, e.source)),
    nextSteps: matches(query, labels.nextSteps)
      ? analysis.nextSteps
      : analysis.nextSteps.filter((step) => matches(query, step)),
  };
}

const entryMatches = (query: string, entry: ProfileEntry) =>
  matches(query, entry.value, entry.key, entry.source, ...(entry.origins ?? []).map((o) => o.name));

/** The per-source profile with only the sections and entries that match (a matching title keeps its section). */
export function filterProfile(profile: MergedProfile, query: string): MergedProfile {
  if (!filterKey(query)) return profile;
  const out = { ...profile };
  for (const { key, title } of PROFILE_SECTIONS) {
    if (matches(query, title)) continue;
    switch (key) {
      case 'qualifications':
        out.qualifications = profile.qualifications.filter((q) =>
          matches(query, q.degree, q.field, q.school, q.source, q.startYear, q.endYear),
        );
        break;
      case 'experience':
        out.experience = profile.experience.filter((x) =>
          matches(query, x.title, x.company, x.source, x.startYear, x.endYear),
        );
        break;
      case 'internetPresence':
        out.internetPresence = profile.internetPresence.filter((p) => matches(query, p.platform, p.source));
        break;
      default:
        out[key] = profile[key].filter((entry) => entryMatches(query, entry));
    }
  }
  out.images = matches(query, 'images', 'photo') ? profile.images : [];
  return out;
}

/** The breaches that match on their title, name, domain, date or data classes. */
export function filterBreaches(breaches: Breach[], query: string, label: string): Breach[] {
  if (matches(query, label)) return breaches;
  return breaches.filter((b) =>
    matches(
      query,
      b.Title,
      b.Name,
      b.Domain,
      b.BreachDate,
      ...(Array.isArray(b.DataClasses) ? b.DataClasses : []),
    ),
  );
}

/** The source records (OSINT cards) that match on any of their fields. */
export function filterRecords(records: ExtraRecord[], query: string, label: string): ExtraRecord[] {
  if (matches(query, label)) return records;
  return records.filter((r) => matches(query, r.name, r.phone, r.email, ...r.additional.flat()));
}

/** Basic-info keys the analysis weighs (as 'Date of birth', 'Gender', 'Occupation/Employer'). */
const WEIGHED_BASIC_INFO = new Set(['Date of Birth', 'Gender', 'Occupation']);

/**
 * What the merged profile does not show as merged values: other basic info (age, income, caller
 * type), country codes, last updated, skills, education, positions and internet presence.
 */
export function unweighedProfile(profile: MergedProfile): MergedProfile {
  return {
    ...profile,
    names: [],
    usernames: [],
    phones: [],
    emails: [],
    basicInfo: profile.basicInfo.filter((entry) => !entry.key || !WEIGHED_BASIC_INFO.has(entry.key)),
    bankDetails: [],
    upiIds: [],
    identityProofs: [],
    verifiedAddresses: [],
    locations: [],
    carriers: [],
    jobProfiles: [],
    rcNumbers: [],
    images: [],
  };
}

/** Whether a per-source profile has anything to show. */
export const hasProfileContent = (profile: MergedProfile): boolean =>
  PROFILE_SECTIONS.some(({ key }) => profile[key].length > 0);
