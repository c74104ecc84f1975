/**
 * A fake DeHashed API v2 that speaks its wire format: POST /v2/search with `Dehashed-Api-Key` and a
 * JSON body {query, page, size, wildcard, regex, de_dupe}; {balance, total, took, entries: [entry]}
 * with every field of an entry a list and its `database_name`; no match is `total: 0` with no
 * entries. Mount it at the root of a fake upstream and point DEHASHED_BASE_URL at its URL.
 *
 * Every answer is synthetic and derived from the query alone: the terms of the query (`field:"value"`
 * joined with AND) are in every entry, everything else comes from its digest (reserved example.test
 * addresses, fictional names, +91 7xxxx numbers). A query containing 'nobody' has no record. Entries
 * carry `password` and `hashed_password`, as real ones do, so that tests can check they are never kept.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson } from '../support/upstream.ts';

/** The key the fake accepts unless told otherwise. */
export const DEHASHED_FAKE_KEY = 'fake-dehashed-key-0000000000000000';

export interface DehashedFakeOptions {
  apiKey?: string;
  /** The credits every answer reports left. */
  balance?: number;
}

const FIRST = ['Nikhil', 'Sana', 'Arjun', 'Leela', 'Vivaan', 'Ira'];
const LAST = ['Joshi', 'Pillai', 'Nair', 'Desai', 'Kapoor', 'Gill'];
const DATABASES = ['Orbitly', 'Paanwala Perks', 'MetroPass Cards'];
const FIELDS = [
  'email',
  'username',
  'name',
  'phone',
  'address',
  'ip_address',
  'vin',
  'domain',
  'password',
  'hashed_password',
];

/** The `field:value` terms of a query, values unquoted and unescaped. */
export function dehashedTerms(query: string): Array<[field: string, value: string]> {
  const terms: Array<[string, string]> = [];
  for (const match of query.matchAll(/(\w+):(?:"((?:[^"\\]|\\.)*)"|(\S+))/g)) {
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!;
    terms.push([match[1]!, value]);
  }
  return terms;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The entries the fake answers for a query: two, each from another database, holding every term. */
export function dehashedFakeEntries(query: string): Array<Record<string, unknown>> {
  const terms = dehashedTerms(query);
  if (/nobody/i.test(query) || terms.length === 0) return [];
  const wanted = (field: string) => terms.filter(([f]) => f === field).map(([, v]) => v);
  const digest = createHash('sha256').update(query.toLowerCase()).digest();
  return Array.from({ length: 2 }, (_, i) => {
    const first = FIRST[(digest[0]! + i) % FIRST.length]!;
    const last = LAST[(digest[1]! + i) % LAST.length]!;
    const names = wanted('name');
    const digits = String(digest.readUInt32BE(4 + i * 4) % 1_000_000_000).padStart(9, '0');
    return {
      id: digest.subarray(12 + i * 4, 16 + i * 4).toString('hex'),
      email:
        wanted('email').length > 0 ? wanted('email') : [`${first}.${last}${i}@example.test`.toLowerCase()],
      username: wanted('username').length > 0 ? wanted('username') : [`${first}${last}${i}`.toLowerCase()],
      name: [names.length > 0 ? names.map(capitalized).join(' ') : `${first} ${last}`],
      phone: wanted('phone').length > 0 ? wanted('phone') : [`917${digits}`],
      address: i === 1 ? [`${10 + (digest[8]! % 80)} Sample Road, Nagpur`] : [],
      ip_address: [`192.0.2.${1 + (digest[9]! % 250)}`],
      password: [`synthetic-not-a-secret-${digits}`],
      hashed_password: [`synthetic-hash-${digits}`],
      company: [],
      url: [],
      social: [],
      vin: [],
      database_name: DATABASES[(digest[2]! + i) % DATABASES.length],
    };
  });
}

/** An answer of the fake: its status and JSON body. */
interface FakeAnswer {
  status: number;
  body: unknown;
}

const fail = (status: number, message: string): FakeAnswer => ({ status, body: { error: message } });

/** What DeHashed answers one request: the key checked first, then the body. */
export function dehashedAnswer(req: RecordedRequest, options: DehashedFakeOptions = {}): FakeAnswer {
  if (req.method !== 'POST' || new URL(req.url, 'http://dehashed.fake').pathname !== '/v2/search')
    return fail(404, 'Not found');
  const given = req.headers['dehashed-api-key'];
  if (given !== (options.apiKey ?? DEHASHED_FAKE_KEY)) return fail(401, 'Invalid API key');
  let body: { query?: unknown; page?: unknown; size?: unknown };
  try {
    body = JSON.parse(req.body) as typeof body;
  } catch {
    return fail(400, 'Invalid JSON body');
  }
  const { query, page = 1, size = 100 } = body;
  if (typeof query !== 'string' || query.trim() === '') return fail(400, 'Query is required');
  if (!Number.isInteger(page) || !Number.isInteger(size) || (page as number) < 1 || (size as number) < 1)
    return fail(400, 'Invalid page or size');
  if ((page as number) * (size as number) > 10_000) return fail(400, 'Page and size exceed 10,000 results');
  const terms = dehashedTerms(query);
  if (terms.some(([field]) => !FIELDS.includes(field))) return fail(400, 'Unknown search field');
  const all = dehashedFakeEntries(query);
  const entries = all.slice(((page as number) - 1) * (size as number), (page as number) * (size as number));
  return {
    status: 200,
    body: { balance: options.balance ?? 4_999, total: all.length, took: '12µs', entries },
  };
}

/** A node handler for startFakeUpstream (or any http server) that answers as DeHashed does. */
export function dehashedFake(options: DehashedFakeOptions = {}) {
  return (req: RecordedRequest, res: ServerResponse): void => {
    const { status, body } = dehashedAnswer(req, options);
    sendJson(res, status, body);
  };
}
