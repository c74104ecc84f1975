/**
 * The detail lookups (spec §2.5): a search answered whole by one source, keyed by the kind itself, that
 * the results page opens in a modal from a value of the merged profile and prints as its own PDF. RC,
 * UPI and challan are the three today.
 *
 * Each is declared once, here: its history label and price, its endpoint and the body field that names
 * the record, how that value is compared and stored, what the modal, the PDF and the case page call it,
 * and which values of a profile offer it. The catalogue's kinds, the request schemas, the routes, the
 * report endpoints, the history and case presenters and the web's modals and buttons all read this
 * table. This file is a leaf (no imports) so that every other part of the domain can build on it.
 */

/** Registration numbers are compared and stored upper-case without separators. */
export const normalizeRc = (value: string): string => value.replace(/[\s-]/g, '').toUpperCase();

/** Indian vehicle registration, e.g. MH12AB1234 (spaces and dashes tolerated, stored without). */
export const RC_PATTERN = /^[A-Za-z0-9 -]{4,20}$/;
/** A UPI virtual payment address, e.g. name@bank. */
export const UPI_PATTERN = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,64}$/;

export interface DetailKindFacts {
  /** The history label, and the {TYPE} of '⚠ No {TYPE} data available.' */
  readonly label: string;
  /** The default price in credits (`COST_<KIND>` overrides it). */
  readonly cost: number;
  /** POST endpoint of the lookup (spec §7). Its report is POST /api/generate-<kind>-report. */
  readonly path: string;
  /** The body field that names the record (spec §7), and its format and longest length. */
  readonly field: string;
  readonly pattern: RegExp;
  readonly max: number;
  /** How the value is compared and stored (the lookup's `query`). */
  readonly normalize: (value: string) => string;
  /** The modal's and the PDF's title, and the label of its button on a profile value. */
  readonly title: string;
  /** The sandbox's demo value (README, "Demo identities"): the API reference's example. */
  readonly example: string;
  /** What the PDF's cover calls the value ('RC number'). */
  readonly idLabel: string;
  /**
   * The keys of the record (as the modal shows it) that name the value, the first present wins: the
   * report request sends the record, and the report is drawn from the stored lookup of that value.
   */
  readonly recordKeys: readonly string[];
  /** The heading of the record's rows in the PDF. */
  readonly recordTitle: string;
  /** What the API reference says the endpoint answers; what its report is of. */
  readonly summary: string;
  readonly reportOf: string;
  /** The web's message when the lookup fails (spec §8's wording, spelling included). */
  readonly failed: string;
  /** The case page's pivot: the entity type whose values lead to it, and what its dialog says. */
  readonly entity?: string;
  readonly pivotAction?: string;
  /** The merged profile's attribute, and the per-source profile section, whose values offer it. */
  readonly offeredBy: { readonly attribute: string; readonly section: string };
  /**
   * A record whose content is a list (the challans of an RC): the key of the list, what the page says
   * when the list is empty (the record then shows nothing), and the heading of the list's table.
   */
  readonly list?: { readonly key: string; readonly empty: string; readonly title: string };
}

export const DETAIL_FACTS = {
  rc: {
    label: 'RC',
    cost: 1,
    path: '/api/rcfull-details',
    field: 'id_number',
    pattern: RC_PATTERN,
    max: 40,
    normalize: normalizeRc,
    example: 'MH12FP1234',
    title: 'RC Details',
    idLabel: 'RC number',
    recordKeys: ['rc_number', 'id_number'],
    recordTitle: 'Vehicle registration record',
    summary: 'Vehicle registration (RC) details',
    reportOf: 'vehicle registration',
    failed: 'something went Wrong',
    entity: 'vehicle_rc',
    pivotAction: 'RC details',
    offeredBy: { attribute: 'Vehicles', section: 'rcNumbers' },
  },
  upi: {
    label: 'UPI',
    cost: 1,
    path: '/api/upifull-details',
    field: 'upi_id',
    pattern: UPI_PATTERN,
    max: 100,
    normalize: (value: string) => value.trim().toLowerCase(),
    example: 'rohan.deshmukh@oksbi',
    title: 'UPI Details',
    idLabel: 'UPI id',
    recordKeys: ['upi_id'],
    recordTitle: 'UPI record',
    summary: 'UPI id details',
    reportOf: 'UPI id',
    failed: 'something went Wrong',
    entity: 'upi',
    pivotAction: 'UPI details',
    offeredBy: { attribute: 'UPI', section: 'upiIds' },
  },
  challan: {
    label: 'Challan',
    cost: 1,
    path: '/api/rc-challan-details',
    field: 'rc_number',
    pattern: RC_PATTERN,
    max: 40,
    normalize: normalizeRc,
    example: 'MH12FP1234',
    title: 'Challan Details',
    idLabel: 'RC number',
    recordKeys: ['rc_number', 'id_number'],
    recordTitle: 'Summary',
    summary: 'Traffic challans of a vehicle',
    reportOf: 'challan',
    failed: 'Failed to fetch RC details',
    offeredBy: { attribute: 'Vehicles', section: 'rcNumbers' },
    list: { key: 'challan_details', empty: 'No data found on this RC number', title: 'Summary' },
  },
} as const satisfies Record<string, DetailKindFacts>;

export type DetailFamily = keyof typeof DETAIL_FACTS;

/** The detail kinds, in the order the catalogue lists them. */
export const DETAIL_FAMILIES = Object.keys(DETAIL_FACTS) as DetailFamily[];

/** The facts of a detail kind, typed as the interface (for code that treats every kind alike). */
export const detailFacts = (kind: DetailFamily): DetailKindFacts => DETAIL_FACTS[kind];

/** The items of a record whose content is a list (challans); every record of another kind has none. */
export function detailListOf(kind: DetailFamily, record: unknown): Record<string, unknown>[] {
  const list = detailFacts(kind).list;
  if (!list || typeof record !== 'object' || record === null) return [];
  const items = (record as Record<string, unknown>)[list.key];
  return Array.isArray(items)
    ? items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];
}

/** A record whose content is a list shows nothing when the list is empty (an RC with no challans). */
export const detailListIsEmpty = (kind: DetailFamily, record: unknown): boolean =>
  detailFacts(kind).list !== undefined && detailListOf(kind, record).length === 0;
