import {
  type AccountSearchAnswer,
  isAccountSearchAnswer,
  SOURCE_LABELS,
  type UsernameLookupResponse,
  type VendorAccount,
} from '@footprint/domain';

/** The source key of a vendor's account search in a username answer. */
const ACCOUNT_SEARCH_SOURCE = 'pseudonymData';

/** A vendor's account search as the results page shows it: its accounts, attributed to the vendor. */
export interface VendorAccounts {
  /** Who reported them: the vendor's name, or the source's when the answer does not name one. */
  vendor: string;
  accounts: VendorAccount[];
  /** False when the vendor's search ran out of time: the accounts reported by then. */
  complete: boolean;
}

const isAccount = (value: unknown): value is VendorAccount =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as VendorAccount).site === 'string' &&
  typeof (value as VendorAccount).found_at === 'string';

/**
 * The vendor's account search of a username answer, when it reported at least one account (no record
 * and a failure are the source panel's to tell); accounts of a broken shape are left out.
 */
export function vendorAccountsOf(results: UsernameLookupResponse): VendorAccounts | null {
  const answer: unknown = (results as { pseudonymData?: AccountSearchAnswer | null }).pseudonymData;
  if (!isAccountSearchAnswer(answer)) return null;
  const accounts = answer.accounts.filter(isAccount);
  if (accounts.length === 0) return null;
  const named = results.source_status?.[ACCOUNT_SEARCH_SOURCE]?.vendor;
  return {
    vendor: named?.trim() || (SOURCE_LABELS[ACCOUNT_SEARCH_SOURCE] ?? 'Account search'),
    accounts,
    complete: answer.complete !== false,
  };
}
