/**
 * Every paid search kind, declared once: what its stored result is (its shape), what it is called in
 * history and on a case's timeline, which report renders it and how a stored result is answered again
 * when reopened. The server's routes, history, reports, case timeline and exports, and the web's detail
 * modals, read these declarations; none of them switches on a kind's name.
 *
 * A kind's shape says how its result is stored and read:
 * - `phone`, `email`: one merged profile from many sources (`{ payloads, errors, status }`);
 * - `username`: the accounts found for a name, from the site check and any username vendor (the same
 *   `{ payloads, errors, status }`; `sitesData` holds a `SiteCheckAnswer`);
 * - `detail`: one source's vendor envelope, keyed by the kind (RC, UPI, challan; kinds/details.ts);
 * - `leak`: the page of leak records the search answered;
 * - `intel`: the vendor's record of a corporate or verification search.
 */
import {
  type DetailKind,
  INTEL_KINDS,
  type IntelKind,
  SEARCH_FAMILIES,
  SEARCH_KINDS,
  type SearchKind,
  searchFamily,
} from '../catalogue/kinds.ts';
import { SOURCE_LABELS, type SourceStatus } from '../catalogue/sources.ts';
import { intelTexts } from '../messages/intel.ts';
import { displayPhone } from '../phone-display.ts';
import { DETAIL_FAMILIES, detailFacts } from './details.ts';
import { intelExample, type KindExample } from './examples.ts';

export type { KindExample };

export type KindShape = 'phone' | 'email' | 'username' | 'detail' | 'leak' | 'intel';

/** What a phone, e-mail or detail lookup stores in `lookups.result`. */
export interface StoredLookupResult {
  payloads: Record<string, unknown>;
  errors: Record<string, string>;
  /** What became of every source; absent from results stored before it was kept. */
  status?: Record<string, SourceStatus>;
}

/** What the timeline and the case page know of a search. */
export interface SearchOfKind {
  /** The normalized query (tel: the digits with the country code). */
  query: string;
  /** The query as typed (intel: 'RC Number: MH12AB1234'). */
  query_typed: string;
}

export interface SearchKindDeclaration {
  readonly kind: SearchKind;
  readonly shape: KindShape;
  /** The history label of the kind's family ('Phone', 'RC', 'Corporate'). */
  readonly label: string;
  /**
   * The report that renders a stored result: the lookup report (POST /api/generate-report; phone and
   * e-mail also have the AI report, a username its own template), a detail kind's own, or none.
   */
  readonly report: 'lookup' | 'detail' | null;
  /**
   * The case page's pivot into this kind: the entity types whose values lead to it, what its dialog
   * calls it, whether only live accounts may run it, and the request for a value (without the case
   * reference, which the pivot adds).
   */
  readonly pivot?: {
    readonly entities: readonly string[];
    /**
     * Offered beside a lookup profile's values of those entities too, not only on a case's page: a
     * username on a phone or e-mail profile leads to the username lookup.
     */
    readonly fromProfile?: true;
    action(entity: string): string;
    readonly liveOnly: boolean;
    request(value: string, entity: string): KindExample;
  };
  /**
   * Who may run it: live accounts only (trial accounts never reach corporate and verification
   * sources), and the API-key scope that lets a script run it.
   */
  readonly access: { readonly liveOnly: boolean; readonly scope: 'lookups' | 'leaks' | 'intel' };
  /** The endpoint of its report, when it has one of its own (a detail kind's). */
  readonly reportPath?: string;
  /** The endpoint that runs the search, and a request to it for a sandbox demo subject. */
  readonly request: { readonly method: 'GET' | 'POST'; readonly path: string };
  readonly example: KindExample;
  /** The search in words, as the case timeline and bundle say it before ' by <name>'. */
  describe(search: SearchOfKind): string;
  /**
   * A stored result in the shape its search endpoint answered it, without `credits`, with `meta` (the
   * source statuses, when the sources answered, what a free repeat reused). Results that are not in
   * the stored lookup shape come back as they are.
   */
  reopen(result: unknown, meta: Record<string, unknown>): unknown;
}

/** A typed query in one line of at most `max` characters (control characters and runs of space folded). */
const cap = (value: string, max: number) => {
  const clean = value
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

export const isStoredLookupResult = (value: unknown): value is StoredLookupResult =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredLookupResult).payloads === 'object' &&
  (value as StoredLookupResult).payloads !== null &&
  typeof (value as StoredLookupResult).errors === 'object' &&
  (value as StoredLookupResult).errors !== null;

/** A detail lookup answers `data` as the vendor envelope (spec §7: the browser reads data.data). */
export const detailEnvelope = (
  payloads: Record<string, unknown>,
  errors: Record<string, string>,
  source: string,
) =>
  payloads[source] ?? {
    data: null,
    status_code: 404,
    success: false,
    message: errors[source] ?? 'No record found.',
    message_code: 'not_found',
  };

/** Builds the reopening of a stored lookup result; anything else is answered as stored. */
const reopenStored =
  (answer: (stored: StoredLookupResult) => Record<string, unknown>) =>
  (result: unknown, meta: Record<string, unknown>): unknown =>
    isStoredLookupResult(result) ? { ...answer(result), ...meta } : result;

const asStored = (result: unknown) => result;

/** The endpoints of the two intel families (spec §7). */
export const INTEL_PATHS = {
  corporate: '/api/corporate-intelligence',
  verification: '/api/verification-id',
} as const satisfies Record<'corporate' | 'verification', string>;

const get = (path: string, query: Record<string, string>): KindExample => ({ method: 'GET', path, query });
const post = (path: string, body: Record<string, unknown>): KindExample => ({ method: 'POST', path, body });

const phone: SearchKindDeclaration = {
  kind: 'tel',
  shape: 'phone',
  label: SEARCH_FAMILIES.tel.label,
  report: 'lookup',
  access: { liveOnly: false, scope: 'lookups' },
  request: { method: 'GET', path: '/api/tel' },
  example: get('/api/tel', { number: '919876543210' }),
  pivot: {
    entities: ['phone'],
    action: () => 'Phone lookup',
    liveOnly: false,
    request: (value) => get('/api/tel', { number: value.replace(/\D/g, '') }),
  },
  describe: (search) => `Phone lookup of ${displayPhone(search.query)}`,
  reopen: reopenStored(({ payloads, errors }) => ({ ...payloads, errors })),
};

const email: SearchKindDeclaration = {
  kind: 'email',
  shape: 'email',
  label: SEARCH_FAMILIES.email.label,
  report: 'lookup',
  access: { liveOnly: false, scope: 'lookups' },
  request: { method: 'GET', path: '/api/email' },
  example: get('/api/email', { email: 'rich.demo@example.test' }),
  pivot: {
    entities: ['email'],
    action: () => 'E-mail lookup',
    liveOnly: false,
    request: (value) => get('/api/email', { email: value }),
  },
  describe: (search) => `E-mail lookup of ${search.query}`,
  reopen: reopenStored(({ payloads, errors }) => ({ data: { ...payloads, errors } })),
};

const username: SearchKindDeclaration = {
  kind: 'username',
  shape: 'username',
  label: SEARCH_FAMILIES.username.label,
  // POST /api/generate-report draws its own template (the sites found, with their evidence).
  report: 'lookup',
  access: { liveOnly: false, scope: 'lookups' },
  request: { method: 'GET', path: '/api/username' },
  example: get('/api/username', { username: 'rich.demo' }),
  pivot: {
    entities: ['username'],
    fromProfile: true,
    action: () => 'Username lookup',
    liveOnly: false,
    request: (value) => get('/api/username', { username: value.replace(/^@/, '') }),
  },
  describe: (search) => `Username lookup of ${cap(search.query_typed, 80)}`,
  reopen: reopenStored(({ payloads, errors }) => ({ ...payloads, errors })),
};

const leak: SearchKindDeclaration = {
  kind: 'leak',
  shape: 'leak',
  label: SEARCH_FAMILIES.leak.label,
  report: null,
  access: { liveOnly: false, scope: 'leaks' },
  request: { method: 'POST', path: '/api/leak-data-finder' },
  example: post('/api/leak-data-finder', { fields: [{ type: 'name', value: 'Rohan Deshmukh' }] }),
  pivot: {
    entities: ['name'],
    action: (entity) => `Leak search for this ${entity}`,
    liveOnly: false,
    request: (value, entity) => post('/api/leak-data-finder', { fields: [{ type: entity, value }] }),
  },
  describe: (search) => `Leak Data Finder search for ${cap(search.query_typed, 120)}`,
  reopen: asStored,
};

const detail = (kind: DetailKind): SearchKindDeclaration => ({
  kind,
  shape: 'detail',
  label: detailFacts(kind).label,
  report: 'detail',
  reportPath: `/api/generate-${kind}-report`,
  access: { liveOnly: false, scope: 'lookups' },
  request: { method: 'POST', path: detailFacts(kind).path },
  example: post(detailFacts(kind).path, { [detailFacts(kind).field]: detailFacts(kind).example }),
  ...detailPivot(kind),
  describe: (search) => `${detailFacts(kind).label} lookup of ${search.query}`,
  reopen: reopenStored(({ payloads, errors }) => ({ data: detailEnvelope(payloads, errors, kind) })),
});

function detailPivot(kind: DetailKind): Pick<SearchKindDeclaration, 'pivot'> {
  const facts = detailFacts(kind);
  const entity = facts.entity;
  if (!entity) return {};
  return {
    pivot: {
      entities: [entity],
      action: () => facts.pivotAction ?? facts.title,
      liveOnly: false,
      request: (value) => post(facts.path, { [facts.field]: value }),
    },
  };
}

/** The intel kinds a value of a case leads to: a PAN to its verification. */
const INTEL_PIVOTS: Partial<Record<IntelKind, { entity: string; action: string; field: string }>> = {
  'verification:pan': { entity: 'pan', action: 'PAN verification', field: 'pan' },
};

const intel = (kind: IntelKind): SearchKindDeclaration => {
  const area = searchFamily(kind) as keyof typeof INTEL_PATHS;
  const label = SEARCH_FAMILIES[area].label;
  const type = kind.slice(area.length + 1);
  return {
    kind,
    shape: 'intel',
    label,
    report: null,
    access: { liveOnly: true, scope: 'intel' },
    request: { method: 'POST', path: INTEL_PATHS[area] },
    example: post(INTEL_PATHS[area], { type, data: intelExample(kind) }),
    ...intelPivot(kind, INTEL_PATHS[area], type),
    describe: (search) => `${label} search (${cap(search.query_typed, 120)})`,
    reopen: asStored,
  };
};

function intelPivot(kind: IntelKind, path: string, type: string): Pick<SearchKindDeclaration, 'pivot'> {
  const pivot = INTEL_PIVOTS[kind];
  if (!pivot) return {};
  return {
    pivot: {
      entities: [pivot.entity],
      action: () => pivot.action,
      // Trial accounts never reach a corporate or verification source.
      liveOnly: true,
      request: (value) => post(path, { type, data: { [pivot.field]: value } }),
    },
  };
}

/** Every kind's declaration, in the catalogue's order. */
export const SEARCH_KIND_DECLARATIONS: Readonly<Record<SearchKind, SearchKindDeclaration>> =
  Object.fromEntries(
    [phone, email, username, leak, ...DETAIL_FAMILIES.map(detail), ...INTEL_KINDS.map(intel)].map(
      (declaration) => [declaration.kind, declaration],
    ),
  ) as Record<SearchKind, SearchKindDeclaration>;

/** The declaration of a stored kind; undefined for a value that names no kind. */
export const declarationOf = (kind: string): SearchKindDeclaration | undefined =>
  Object.hasOwn(SEARCH_KIND_DECLARATIONS, kind) ? SEARCH_KIND_DECLARATIONS[kind as SearchKind] : undefined;

/** The kinds of one shape, in the catalogue's order. */
export const kindsOfShape = (shape: KindShape): SearchKind[] =>
  SEARCH_KINDS.filter((kind) => SEARCH_KIND_DECLARATIONS[kind].shape === shape);

/** The kinds whose stored result a report renders ('lookup': the phone, e-mail and username reports). */
export const kindsWithReport = (report: 'lookup' | 'detail'): SearchKind[] =>
  SEARCH_KINDS.filter((kind) => SEARCH_KIND_DECLARATIONS[kind].report === report);

/**
 * A source key's name for people, wherever a source is listed (the providers page, exports):
 * 'wpData' → 'WhatsApp', 'rc' → 'RC Details', 'corporate:corporate_gstin' → 'Corporate · GSTIN
 * Details'. A key the catalogue does not hold is shown as it is.
 */
export function sourceName(source: string): string {
  if (Object.hasOwn(SOURCE_LABELS, source)) return SOURCE_LABELS[source] ?? source;
  if (!Object.hasOwn(SEARCH_KIND_DECLARATIONS, source)) return source;
  const declaration = SEARCH_KIND_DECLARATIONS[source as SearchKind];
  if (declaration.shape === 'detail') return detailFacts(source as DetailKind).title;
  const labels: Readonly<Record<string, string>> = intelTexts.intel.typeLabels;
  const type = labels[source.slice(source.indexOf(':') + 1)];
  return type ? `${declaration.label} · ${type}` : declaration.label;
}
