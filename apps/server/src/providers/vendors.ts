import type { z } from 'zod';
import { gravatar } from './http/gravatar.ts';
import { hibp } from './http/hibp.ts';
import { hlrLookups } from './http/hlr-lookups.ts';
import { kyc } from './http/kyc.ts';
import { osintly } from './http/osintly.ts';
import { pdl } from './http/pdl.ts';
import { twilio } from './http/twilio.ts';
import { leakVendorVariables } from './leak-search.ts';
import type { Vendor } from './vendor.ts';

/**
 * Every vendor adapter the server knows, one line each. A vendor runs when its variables are set;
 * a source it answers then is live. docs/providers.md lists them with their variables.
 */
// biome-ignore lint/suspicious/noExplicitAny: each vendor's settings type is its own
export const VENDORS: readonly Vendor<any, any>[] = [hibp, kyc, hlrLookups, twilio, gravatar, pdl, osintly];

/** The variables of every vendor (leak-search vendors too), for the README check and the
 * misspelt-setting check of config.ts: name → description. */
export function vendorVariables(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const vendor of VENDORS) {
    for (const [name, schema] of Object.entries(vendor.env.shape))
      out[name] = (schema as z.ZodType).description ?? '';
    out[`${vendor.prefix}_COST_PER_CALL`] = `Price of one ${vendor.name} call, in ${vendor.currency} (0).`;
  }
  return { ...out, ...leakVendorVariables() };
}
