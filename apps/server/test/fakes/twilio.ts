/**
 * A fake of Twilio Lookup v2 `GET /v2/PhoneNumbers/{PhoneNumber}?Fields=…`, speaking its documented
 * wire format (twilio-oai twilio_lookups_v2.json): HTTP Basic is checked, every package key is in the
 * answer (null unless asked for), and the Caller Name package is filled for +1 numbers only.
 *
 * Deterministic answers:
 *   not E.164, or a +1 number whose area code or exchange starts with 0 or 1
 *         → 200 with `valid: false` and `validation_errors` (Twilio's "fetchInvalid")
 *   outside +1 → `caller_name: null` (Twilio: Caller Name covers US carriers only)
 *   +1 ending in 0000 → caller_name {caller_name: null, caller_type: null, error_code: 60600}
 *   other +1 → a fictional name derived from the number; about one in four a BUSINESS
 * Errors use Twilio's error body {code, message, more_info, status}.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

export const TWILIO_FAKE_USER = 'SK00000000000000000000000000000000';
export const TWILIO_FAKE_PASSWORD = 'fake-twilio-secret';

export interface TwilioFakeOptions {
  /** The HTTP Basic user it accepts: an API key SID or an Account SID. */
  username?: string;
  password?: string;
}

const PACKAGES = [
  'caller_name',
  'sim_swap',
  'call_forwarding',
  'live_activity',
  'line_type_intelligence',
  'identity_match',
  'reassigned_number',
  'sms_pumping_risk',
  'phone_number_quality_score',
] as const;

const CONSUMERS = ['Avery Quill', 'Jordan Pike', 'Morgan Vale', 'Riley Thorne', 'Casey Lark', 'Devon Marsh'];
const BUSINESSES = ['Example Bakery LLC', 'Northwind Plumbing', 'Contoso Dental Care'];

const COUNTRY_CODES: Record<string, string> = { '1': 'US', '44': 'GB', '91': 'IN' };

/** Twilio's error body. */
export const twilioError = (status: number, code: number, message: string) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});

/** Why a number is not valid, in Twilio's words; undefined when it is. */
function validationError(e164: string): string | undefined {
  if (!/^\+\d+$/.test(e164)) return 'NOT_A_NUMBER';
  const digits = e164.slice(1);
  if (digits.length < 8) return 'TOO_SHORT';
  if (digits.length > 15) return 'TOO_LONG';
  if (digits.startsWith('0')) return 'INVALID_COUNTRY_CODE';
  if (digits.startsWith('1')) {
    if (digits.length !== 11) return 'INVALID_LENGTH';
    if (/^[01]/.test(digits.slice(1)) || /^[01]/.test(digits.slice(4))) return 'INVALID_BUT_POSSIBLE';
  }
  return undefined;
}

const dialCodeOf = (digits: string) => (digits.startsWith('1') ? '1' : digits.slice(0, 2));

function nationalFormat(digits: string): string {
  if (digits.startsWith('1')) return `(${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
  const national = digits.slice(dialCodeOf(digits).length);
  return `0${national.slice(0, 5)} ${national.slice(5)}`;
}

/** The Caller Name package for a valid number. */
function callerNameOf(digits: string): Record<string, unknown> | null {
  if (!digits.startsWith('1')) return null;
  if (digits.endsWith('0000')) return { caller_name: null, caller_type: null, error_code: 60600 };
  const hash = createHash('sha256').update(digits).digest();
  const business = hash[0]! % 4 === 0;
  const names = business ? BUSINESSES : CONSUMERS;
  return {
    caller_name: names[hash[1]! % names.length],
    caller_type: business ? 'BUSINESS' : 'CONSUMER',
    error_code: null,
  };
}

/** The answer for one number and the packages asked for. */
export function twilioFakeAnswer(requested: string, fields: readonly string[]): Record<string, unknown> {
  const e164 = requested.startsWith('+') ? requested : `+1${requested}`;
  const invalid = validationError(e164);
  const digits = e164.slice(1);
  const packages = Object.fromEntries(
    PACKAGES.map((name) => [
      name,
      !invalid && name === 'caller_name' && fields.includes(name) ? callerNameOf(digits) : null,
    ]),
  );
  const dial = dialCodeOf(digits);
  return {
    calling_country_code: invalid ? null : dial,
    country_code: invalid ? null : (COUNTRY_CODES[dial] ?? null),
    phone_number: e164,
    national_format: invalid ? null : nationalFormat(digits),
    valid: !invalid,
    validation_errors: invalid ? [invalid] : null,
    ...packages,
    url: `https://lookups.twilio.com/v2/PhoneNumbers/${e164}`,
  };
}

/** Whether the Authorization header is HTTP Basic with this user and password. */
function authorized(req: RecordedRequest, username: string, password: string): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return false;
  return Buffer.from(match[1]!, 'base64').toString('utf8') === `${username}:${password}`;
}

/** The status and body Twilio would send for one request. */
function respond(req: RecordedRequest, username: string, password: string): [number, unknown] {
  const url = new URL(req.url, 'http://fake.invalid');
  const match = /\/PhoneNumbers\/([^/]+)$/.exec(url.pathname);
  if (req.method !== 'GET' || !match)
    return [404, twilioError(404, 20404, 'The requested resource was not found')];
  if (!authorized(req, username, password)) return [401, twilioError(401, 20003, 'Authenticate')];
  const fields = (url.searchParams.get('Fields') ?? '').split(',').map((field) => field.trim());
  return [200, twilioFakeAnswer(decodeURIComponent(match[1]!), fields)];
}

/** The fake's request handler, for startFakeUpstream. */
export function twilioFake(options: TwilioFakeOptions = {}) {
  const username = options.username ?? TWILIO_FAKE_USER;
  const password = options.password ?? TWILIO_FAKE_PASSWORD;
  return (req: RecordedRequest, res: ServerResponse): void => {
    const [status, body] = respond(req, username, password);
    sendJson(res, status, body);
  };
}
