/** The analysis's attributes, read from the merged profile (profile.ts): one per kind of fact. */
import { IDENTITY_PROOF_LABELS, type MergedProfile, type ProfileEntry } from '../profile-types.ts';
import { type AttributeSpec, analyzeAttribute, type Observation } from './cluster.ts';
import { alnum } from './normalize.ts';
import type { AnalysisAttribute, AnswerMeta } from './types.ts';

const entries = (items: MergedProfile['names'], keys?: string[]): Observation[] =>
  items
    .filter((e) => !keys || (e.key !== undefined && keys.includes(e.key)))
    .map((e) =>
      e.origins
        ? { value: e.value, source: e.source, origins: e.origins }
        : { value: e.value, source: e.source },
    );

function bankObservations(profile: MergedProfile): Observation[] {
  const bySource = new Map<
    string,
    { account?: string; ifsc?: string; bank?: string; origins?: ProfileEntry['origins'] }
  >();
  for (const entry of profile.bankDetails) {
    const found = bySource.get(entry.source) ?? {};
    if (entry.key === 'Account Number') {
      found.account ??= entry.value;
      found.origins ??= entry.origins;
    } else if (entry.key === 'IFSC') found.ifsc ??= entry.value;
    else if (entry.key === 'Bank') found.bank ??= entry.value;
    bySource.set(entry.source, found);
  }
  const out: Observation[] = [];
  for (const [source, { account, ifsc, bank, origins }] of bySource) {
    if (!account) continue;
    const details = [ifsc && `IFSC ${ifsc}`, bank].filter(Boolean).join(', ');
    const value = details ? `${account} (${details})` : account;
    out.push({ value, source, norm: alnum(account), ...(origins && { origins }) });
  }
  return out;
}

function carrierObservations(profile: MergedProfile): Observation[] {
  return profile.carriers.map((e) => ({
    value: e.value,
    source: e.source,
    ...(e.origins && { origins: e.origins }),
    ...(e.key === 'Ported' && { display: `${e.value} (ported to; current network)` }),
  }));
}

const OTHER_ID = 'Identity document';

function identityKinds(profile: MergedProfile): string[] {
  const known = Object.values(IDENTITY_PROOF_LABELS);
  const seen = [...new Set(profile.identityProofs.map((e) => e.key ?? OTHER_ID))];
  return [
    ...known.filter((label) => seen.includes(label)),
    ...seen.filter((label) => !known.includes(label)),
  ];
}

export function profileAttributes(profile: MergedProfile, meta: AnswerMeta = {}): AnalysisAttribute[] {
  const specs: Array<[AttributeSpec, Observation[]]> = [
    [{ attribute: 'Name', mode: 'name', single: true }, entries(profile.names)],
    [{ attribute: 'Phone', mode: 'phone', single: false }, entries(profile.phones)],
    [{ attribute: 'E-mail', mode: 'email', single: false }, entries(profile.emails)],
    [{ attribute: 'Usernames', mode: 'handle', single: false }, entries(profile.usernames)],
    [
      { attribute: 'Address/Location', mode: 'exact', single: false },
      [
        ...entries(profile.verifiedAddresses),
        // Places the subject reviewed are not where they live; the timeline carries them.
        ...entries(profile.locations.filter((e) => e.key !== 'Review')),
      ],
    ],
    [
      { attribute: 'Date of birth', mode: 'date', single: true },
      entries(profile.basicInfo, ['Date of Birth']),
    ],
    [{ attribute: 'Gender', mode: 'gender', single: true }, entries(profile.basicInfo, ['Gender'])],
    [
      { attribute: 'Occupation/Employer', mode: 'tokens', single: false },
      [...entries(profile.jobProfiles), ...entries(profile.basicInfo, ['Occupation'])],
    ],
    ...identityKinds(profile).map((label): [AttributeSpec, Observation[]] => [
      { attribute: label, mode: 'exact', single: true },
      entries(profile.identityProofs.filter((e) => (e.key ?? OTHER_ID) === label)),
    ]),
    [{ attribute: 'Bank account', mode: 'exact', single: false }, bankObservations(profile)],
    [{ attribute: 'UPI', mode: 'handle', single: false }, entries(profile.upiIds)],
    [{ attribute: 'Vehicles', mode: 'exact', single: false }, entries(profile.rcNumbers)],
    [{ attribute: 'Carrier', mode: 'tokens', single: false }, carrierObservations(profile)],
  ];
  return specs.flatMap(([spec, observations]) => analyzeAttribute(spec, observations, meta) ?? []);
}

/** Every attribute that is not an identity document (those are named by their kind's label). */
export const CORE_ATTRIBUTES: ReadonlySet<string> = new Set([
  'Name',
  'Phone',
  'E-mail',
  'Usernames',
  'Address/Location',
  'Date of birth',
  'Gender',
  'Occupation/Employer',
  'Bank account',
  'UPI',
  'Vehicles',
  'Carrier',
]);

/** Attributes one person has one true value of: distinct values conflict. */
export const isSingleValued = (attribute: string): boolean =>
  !CORE_ATTRIBUTES.has(attribute) || ['Name', 'Date of birth', 'Gender'].includes(attribute);
