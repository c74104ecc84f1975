/**
 * The leak-search vendors the Leak Data Finder can federate with, one line each, and the searchers of
 * those the environment switches on. The contract they follow is in leak-vendor.ts.
 */
import type { z } from 'zod';
import { ConfigError } from '../config-error.ts';
import { dehashed } from './http/dehashed.ts';
import { leakcheck } from './http/leakcheck.ts';
import type { LeakSearcher, LeakVendor } from './leak-vendor.ts';
import { costPerCall } from './vendor.ts';

export type {
  LeakQueryRow,
  LeakSearcher,
  LeakSearchQuery,
  LeakVendor,
  VendorLeakRecord,
} from './leak-vendor.ts';

/** Every leak-search vendor the server knows. */
// biome-ignore lint/suspicious/noExplicitAny: each vendor's settings type is its own
export const LEAK_VENDORS: readonly LeakVendor<any, any>[] = [leakcheck, dehashed];

/** The variables of every leak-search vendor, for the README check and docs: name → description. */
export function leakVendorVariables(vendors: readonly LeakVendor[] = LEAK_VENDORS): Record<string, string> {
  const out: Record<string, string> = {};
  for (const vendor of vendors) {
    for (const [name, schema] of Object.entries(vendor.env.shape))
      out[name] = (schema as z.ZodType).description ?? '';
    out[`${vendor.prefix}_COST_PER_CALL`] = `Price of one ${vendor.name} call, in ${vendor.currency} (0).`;
  }
  return out;
}

/**
 * The searchers of the leak-search vendors the environment switches on (none by default); a bad
 * variable stops the start, as it does for the other vendors.
 */
export function leakSearchersFrom(
  env: Readonly<Record<string, string | undefined>>,
  // biome-ignore lint/suspicious/noExplicitAny: each vendor's settings type is its own
  vendors: readonly LeakVendor<any, any>[] = LEAK_VENDORS,
): LeakSearcher[] {
  const problems: string[] = [];
  const searchers: LeakSearcher[] = [];
  for (const vendor of vendors) {
    const parsed = vendor.env.safeParse(env);
    const cost = costPerCall.safeParse(env[`${vendor.prefix}_COST_PER_CALL`]);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
      continue;
    }
    if (!cost.success) {
      problems.push(`${vendor.prefix}_COST_PER_CALL: ${cost.error.issues[0]?.message}`);
      continue;
    }
    const settings = vendor.configure(parsed.data);
    if (settings === undefined) continue;
    const info = { id: vendor.id, name: vendor.name, costPerCall: cost.data, currency: vendor.currency };
    searchers.push(vendor.searcher(settings, info));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return searchers;
}
