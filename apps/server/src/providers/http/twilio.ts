/**
 * Twilio Lookup v2, Caller Name package: the CNAM name registered for a US number, the "Caller ID"
 * (tcData) of a phone lookup.
 *
 * What was checked against the vendor, and where:
 * - Request and answer, from Twilio's OpenAPI file (github.com/twilio/twilio-oai,
 *   spec/json/twilio_lookups_v2.json): `GET https://lookups.twilio.com/v2/PhoneNumbers/{PhoneNumber}`
 *   with `Fields=caller_name`; the answer carries `phone_number`, `country_code`, `valid`
 *   (false for an invalid number, still with 200: the "fetchInvalid" example), `validation_errors`
 *   and `caller_name` {`caller_name`, `caller_type`, `error_code`} (the "fetchCallerName" example).
 * - Coverage and billing, from twilio.com/docs/lookup/v2-api/caller-name: US carriers only; other
 *   numbers answer `caller_name: null` and are not billed; `caller_name` and `caller_type`
 *   (BUSINESS | CONSUMER) are null when not available.
 * - Credentials, from twilio.com/docs/usage/requests-to-twilio: HTTP Basic with an API key SID and
 *   secret (recommended) or the Account SID and auth token.
 * Not verified: when Lookup v2 answers 404 (treated as "no record") and whether 429 carries
 * Retry-After (read when present, by vendorFetch).
 */
import type { CallerIdData } from '@footprint/domain';
import { z } from 'zod';
import { type Provider, SourceNotFoundError, type VendorInfo } from '../types.ts';
import { baseUrl, defineVendor, secret } from '../vendor.ts';
import { parseVendorBody, vendorFetch } from './fetch-json.ts';

const VENDOR = 'Twilio';

/** One Lookup answer is about 1 KB. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface TwilioConfig {
  /** HTTP Basic user: an API key SID (SK…) or the Account SID (AC…). */
  username: string;
  /** HTTP Basic password: the API key's secret or the account's auth token. */
  password: string;
  baseUrl: string;
}

const callerName = z.object({
  caller_name: z.string().nullish(),
  caller_type: z.string().nullish(),
  error_code: z.union([z.number(), z.string()]).nullish(),
});

/**
 * The documented fields this adapter reads, each with its type. Twilio echoes `phone_number` in every
 * answer and returns every requested package's key (null when empty), so a body without them (an
 * error envelope sent with 200) is refused.
 */
const lookupAnswer = z.object({
  phone_number: z.string(),
  country_code: z.string().nullish(),
  valid: z.boolean().nullish(),
  caller_name: callerName.nullable(),
});
type LookupAnswer = z.infer<typeof lookupAnswer>;

/**
 * The normalized tel query ('14155550123') as an E.164 number of the North American plan (+1), the
 * only one Caller Name covers; undefined for any other.
 */
export function usE164(value: string): string | undefined {
  return /^1\d{10}$/.test(value) ? `+${value}` : undefined;
}

/** BUSINESS → 'Business', CONSUMER → 'Consumer'; null when Twilio does not say. */
function callerType(value: string | null | undefined): string | null {
  const type = value?.trim();
  return type ? `${type[0]!.toUpperCase()}${type.slice(1).toLowerCase()}` : null;
}

/**
 * The answer in the tcData shape, or SourceNotFoundError when it holds no name: an invalid number
 * (`valid: false`), no caller_name package (outside the US), or a package without a name (Twilio
 * then says why in its `error_code`).
 */
export function toCallerIdData(answer: LookupAnswer): CallerIdData {
  if (answer.valid === false) throw new SourceNotFoundError('Twilio reports the number as invalid.');
  const found = answer.caller_name;
  const name = found?.caller_name?.trim();
  if (!found || !name) {
    const code = found?.error_code;
    throw new SourceNotFoundError(
      `No caller name is registered for this number${code !== null && code !== undefined ? ` (Twilio error ${code})` : ''}.`,
    );
  }
  return {
    data: {
      basicInfo: { name: { fullName: name, altName: null }, callerType: callerType(found.caller_type) },
      addressInfo: { address: null, countryCode: answer.country_code ?? null },
      phoneInfo: { number: answer.phone_number, carrier: null },
    },
  };
}

/** The tcData provider. Numbers outside +1 are not sent: Twilio answers null for them. */
export function twilioProvider(config: TwilioConfig, vendor?: VendorInfo): Provider {
  const authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
  return {
    id: 'twilio:tcData',
    source: 'tcData',
    kinds: ['tel'],
    sandbox: false,
    vendor,
    async fetch(query, signal) {
      const number = usE164(query.value);
      if (!number) throw new SourceNotFoundError('Caller names are available for US numbers only.');
      const res = await vendorFetch(`${config.baseUrl}/PhoneNumbers/${number}?Fields=caller_name`, {
        vendor: VENDOR,
        method: 'GET',
        headers: { authorization, accept: 'application/json' },
        signal,
        maxBytes: MAX_ANSWER_BYTES,
      });
      if (res.status === 404) throw new SourceNotFoundError('Twilio has no record of this number.');
      return toCallerIdData(parseVendorBody(lookupAnswer, res.body, VENDOR, res.status));
    },
  };
}

/**
 * Twilio credentials: an API key (TWILIO_API_KEY_SID + TWILIO_API_KEY_SECRET, as Twilio recommends)
 * wins over the Account SID and auth token (TWILIO_ACCOUNT_SID + TWILIO_AUTH_TOKEN); a half pair
 * counts as unset.
 */
export function twilioCredentials(env: {
  TWILIO_API_KEY_SID?: string;
  TWILIO_API_KEY_SECRET?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
}): { username: string; password: string } | undefined {
  if (env.TWILIO_API_KEY_SID && env.TWILIO_API_KEY_SECRET)
    return { username: env.TWILIO_API_KEY_SID, password: env.TWILIO_API_KEY_SECRET };
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN)
    return { username: env.TWILIO_ACCOUNT_SID, password: env.TWILIO_AUTH_TOKEN };
  return undefined;
}

/** Twilio Lookup v2 Caller Name: the CNAM name of a US number (tcData). On with either credential pair. */
export const twilio = defineVendor({
  id: 'twilio',
  name: 'Twilio',
  prefix: 'TWILIO',
  currency: 'USD',
  env: z.object({
    TWILIO_API_KEY_SID: secret().describe(
      'Twilio API key SID (SK…). With TWILIO_API_KEY_SECRET, turns on tcData; preferred over the account pair.',
    ),
    TWILIO_API_KEY_SECRET: secret().describe('Secret of the Twilio API key TWILIO_API_KEY_SID.'),
    TWILIO_ACCOUNT_SID: secret().describe(
      'Twilio Account SID (AC…). With TWILIO_AUTH_TOKEN, turns on tcData when no API key is set.',
    ),
    TWILIO_AUTH_TOKEN: secret().describe('Twilio auth token of TWILIO_ACCOUNT_SID.'),
    TWILIO_LOOKUP_BASE_URL: baseUrl('https://lookups.twilio.com/v2').describe(
      'Twilio Lookup v2 API base URL.',
    ),
  }),
  configure: (env): TwilioConfig | undefined => {
    const credentials = twilioCredentials(env);
    return credentials ? { ...credentials, baseUrl: env.TWILIO_LOOKUP_BASE_URL } : undefined;
  },
  providers: (config, vendor) => [twilioProvider(config, vendor)],
});
