/**
 * The rows of a username lookup's export (export-file.ts writes them as CSV, JSON or XLSX): one row per
 * site that was found, blocked, failed or not checked, in the answer's order (found first), each with
 * its evidence where it has one (final URL, HTTP status, page title, when, SHA-256 of the body and its
 * size) and its reason otherwise. The sites that said there is no such account are counted in the
 * header, not listed (as the results page and the PDF count them). The accounts a vendor's account
 * search reported follow, one row each, in state `reported_by_vendor`, the vendor named in the reason.
 */
import {
  type AccountSearchAnswer,
  isAccountSearchAnswer,
  isRecord,
  isSiteCheckAnswer,
  SITE_STATES,
  type SiteCheckAnswer,
  SOURCE_LONG_LABELS,
} from '@footprint/domain';

/** The site check's source key in a username lookup's stored result. */
const SITE_CHECK_SOURCE = 'sitesData';
/** A vendor's account search's source key in a username lookup's stored result. */
const ACCOUNT_SEARCH_SOURCE = 'pseudonymData';

/** The state of a row the vendor's account search reported (the site check did not say it). */
export const VENDOR_REPORTED = 'reported_by_vendor';

export const SITE_EXPORT_COLUMNS = [
  'site',
  'site_id',
  'category',
  'state',
  'profile_url',
  'final_url',
  'http_status',
  'title',
  'checked_at',
  'sha256',
  'bytes',
  'reason',
] as const;

/** Columns the server wrote (status, times, hashes, sizes): never neutralised in the CSV. */
export const PLAIN_SITE_COLUMNS: ReadonlySet<number> = new Set([6, 8, 9, 10]);

export interface SiteRow {
  site: string;
  site_id: string;
  category: string;
  state: string;
  profile_url: string;
  final_url: string;
  http_status: number | null;
  title: string;
  checked_at: string;
  sha256: string;
  bytes: number | null;
  reason: string;
}

/** The site check's answer in a stored username result, if it answered. */
export function siteCheckOf(result: unknown): SiteCheckAnswer | null {
  const payloads = isRecord(result) && isRecord(result.payloads) ? result.payloads : {};
  const answer = payloads[SITE_CHECK_SOURCE];
  return isSiteCheckAnswer(answer) ? answer : null;
}

/** One row per listed site (every state but not_found), in the answer's order. */
export function siteRows(answer: SiteCheckAnswer | null): SiteRow[] {
  if (!answer) return [];
  return answer.sites.map((site) => ({
    site: site.name,
    site_id: site.site,
    category: site.category,
    state: site.state,
    profile_url: site.url,
    final_url: site.evidence?.final_url ?? '',
    http_status: site.evidence?.status ?? null,
    title: site.evidence?.title ?? '',
    checked_at: site.evidence?.checked_at ?? site.checked_at,
    sha256: site.evidence?.sha256 ?? '',
    bytes: site.evidence?.bytes ?? null,
    reason: site.reason ?? '',
  }));
}

/** A vendor's account search in a stored username result, with the vendor it is attributed to. */
export function accountSearchOf(result: unknown): { vendor: string; answer: AccountSearchAnswer } | null {
  const payloads = isRecord(result) && isRecord(result.payloads) ? result.payloads : {};
  const answer = payloads[ACCOUNT_SEARCH_SOURCE];
  if (!isAccountSearchAnswer(answer)) return null;
  const status = isRecord(result) && isRecord(result.status) ? result.status[ACCOUNT_SEARCH_SOURCE] : null;
  const vendor =
    isRecord(status) && typeof status.vendor === 'string'
      ? status.vendor
      : (SOURCE_LONG_LABELS[ACCOUNT_SEARCH_SOURCE] ?? 'Account search');
  return { vendor, answer };
}

/** One row per account the vendor reported, after the site check's. */
export function vendorRows(search: { vendor: string; answer: AccountSearchAnswer } | null): SiteRow[] {
  if (!search) return [];
  return search.answer.accounts.map((account) => ({
    site: account.site,
    site_id: '',
    category: '',
    state: VENDOR_REPORTED,
    profile_url: account.url ?? '',
    final_url: '',
    http_status: null,
    title: '',
    checked_at: account.found_at,
    sha256: '',
    bytes: null,
    reason: `Reported by ${search.vendor}${account.username ? ` as ${account.username}` : ''}; not checked by Footprint`,
  }));
}

/** A row's cells in the columns' order. */
export const siteCells = (row: SiteRow): unknown[] => SITE_EXPORT_COLUMNS.map((column) => row[column]);

/** What the header adds for a username lookup: the catalogue covered and the sites per state. */
export function siteHeader(answer: SiteCheckAnswer | null, rows: number): Array<[string, string]> {
  if (!answer) return [['site_rows', String(rows)]];
  return [
    ['username', answer.username],
    ['catalogue_sites', String(answer.catalogue.sites)],
    ['catalogue_scope', String(answer.catalogue.scope)],
    ...SITE_STATES.map((state): [string, string] => [`sites_${state}`, String(answer.counts[state] ?? 0)]),
    ['checked_from', answer.started_at],
    ['checked_to', answer.finished_at],
    ['site_rows', String(rows)],
  ];
}
