import { DETAIL_FACTS, DETAIL_FAMILIES, type DetailFamily } from '../kinds/details.ts';

/**
 * The paid searches, named once. A search kind is what the `lookups.kind` column stores, what a
 * provider answers, what a price is set for and what the search history filters on. Every narrower
 * set (the lookups, the detail lookups, the corporate and verification searches) is a part of
 * `SearchKind`, never a list of its own.
 */

/** The search types of the Corporate Intelligence page (spec §2.7), in the order it lists them. */
export const CORPORATE_TYPE_KEYS = [
  'corporate_gstin',
  'credit_report',
  'corporate_cin',
  'gst_intel',
  'employment_history',
  'find_uan',
  'pan_to_uan',
] as const;
/** The search types of the Verified ID page (spec §2.8), in the order it lists them. */
export const VERIFICATION_TYPE_KEYS = [
  'pan',
  'driving_license',
  'voter_id',
  'passport',
  'bank_account',
  'ifsc',
  'vehicle_rc',
  'employment',
] as const;
export type CorporateTypeKey = (typeof CORPORATE_TYPE_KEYS)[number];
export type VerificationTypeKey = (typeof VERIFICATION_TYPE_KEYS)[number];
export type IntelTypeKey = CorporateTypeKey | VerificationTypeKey;

/**
 * The families of paid search: each has one history label and one default price in credits (the
 * environment variable `COST_<FAMILY>` overrides it). A family with several types ('corporate',
 * 'verification') stores each search as `<family>:<type>`.
 */
const OWN_FAMILIES = {
  tel: { label: 'Phone', cost: 1 },
  email: { label: 'Email', cost: 1 },
  username: { label: 'Username', cost: 1 },
  leak: { label: 'Leak Data Finder', cost: 1 },
  corporate: { label: 'Corporate', cost: 2 },
  verification: { label: 'Verification', cost: 1 },
} as const satisfies Record<string, { label: string; cost: number }>;
/** The detail kinds' families come from their declarations (kinds/details.ts). */
export type SearchFamily = keyof typeof OWN_FAMILIES | DetailFamily;
export const SEARCH_FAMILIES: Readonly<
  Record<SearchFamily, { readonly label: string; readonly cost: number }>
> = {
  tel: OWN_FAMILIES.tel,
  email: OWN_FAMILIES.email,
  username: OWN_FAMILIES.username,
  leak: OWN_FAMILIES.leak,
  ...(Object.fromEntries(
    DETAIL_FAMILIES.map((kind) => [kind, { label: DETAIL_FACTS[kind].label, cost: DETAIL_FACTS[kind].cost }]),
  ) as Record<DetailFamily, { label: string; cost: number }>),
  corporate: OWN_FAMILIES.corporate,
  verification: OWN_FAMILIES.verification,
};

/**
 * Kinds priced apart from their family: the default, and the variable `COST_<TYPE>` that sets it.
 * (The credit report is dearer than the other corporate searches.)
 */
export const SEARCH_KIND_PRICES = {
  'corporate:credit_report': 5,
} as const satisfies Partial<Record<string, number>>;

/** Every paid search kind. */
export type SearchKind =
  | Exclude<SearchFamily, 'corporate' | 'verification'>
  | `corporate:${CorporateTypeKey}`
  | `verification:${VerificationTypeKey}`;

/**
 * The phone, e-mail and username lookups: one query value, many sources, one answer (a merged profile
 * for a phone or an address; the accounts found for a username).
 */
export type LookupKind = Extract<SearchKind, 'tel' | 'email' | 'username'>;
/** The lookups whose answer is one merged profile of a person: a phone number's and an address's. */
export type ProfileKind = Extract<LookupKind, 'tel' | 'email'>;
/** The detail lookups of the results page's modals: one source, keyed by the kind itself. */
export type DetailKind = DetailFamily;
/** The corporate and verification searches. */
export type IntelKind = Extract<SearchKind, `${'corporate' | 'verification'}:${string}`>;
/** The kinds an upstream provider answers: all but the leak search, which reads the local index. */
export type ProviderKind = Exclude<SearchKind, 'leak'>;

export const LOOKUP_KINDS = ['tel', 'email', 'username'] as const satisfies readonly LookupKind[];
export const DETAIL_KINDS: readonly DetailKind[] = DETAIL_FAMILIES;

/** The families whose searches each have a type, stored as `<family>:<type>`. */
const FAMILY_TYPES: Partial<Record<SearchFamily, readonly string[]>> = {
  corporate: CORPORATE_TYPE_KEYS,
  verification: VERIFICATION_TYPE_KEYS,
};

/** Every search kind, in the order of the families above. */
export const SEARCH_KINDS = (Object.keys(SEARCH_FAMILIES) as SearchFamily[]).flatMap(
  (family) => FAMILY_TYPES[family]?.map((type) => `${family}:${type}`) ?? [family],
) as readonly SearchKind[];

const isIntelKind = (kind: SearchKind): kind is IntelKind => kind.includes(':');
export const INTEL_KINDS: readonly IntelKind[] = SEARCH_KINDS.filter(isIntelKind);

const KINDS = new Set<string>(SEARCH_KINDS);
export const isSearchKind = (value: unknown): value is SearchKind =>
  typeof value === 'string' && KINDS.has(value);

/** The family of a kind: 'corporate:pan_to_uan' → 'corporate', 'tel' → 'tel'. */
export const searchFamily = (kind: SearchKind): SearchFamily => kind.split(':', 1)[0] as SearchFamily;

/** The history label of a kind's family ('Phone', 'Corporate', ...). */
export const searchKindLabel = (kind: SearchKind): string => SEARCH_FAMILIES[searchFamily(kind)].label;

type ApartType = keyof typeof SEARCH_KIND_PRICES extends `${string}:${infer T}` ? T : never;
/** The environment variables that set prices: COST_TEL, ..., COST_CREDIT_REPORT. */
export type CostVariable = `COST_${Uppercase<SearchFamily | ApartType>}`;

/** The environment variable that prices a kind: its own if it is priced apart, else its family's. */
export function costVariable(kind: SearchKind): CostVariable {
  const name = Object.hasOwn(SEARCH_KIND_PRICES, kind) ? kind.split(':')[1]! : searchFamily(kind);
  return `COST_${name.toUpperCase()}` as CostVariable;
}

/** Every price variable and its default, e.g. COST_TEL → 1, COST_CREDIT_REPORT → 5. */
export const COST_DEFAULTS = Object.fromEntries([
  ...Object.entries(SEARCH_FAMILIES).map(([family, { cost }]) => [`COST_${family.toUpperCase()}`, cost]),
  ...Object.entries(SEARCH_KIND_PRICES).map(([kind, cost]) => [costVariable(kind as SearchKind), cost]),
]) as Readonly<Record<CostVariable, number>>;
