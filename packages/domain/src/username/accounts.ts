/**
 * A vendor's account search as a source of the username lookup (`pseudonymData`): the accounts a
 * vendor says belong to the name, one per site it found one on. Unlike the site check it says nothing
 * about the sites where it found none; an answer with no account is "no record" (`not_found`).
 */

/** One account the vendor found. */
export interface VendorAccount {
  /** The site or service, as the vendor names it ('GitHub'). */
  site: string;
  /** The account's name there, when the vendor gives it. */
  username: string | null;
  /** The profile address, when the vendor gives one (http or https only). */
  url: string | null;
  /** When the vendor reported it (ISO 8601). */
  found_at: string;
}

/** What the vendor's account search answers for one username (`pseudonymData`). */
export interface AccountSearchAnswer {
  /** The vendor's id of the search, to find it again on its side. */
  search_id: string;
  /** The accounts found, in the order the vendor reported them. */
  accounts: VendorAccount[];
  /**
   * False when the vendor's search had not finished by the lookup's deadline, or ended failed: the
   * accounts are those it had reported by then.
   */
  complete: boolean;
}

/** A stored payload that is an account-search answer. */
export const isAccountSearchAnswer = (value: unknown): value is AccountSearchAnswer =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AccountSearchAnswer).search_id === 'string' &&
  Array.isArray((value as AccountSearchAnswer).accounts);

/** What an account search that found nothing says, as its source's message. */
export const ACCOUNT_SEARCH_NOTHING_FOUND = 'No account found by the account search.';

/**
 * A site's id as the site catalogue makes one from its name ('GitHub' → 'github', 'Ask Fedora' →
 * 'ask-fedora'): how a vendor's account is matched with the site check's account on the same site.
 */
export const siteIdOfName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
