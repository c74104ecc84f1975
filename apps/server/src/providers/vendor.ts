/**
 * A vendor: one documented API that answers one or more sources, switched on by its own environment
 * variables. Each adapter in providers/http/ exports one `Vendor`; src/registry.ts lists them, one
 * line each, and builds the providers of those the environment configures.
 */
import { z } from 'zod';
import type { Provider, VendorInfo } from './types.ts';

export interface Vendor<S extends z.ZodObject = z.ZodObject, C = unknown> {
  /** Stable id, used in provider ids ('gravatar:zehefData') and metrics. */
  id: string;
  /** Its name on the source panel and the Providers screen. */
  name: string;
  /**
   * The prefix of its variables: `<PREFIX>_COST_PER_CALL` (price of one call, in `currency`) is read
   * for every vendor; the rest are in `env`.
   */
  prefix: string;
  /** ISO 4217 code of the vendor's prices. */
  currency: string;
  /** Its environment variables, each with `.describe()` (README.md and docs/providers.md list them). */
  env: S;
  /** Its settings from its parsed variables, or undefined when its switch (a key) is not set. */
  configure(env: z.infer<S>): C | undefined;
  /** The providers it runs, one per source it answers, each carrying `vendor`. */
  providers(config: C, vendor: VendorInfo): Provider[];
}

/** Declares a vendor with its types checked (configure's result is what providers receives). */
export const defineVendor = <S extends z.ZodObject, C>(vendor: Vendor<S, C>): Vendor<S, C> => vendor;

/** A base URL variable with the vendor's documented default; tests point it at a fake on 127.0.0.1. */
export const baseUrl = (fallback: string) =>
  z
    .url()
    .default(fallback)
    .transform((url) => url.replace(/\/+$/, ''));

/** An optional secret: unset and empty are the same (the vendor stays off). */
export const secret = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined));

/** A price per call, in the vendor's currency. */
export const costPerCall = z.coerce.number().min(0).max(1_000_000).default(0);
