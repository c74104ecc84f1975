/**
 * Every user-visible text of the product spec, written once. The web and the server import these;
 * tests compare them with strings copied from the spec, so a typo here fails a test. The texts live
 * per capability in messages/; `messages` is their union, so every `messages.x.y` reads as before.
 */
import { accountabilityTexts } from './messages/accountability.ts';
import { adminTexts } from './messages/admin.ts';
import { apiKeysTexts } from './messages/api-keys.ts';
import { authTexts } from './messages/auth.ts';
import { bulkJobTexts } from './messages/bulk-jobs.ts';
import { bulkPageTexts } from './messages/bulk-page.ts';
import { capturesTexts } from './messages/captures.ts';
import { casesTexts } from './messages/cases.ts';
import { intelTexts } from './messages/intel.ts';
import { leaksTexts } from './messages/leaks.ts';
import { lookupTexts } from './messages/lookup.ts';
import { poolsTexts } from './messages/pools.ts';
import { reviewsTexts } from './messages/reviews.ts';
import { securityTexts } from './messages/security.ts';
import { siteTexts } from './messages/site.ts';
import { unitsTexts } from './messages/units.ts';
import { watchlistTexts } from './messages/watchlists.ts';

export const messages = {
  ...siteTexts,
  ...authTexts,
  ...lookupTexts,
  ...intelTexts,
  ...leaksTexts,
  ...accountabilityTexts,
  ...casesTexts,
  ...capturesTexts,
  ...adminTexts,
  ...securityTexts,
  ...bulkPageTexts,
  ...watchlistTexts,
  ...apiKeysTexts,
  ...bulkJobTexts,
  ...unitsTexts,
  ...poolsTexts,
  ...reviewsTexts,
} as const;

/** Laravel-style field messages: the spec's browser shows the first message of each field. */
export const fieldMessages = {
  required: (field: string) => `The ${field} field is required.`,
  string: (field: string) => `The ${field} field must be a string.`,
  email: (field: string) => `The ${field} field must be a valid email address.`,
  max: (field: string, max: number) => `The ${field} field must not be greater than ${max} characters.`,
  min: (field: string, min: number) => `The ${field} field must be at least ${min} characters.`,
  confirmed: (field: string) => `The ${field} field confirmation does not match.`,
  taken: (field: string) => `The ${field} has already been taken.`,
  digits: (field: string, n: number) => `The ${field} field must be ${n} digits.`,
  notAllowed: (field: string) => `The ${field} field is not allowed.`,
} as const;
