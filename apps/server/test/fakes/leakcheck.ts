/**
 * A fake LeakCheck API v2 (Pro) that speaks its documented wire format
 * (https://wiki.leakcheck.io/en/api/api-v2-pro): GET /api/v2/query/{value}?type=&limit=&offset= with
 * `X-API-Key`; {success: true, found, quota, result: [row]} with each row's fields, `fields` and
 * `source`; no match is `found: 0` with an empty `result`; errors are {success: false, error}.
 * Mount it at the root of a fake upstream and point LEAKCHECK_BASE_URL at `<url>/api/v2`.
 *
 * Every answer is synthetic and derived from the query alone: reserved example.test addresses,
 * fictional names, +91 7xxxx numbers. A value containing 'nobody' has no record. The first row of
 * each answer carries a `password`, as real answers do, so that tests can check it is never kept.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

/** The key the fake accepts unless told otherwise (real keys are at least 40 characters). */
export const LEAKCHECK_FAKE_KEY = 'fake-leakcheck-key-0000000000000000000000000';

export interface LeakCheckFakeOptions {
  apiKey?: string;
  /** The `quota` every answer reports. */
  quota?: number;
}

const TYPES = [
  'auto',
  'email',
  'domain',
  'keyword',
  'username',
  'phone',
  'hash',
  'phash',
  'origin',
  'password',
];
const FIRST = ['Kabir', 'Meera', 'Ishaan', 'Tara', 'Aarav', 'Diya'];
const LAST = ['Menon', 'Kulkarni', 'Bhat', 'Rao', 'Iyer', 'Sethi'];
const SOURCES = [
  { name: 'Orbitly', breach_date: '2021-03' },
  { name: 'Chaiwala Rewards', breach_date: '2019-11' },
  { name: 'Tiffin Box Club', breach_date: '2022-06' },
];

/** A value the fake holds no record of. */
export const isLeakCheckNoMatch = (value: string) => /nobody/i.test(value);

/** 'auto' as LeakCheck documents it: e-mail, phone number or username. */
function detectType(value: string): string {
  if (value.includes('@')) return 'email';
  if (/^\+?\d{7,15}$/.test(value)) return 'phone';
  return 'username';
}

/**
 * The rows the fake answers for a query (before limit and offset): two or three, each from another
 * breach, with the searched value in its place and everything else derived from its digest.
 */
export function leakCheckFakeRows(type: string, value: string): Array<Record<string, unknown>> {
  if (isLeakCheckNoMatch(value)) return [];
  const kind = type === 'auto' ? detectType(value) : type;
  const digest = createHash('sha256').update(`${kind}:${value.toLowerCase()}`).digest();
  const count = 2 + (digest[0]! % 2);
  return Array.from({ length: count }, (_, i) => {
    const first = FIRST[(digest[1]! + i) % FIRST.length]!;
    const last = LAST[(digest[2]! + i) % LAST.length]!;
    const digits = String(digest.readUInt32BE(4 + i * 4) % 1_000_000_000).padStart(9, '0');
    const row: Record<string, unknown> = {
      email: kind === 'email' ? value : `${first}.${last}${i}@example.test`.toLowerCase(),
      username: kind === 'username' ? value : `${first}_${last}${i}`.toLowerCase(),
      first_name: first,
      last_name: last,
      phone: kind === 'phone' ? value : `917${digits}`,
      source: {
        ...SOURCES[(digest[3]! + i) % SOURCES.length]!,
        unverified: 0,
        passwordless: i === 0 ? 0 : 1,
        compilation: 0,
      },
    };
    if (i === 0) row.password = `synthetic-not-a-secret-${digits}`;
    if (i === 1) row.address = `Flat ${1 + (digest[8]! % 40)}, Example Lane, Pune`;
    row.fields = Object.keys(row).filter((key) => key !== 'source');
    return row;
  });
}

/** An answer of the fake: its status and JSON body. */
interface FakeAnswer {
  status: number;
  body: unknown;
}

const fail = (status: number, error: string): FakeAnswer => ({ status, body: { success: false, error } });

/** What LeakCheck answers one request: the key checked first, then the query and its parameters. */
export function leakCheckAnswer(req: RecordedRequest, options: LeakCheckFakeOptions = {}): FakeAnswer {
  const url = new URL(req.url, 'http://leakcheck.fake');
  const path = /^\/api\/v2\/query\/([^/]+)$/.exec(url.pathname);
  if (req.method !== 'GET' || !path) return fail(404, 'Not found');
  const given = req.headers['x-api-key'];
  if (!given) return fail(401, 'Missing X-API-Key');
  if (given !== (options.apiKey ?? LEAKCHECK_FAKE_KEY)) return fail(401, 'Invalid X-API-Key');
  const type = url.searchParams.get('type') ?? 'auto';
  if (!TYPES.includes(type)) return fail(400, 'Invalid type');
  const limit = Number(url.searchParams.get('limit') ?? '100');
  const offset = Number(url.searchParams.get('offset') ?? '0');
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return fail(400, 'Invalid limit');
  if (!Number.isInteger(offset) || offset < 0 || offset > 2500) return fail(400, 'Invalid offset');
  let value: string;
  try {
    value = decodeURIComponent(path[1]!);
  } catch {
    return fail(400, 'Invalid query');
  }
  const rows = leakCheckFakeRows(type, value).slice(offset, offset + limit);
  return {
    status: 200,
    body: { success: true, found: rows.length, quota: options.quota ?? 400, result: rows },
  };
}

/** A node handler for startFakeUpstream (or any http server) that answers as LeakCheck does. */
export function leakCheckFake(options: LeakCheckFakeOptions = {}) {
  return (req: RecordedRequest, res: ServerResponse): void => {
    const { status, body } = leakCheckAnswer(req, options);
    sendJson(res, status, body);
  };
}
