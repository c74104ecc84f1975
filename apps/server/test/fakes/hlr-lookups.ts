/**
 * A fake of the HLR Lookups API v2 (hlr-lookups.com) `POST /hlr-lookup`, speaking its documented wire
 * format: the digest headers are checked (key, timestamp within `maxSkewSeconds`, HMAC-SHA256
 * signature of endpoint + timestamp + METHOD + body, computed here on its own so that it checks the
 * adapter's signer rather than repeating it), then a synthetic answer derived from the number.
 *
 * Deterministic answers, by the last four digits of the number:
 *   0000 → INVALID_MSISDN (no subscriber: the documented "no such number")
 *   0001 → ABSENT (valid, handset off), 0002 → UNDETERMINED (no network answer)
 *   else → CONNECTED; about one number in four is ported, one in twenty roaming.
 * Networks are picked from a small table per dial code (91, 1, 44; the ITU test network 001-01
 * elsewhere). The error bodies are not in the vendor's public documentation: they are stand-ins.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const HLR_FAKE_KEY = 'fake-hlr-key';
export const HLR_FAKE_SECRET = 'fake-hlr-secret';

export interface HlrLookupsFakeOptions {
  apiKey?: string;
  apiSecret?: string;
  /** How far the signed timestamp may be from the fake's clock (300 s unless set). */
  maxSkewSeconds?: number;
  /** The fake's clock; the answer's timestamp is read from it too. */
  now?: () => Date;
}

interface Network {
  name: string;
  mccmnc: string;
}

interface Country {
  prefix: string;
  name: string | null;
  code: string | null;
  networks: Network[];
}

const COUNTRIES: Country[] = [
  {
    prefix: '91',
    name: 'India',
    code: 'IN',
    networks: [
      { name: 'Airtel', mccmnc: '40410' },
      { name: 'Reliance Jio', mccmnc: '405857' },
      { name: 'Vodafone Idea', mccmnc: '40420' },
      { name: 'BSNL Mobile', mccmnc: '40434' },
    ],
  },
  {
    prefix: '44',
    name: 'United Kingdom',
    code: 'GB',
    networks: [
      { name: 'EE', mccmnc: '23430' },
      { name: 'Vodafone UK', mccmnc: '23415' },
      { name: 'O2 UK', mccmnc: '23410' },
    ],
  },
  {
    prefix: '1',
    name: 'United States',
    code: 'US',
    networks: [
      { name: 'T-Mobile US', mccmnc: '310260' },
      { name: 'Verizon Wireless', mccmnc: '311480' },
      { name: 'AT&T Mobility', mccmnc: '310410' },
    ],
  },
];

const ELSEWHERE: Country = {
  prefix: '',
  name: null,
  code: null,
  networks: [{ name: 'Test Network', mccmnc: '00101' }],
};

const countryOf = (digits: string): Country =>
  COUNTRIES.find((country) => digits.startsWith(country.prefix)) ?? ELSEWHERE;

/** The vendor's timestamp form: '2020-08-07 19:16:17.676+0000'. */
const vendorTime = (date: Date) => `${date.toISOString().replace('T', ' ').replace('Z', '')}+0000`;

/** Digits derived from the number, for synthetic identifiers. */
const digitsFrom = (hash: Buffer, length: number) =>
  Array.from({ length }, (_, i) => String(hash[i % hash.length]! % 10)).join('');

/** The synthetic answer for one E.164 number, in the documented field order. */
export function hlrFakeAnswer(msisdn: string, now: Date): Record<string, unknown> {
  const digits = msisdn.slice(1);
  const hash = createHash('sha256').update(digits).digest();
  const country = countryOf(digits);
  const networks = country.networks;
  const original = networks[hash[0]! % networks.length]!;
  const last4 = digits.slice(-4);
  const status =
    last4 === '0000'
      ? 'INVALID_MSISDN'
      : last4 === '0001'
        ? 'ABSENT'
        : last4 === '0002'
          ? 'UNDETERMINED'
          : 'CONNECTED';
  const known = status === 'CONNECTED' || status === 'ABSENT';
  const ported = status !== 'INVALID_MSISDN' && networks.length > 1 && hash[1]! % 4 === 0;
  const current = ported ? networks[(networks.indexOf(original) + 1) % networks.length]! : original;
  const roaming = status === 'CONNECTED' && hash[2]! % 20 === 0;
  const mccmnc = status === 'INVALID_MSISDN' ? null : current.mccmnc;
  const imsi = known ? `${current.mccmnc}${digitsFrom(hash, 15 - current.mccmnc.length)}` : null;
  const month = now.toISOString().slice(0, 7);
  return {
    id: hash.toString('hex').slice(0, 12),
    msisdn,
    connectivity_status: status,
    mccmnc,
    mcc: mccmnc?.slice(0, 3) ?? null,
    mnc: mccmnc?.slice(3) ?? null,
    imsi,
    msin: imsi?.slice(mccmnc?.length ?? 0) ?? null,
    msc: known ? `${country.prefix}${digitsFrom(hash.subarray(8), 10)}` : null,
    original_network_name: original.name,
    original_country_name: country.name,
    original_country_code: country.code,
    original_country_prefix: country.prefix ? `+${country.prefix}` : null,
    is_ported: ported,
    ported_network_name: ported ? current.name : null,
    ported_country_name: ported ? country.name : null,
    ported_country_code: ported ? country.code : null,
    ported_country_prefix: ported && country.prefix ? `+${country.prefix}` : null,
    is_roaming: roaming,
    roaming_network_name: roaming ? 'Example Roaming Partner' : null,
    roaming_country_name: roaming ? 'United Arab Emirates' : null,
    roaming_country_code: roaming ? 'AE' : null,
    roaming_country_prefix: roaming ? '+971' : null,
    cost: '0.0100',
    timestamp: vendorTime(now),
    storage: `SYNC-API-${month}`,
    route: 'IP1',
    processing_status: 'COMPLETED',
    error_code: null,
    data_source: 'LIVE_HLR',
  };
}

const header = (req: RecordedRequest, name: string): string => {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Whether the digest headers are those of this key and secret, signed close enough to `now`. */
function signedCorrectly(
  req: RecordedRequest,
  endpoint: string,
  key: string,
  secretKey: string,
  nowSeconds: number,
  maxSkew: number,
): boolean {
  const timestamp = header(req, 'x-digest-timestamp');
  if (!sameText(header(req, 'x-digest-key'), key) || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Number(timestamp) - nowSeconds) > maxSkew) return false;
  const expected = createHmac('sha256', secretKey)
    .update(endpoint + timestamp + req.method.toUpperCase() + req.body)
    .digest('hex');
  return sameText(header(req, 'x-digest-signature').toLowerCase(), expected);
}

/** The msisdn of a lookup body, or undefined when the body is not {"msisdn": "+E.164"}. */
function msisdnOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const msisdn = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'msisdn') : undefined;
    return typeof msisdn === 'string' && /^\+[1-9]\d{7,14}$/.test(msisdn) ? msisdn : undefined;
  } catch {
    return undefined;
  }
}

interface Verifier {
  key: string;
  secretKey: string;
  maxSkew: number;
}

/** The status and body the vendor would send for one request at `now`. */
function respond(req: RecordedRequest, verifier: Verifier, now: Date): [number, unknown] {
  const path = new URL(req.url, 'http://fake.invalid').pathname;
  if (req.method !== 'POST' || !path.endsWith('/hlr-lookup'))
    return [404, { errors: ['Endpoint not found.'] }];
  const { key, secretKey, maxSkew } = verifier;
  if (!signedCorrectly(req, '/hlr-lookup', key, secretKey, Math.floor(now.getTime() / 1000), maxSkew))
    return [401, { errors: ['Unauthorized: invalid digest key, timestamp or signature.'] }];
  const msisdn = msisdnOf(req.body);
  if (!msisdn) return [400, { errors: ['Invalid msisdn.'] }];
  return [200, hlrFakeAnswer(msisdn, now)];
}

/** The fake's request handler, for startFakeUpstream. */
export function hlrLookupsFake(options: HlrLookupsFakeOptions = {}) {
  const verifier = {
    key: options.apiKey ?? HLR_FAKE_KEY,
    secretKey: options.apiSecret ?? HLR_FAKE_SECRET,
    maxSkew: options.maxSkewSeconds ?? 300,
  };
  const clock = options.now ?? (() => new Date());
  return (req: RecordedRequest, res: ServerResponse): void => {
    const [status, body] = respond(req, verifier, clock());
    sendJson(res, status, body);
  };
}
