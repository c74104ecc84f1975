/**
 * A leak-search vendor: a documented breach-search API that the Leak Data Finder queries alongside its
 * own index (federation). The leak search is not a provider kind (its answer is a list of records, not
 * a source payload), so these vendors have their own contract, shaped like `Vendor` (vendor.ts): each
 * adapter in providers/http/ exports one `LeakVendor`, and leak-search.ts turns the configured ones into
 * searchers.
 */
import type { LeakFieldType } from '@footprint/domain';
import type { z } from 'zod';
import type { VendorInfo } from './types.ts';

/** One row of the user's query, as a vendor receives it. */
export interface LeakQueryRow {
  type: LeakFieldType;
  /** As the user typed it, trimmed (a vendor may want the country code of a phone number). */
  raw: string;
  /**
   * Normalized as the local index is: lower-case e-mail or username, the last 10 digits of a phone,
   * the name's tokens joined by one space.
   */
  value: string;
}

/** The rows of one leak search; they combine with AND. */
export interface LeakSearchQuery {
  rows: readonly LeakQueryRow[];
}

/**
 * One record a vendor found, with the vendor's values as lists (some vendors give several e-mails or
 * names per record). Never a password, a password hash or any other credential: adapters drop them.
 */
export interface VendorLeakRecord {
  source: { name: string | null; breach_date: string | null };
  name: string[];
  email: string[];
  phone: string[];
  username: string[];
  address: string[];
  /** Every other documented field the vendor gave, as text. */
  other: Record<string, string>;
}

/** A configured leak-search vendor, ready to be asked. */
export interface LeakSearcher {
  vendor: VendorInfo;
  /** The row types it can search by; a query with none of them is not sent (status `unsupported`). */
  searchable: readonly LeakFieldType[];
  /** How long the leak search waits for it before answering without it. */
  timeoutMs: number;
  /**
   * The records the vendor holds for the query ([] for its documented "no match"). Throws the
   * providers' errors (types.ts): misconfigured, rate limited, failed. Stops work when `signal` aborts.
   */
  search(query: LeakSearchQuery, signal: AbortSignal): Promise<VendorLeakRecord[]>;
}

export interface LeakVendor<S extends z.ZodObject = z.ZodObject, C = unknown> {
  /** Stable id, used in record ids ('leakcheck:…'), stored source errors and logs. */
  id: string;
  /** Its name on record labels and the per-origin status line. */
  name: string;
  /** The prefix of its variables; `<PREFIX>_COST_PER_CALL` is read for every vendor, the rest are in `env`. */
  prefix: string;
  /** ISO 4217 code of the vendor's prices. */
  currency: string;
  /** Its environment variables, each with `.describe()` (README.md and docs/providers.md list them). */
  env: S;
  /** Its settings from its parsed variables, or undefined when its switch (a key) is not set. */
  configure(env: z.infer<S>): C | undefined;
  /** The searcher it runs with those settings. */
  searcher(config: C, vendor: VendorInfo): LeakSearcher;
}

/** Declares a leak-search vendor with its types checked (configure's result is what searcher receives). */
export const defineLeakVendor = <S extends z.ZodObject, C>(vendor: LeakVendor<S, C>): LeakVendor<S, C> =>
  vendor;
