/**
 * HLR Lookups (hlr-lookups.com) API v2: a live HLR query for a mobile number, the "ISP Response"
 * (hlrData) of a phone lookup.
 *
 * What was checked against the vendor, and where:
 * - Request and signature, from the official Node SDK (github.com/vmgltd/hlr-lookup-api-nodejs-sdk,
 *   src/lib/index.js) and the curl example of hlr-lookups.com/en/api-docs: `POST {base}/hlr-lookup`
 *   with the JSON body {"msisdn": "+E.164"} and the headers `X-Digest-Key` (API key),
 *   `X-Digest-Timestamp` (Unix seconds) and `X-Digest-Signature`, the hex HMAC-SHA256 keyed with the
 *   API secret of `endpoint + timestamp + METHOD + body`, where endpoint is the path below /api/v2
 *   ('/hlr-lookup') and body is the exact JSON text sent.
 * - Answer fields, from the SDK README's "HLR API Response Object" and the api-docs example: `msisdn`,
 *   `connectivity_status`, `mccmnc`, `mcc`, `mnc`, `imsi` (masked with '*' in the example),
 *   `original_network_name|country_name|country_code`, `is_ported`, `ported_network_name`,
 *   `is_roaming`, `timestamp` ('2020-08-07 19:16:17.676+0300'), `processing_status` ('COMPLETED').
 * - Connectivity statuses, from hlr-lookups.com/en/connectivity-stats: CONNECTED (reachable),
 *   ABSENT (valid, switched off or out of reach), INVALID_MSISDN (not assigned to any subscriber),
 *   UNDETERMINED (no answer from the network).
 * Not found in the vendor's documentation we could read: the error statuses and their bodies, rate
 * limits, and processing_status values other than COMPLETED. This adapter reads only the HTTP status
 * of an error (via vendorFetch), and treats any processing_status but COMPLETED as a failed lookup.
 */
import { createHmac } from 'node:crypto';
import type { HlrData } from '@footprint/domain';
import { z } from 'zod';
import { type Provider, SourceFailedError, SourceNotFoundError, type VendorInfo } from '../types.ts';
import { baseUrl, defineVendor, secret } from '../vendor.ts';
import { parseVendorBody, vendorFetch } from './fetch-json.ts';

const VENDOR = 'HLR Lookups';

/** The endpoint as the vendor signs it: the path below /api/v2. */
export const HLR_LOOKUP_ENDPOINT = '/hlr-lookup';

/** One lookup answer is about 1 KB; anything near this is not an HLR answer. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface HlrLookupsConfig {
  apiKey: string;
  apiSecret: string;
  baseUrl: string;
  /** The clock the signature's timestamp is read from (milliseconds); tests fix it. */
  now?: () => number;
}

/**
 * The vendor's digest signature: hex HMAC-SHA256 with the API secret over
 * endpoint + Unix-seconds timestamp + upper-case method + body (the official SDK's recipe).
 */
export function hlrLookupsSignature(
  secretKey: string,
  endpoint: string,
  timestamp: number,
  method: string,
  body: string,
): string {
  return createHmac('sha256', secretKey)
    .update(`${endpoint}${timestamp}${method.toUpperCase()}${body}`)
    .digest('hex');
}

const text = z.string().nullish();

/**
 * The documented fields this adapter reads, each with its type; other fields are dropped. `msisdn`
 * and `connectivity_status` are in every answer, so a body without them (an error envelope sent
 * with 200) is refused.
 */
const hlrAnswer = z.object({
  msisdn: z.string(),
  connectivity_status: z.string(),
  mccmnc: text,
  mcc: text,
  mnc: text,
  imsi: text,
  original_network_name: text,
  original_country_name: text,
  original_country_code: text,
  is_ported: z.boolean().nullish(),
  ported_network_name: text,
  is_roaming: z.boolean().nullish(),
  timestamp: text,
  processing_status: text,
});
type HlrAnswer = z.infer<typeof hlrAnswer>;

/** The normalized tel query ('919876543210') as E.164, or undefined when it cannot be one. */
export function toE164(value: string): string | undefined {
  return /^[1-9]\d{7,14}$/.test(value) ? `+${value}` : undefined;
}

/**
 * The vendor's statuses in the product's words: the results page and the report read 'INVALID' for
 * a number no network knows (the sandbox answers the same); the others pass through unchanged.
 */
function connectivity(status: string): string {
  return status === 'INVALID_MSISDN' ? 'INVALID' : status;
}

/** The documented example masks the IMSI with '*': a masked value identifies nothing, so it is dropped. */
function unmaskedImsi(imsi: string | null | undefined): string | null {
  return imsi && !/^\*+$/.test(imsi.trim()) ? imsi.trim() : null;
}

const VENDOR_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The vendor's '2020-08-07 19:16:17.676+0300' as ISO 8601 UTC ('2020-08-07T16:16:17.676Z'), the form
 * the report's timeline reads. A value in another form is kept as the vendor wrote it.
 */
export function isoTimestamp(value: string): string {
  const match = VENDOR_TIME.exec(value.trim());
  if (!match) return value;
  const [, day, time, fraction = '', zone = 'Z'] = match;
  const offset = zone === 'Z' ? zone : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '') || '00'}`;
  const date = new Date(`${day}T${time}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/**
 * The answer in the hlrData shape. `timestamp` is what the results page reads as "Active" and the
 * report as "last seen on the network", so it is kept only when the handset was reached (CONNECTED);
 * an absent, invalid or undetermined number has none, as in the sandbox.
 */
export function toHlrData(answer: HlrAnswer): HlrData {
  const reached = answer.connectivity_status === 'CONNECTED';
  const mccmnc = answer.mccmnc ?? (answer.mcc && answer.mnc ? `${answer.mcc}${answer.mnc}` : null);
  return {
    msisdn: answer.msisdn,
    imsi: unmaskedImsi(answer.imsi),
    mccmnc,
    connectivity_status: connectivity(answer.connectivity_status),
    timestamp: reached && answer.timestamp ? isoTimestamp(answer.timestamp) : null,
    original_country_name: answer.original_country_name ?? null,
    original_country_code: answer.original_country_code ?? null,
    original_network_name: answer.original_network_name ?? null,
    ported: answer.is_ported ?? null,
    ported_network_name: answer.ported_network_name ?? null,
    roaming: answer.is_roaming ?? null,
  };
}

/** The request headers of one signed call. */
function signedHeaders(config: HlrLookupsConfig, body: string): Record<string, string> {
  const timestamp = Math.floor((config.now ?? Date.now)() / 1000);
  return {
    'x-digest-key': config.apiKey,
    'x-digest-timestamp': String(timestamp),
    'x-digest-signature': hlrLookupsSignature(config.apiSecret, HLR_LOOKUP_ENDPOINT, timestamp, 'POST', body),
    'content-type': 'application/json',
    accept: 'application/json',
  };
}

/**
 * The hlrData provider. An unassigned number is an answer (connectivity 'INVALID'), as HLRs always
 * answer; the vendor documents no 404, so one (a wrong base URL) is a failure like any other status.
 */
export function hlrLookupsProvider(config: HlrLookupsConfig, vendor?: VendorInfo): Provider {
  return {
    id: 'hlr-lookups:hlrData',
    source: 'hlrData',
    kinds: ['tel'],
    sandbox: false,
    vendor,
    async fetch(query, signal) {
      const msisdn = toE164(query.value);
      if (!msisdn) throw new SourceNotFoundError('Not a phone number an HLR can look up.');
      const body = JSON.stringify({ msisdn });
      const res = await vendorFetch(`${config.baseUrl}${HLR_LOOKUP_ENDPOINT}`, {
        vendor: VENDOR,
        method: 'POST',
        headers: signedHeaders(config, body),
        body,
        signal,
        maxBytes: MAX_ANSWER_BYTES,
      });
      if (res.status === 404) throw new SourceFailedError(`${VENDOR} answered 404`, 404);
      const answer = parseVendorBody(hlrAnswer, res.body, VENDOR, res.status);
      if (answer.processing_status && answer.processing_status !== 'COMPLETED')
        throw new SourceFailedError(`${VENDOR} did not complete the lookup (${answer.processing_status})`);
      return toHlrData(answer);
    },
  };
}

/** HLR Lookups: live network status of a mobile number (hlrData). On when its key and secret are set. */
export const hlrLookups = defineVendor({
  id: 'hlr-lookups',
  name: 'HLR Lookups',
  prefix: 'HLR_LOOKUPS',
  currency: 'EUR',
  env: z.object({
    HLR_LOOKUPS_API_KEY: secret().describe(
      'HLR Lookups API v2 key (`X-Digest-Key`). With HLR_LOOKUPS_API_SECRET, turns on hlrData.',
    ),
    HLR_LOOKUPS_API_SECRET: secret().describe(
      'HLR Lookups API v2 secret, the HMAC-SHA256 key of `X-Digest-Signature`. With HLR_LOOKUPS_API_KEY, turns on hlrData.',
    ),
    HLR_LOOKUPS_BASE_URL: baseUrl('https://www.hlr-lookups.com/api/v2').describe('HLR Lookups API base URL.'),
  }),
  configure: (env): HlrLookupsConfig | undefined =>
    env.HLR_LOOKUPS_API_KEY && env.HLR_LOOKUPS_API_SECRET
      ? {
          apiKey: env.HLR_LOOKUPS_API_KEY,
          apiSecret: env.HLR_LOOKUPS_API_SECRET,
          baseUrl: env.HLR_LOOKUPS_BASE_URL,
        }
      : undefined,
  providers: (config, vendor) => [hlrLookupsProvider(config, vendor)],
});
