/**
 * Federation of the leak search: the local index's matches and the records leak-search vendors found,
 * as one result. Pure functions: how a vendor's record becomes a leak record (only when it matches every
 * row, as the local index would), what makes two records identical, how identical records merge into
 * one listing each origin, what a paid search stores so that its other pages read the same set, and
 * which stretch of the merged list a page shows (the local matches first, then the vendors' own).
 */
import { createHash } from 'node:crypto';
import {
  type LeakFieldType,
  type LeakOrigin,
  type LeakOriginStatus,
  type LeakRecord,
  LOCAL_LEAK_ORIGIN,
  leakOrigin,
  leakOriginStatus,
  leakRecordResponse,
  nameTokens,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { z } from 'zod';
import type { LeakSearchQuery, VendorLeakRecord } from '../../providers/leak-search.ts';
import { isSecretColumn } from './import/secrets.ts';
import { conditionOf, type LeakCondition } from './query.ts';

/** The origin of every record of the local index. */
export const LOCAL_ORIGIN: LeakOrigin = { kind: 'local', name: LOCAL_LEAK_ORIGIN };

/** A local record that may be identical to a vendor's: its id and the fields its identity is made of. */
export type LocalTwinCandidate = Pick<
  LeakRecord,
  'id' | 'name' | 'email' | 'phone' | 'username' | 'address'
> & {
  source: { name: string };
};

/** The query's rows as vendors receive them: as typed (trimmed), and normalized as the index is. */
export function vendorQueryOf(rows: ReadonlyArray<{ type: LeakFieldType; value: string }>): LeakSearchQuery {
  return {
    rows: rows.map((row) => {
      const { value } = conditionOf(row.type, row.value);
      return { type: row.type, raw: row.value.trim(), value: Array.isArray(value) ? value.join(' ') : value };
    }),
  };
}

/** Whether one value satisfies one condition, compared the way the local index compares it. */
function valueMatches(condition: LeakCondition, value: string): boolean {
  switch (condition.type) {
    case 'email':
      return normalizeLeakEmail(value) === condition.value;
    case 'phone':
      return normalizeLeakPhone(value) === condition.value;
    case 'username':
      return normalizeLeakUsername(value) === condition.value;
    case 'name': {
      const tokens = new Set(nameTokens(value));
      return (condition.value as string[]).every((token) => tokens.has(token));
    }
  }
}

const squash = (value: string | null | undefined) =>
  (value ?? '').normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * What makes two records the same record, wherever they were found: the normalized name (its tokens,
 * in any order), e-mail, phone, username and address, and the breach's name.
 */
export function identityOf(
  record: Pick<LeakRecord, 'name' | 'email' | 'phone' | 'username' | 'address'> & {
    source: { name: string };
  },
): string {
  return JSON.stringify([
    nameTokens(record.name ?? '')
      .sort()
      .join(' '),
    record.email ? normalizeLeakEmail(record.email) : '',
    record.phone ? normalizeLeakPhone(record.phone) : '',
    record.username ? normalizeLeakUsername(record.username) : '',
    squash(record.address).replace(/\s*,\s*/g, ', '),
    squash(record.source.name),
  ]);
}

/** Control characters (tab and newlines aside): PostgreSQL refuses NUL in stored JSON, and none belongs in a record. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
/** Half of a surrogate pair without its other half: not text, and refused by PostgreSQL's JSON. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A vendor's text made safe to show and store: control characters dropped, broken characters replaced. */
export const cleanText = (value: string): string =>
  value.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD').trim();

/** A vendor's record with every text cleaned (cleanText) and the values left empty by it dropped. */
function cleanRecord(found: VendorLeakRecord): VendorLeakRecord {
  const list = (values: string[]) => values.map(cleanText).filter((value) => value !== '');
  const optional = (value: string | null) => (value === null ? null : cleanText(value) || null);
  const other: Record<string, string> = {};
  for (const [key, value] of Object.entries(found.other)) {
    const [cleanKey, cleanValue] = [cleanText(key), cleanText(value)];
    if (cleanKey !== '' && cleanValue !== '') other[cleanKey] = cleanValue;
  }
  return {
    source: { name: optional(found.source.name), breach_date: optional(found.source.breach_date) },
    name: list(found.name),
    email: list(found.email),
    phone: list(found.phone),
    username: list(found.username),
    address: list(found.address),
    other,
  };
}

const RECORD_FIELDS = ['name', 'email', 'phone', 'username', 'address'] as const;
type RecordField = (typeof RECORD_FIELDS)[number];

/**
 * A vendor's record as a leak record, when it matches every row of the query (null otherwise: a
 * vendor's looser matching never widens the search). Each field shows the value that matched, or the
 * vendor's first; further values go to `other` ('email_2'…). Its texts are cleaned, and
 * credential-like keys are dropped again.
 */
export function vendorRecordOf(
  answered: VendorLeakRecord,
  conditions: readonly LeakCondition[],
  origin: LeakOrigin,
  vendorId: string,
): LeakRecord | null {
  const found = cleanRecord(answered);
  const chosen: Partial<Record<RecordField, string>> = {};
  for (const condition of conditions) {
    const hit = found[condition.type].find((value) => valueMatches(condition, value));
    if (hit === undefined) return null;
    chosen[condition.type] ??= hit;
  }
  const fields = {} as Record<RecordField, string | null>;
  const other: Record<string, string> = {};
  for (const [key, value] of Object.entries(found.other)) if (!isSecretColumn(key)) other[key] = value;
  for (const field of RECORD_FIELDS) {
    const first = chosen[field] ?? found[field][0] ?? null;
    fields[field] = first;
    found[field]
      .filter((value) => value !== first)
      .forEach((value, index) => {
        other[`${field}_${index + 2}`] = value;
      });
  }
  const source = {
    name: found.source.name ?? '',
    breach_date: found.source.breach_date,
    description: null,
  };
  const identity = identityOf({ ...fields, source });
  return {
    id: `${vendorId}:${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`,
    source,
    ...fields,
    other,
    matched: [...new Set(conditions.map((c) => c.type))],
    origins: [origin],
  };
}

const sameOrigin = (a: LeakOrigin, b: LeakOrigin) => a.kind === b.kind && a.name === b.name;

/** Origins of both lists, each once, in order. */
function unionOrigins(a: readonly LeakOrigin[], b: readonly LeakOrigin[]): LeakOrigin[] {
  const out = [...a];
  for (const origin of b) if (!out.some((o) => sameOrigin(o, origin))) out.push(origin);
  return out;
}

/** The vendors' records as one list: identical records (within or across vendors) become one listing each. */
export function mergeRecords(lists: ReadonlyArray<readonly LeakRecord[]>): LeakRecord[] {
  const byIdentity = new Map<string, LeakRecord>();
  for (const list of lists) {
    for (const record of list) {
      const key = identityOf(record);
      const seen = byIdentity.get(key);
      if (seen) byIdentity.set(key, { ...seen, origins: unionOrigins(seen.origins, record.origins) });
      else byIdentity.set(key, record);
    }
  }
  return [...byIdentity.values()];
}

/**
 * What a paid federated search keeps with its result, so that its other pages (free) read the same
 * set: the vendors' records the local index does not hold, the vendor origins of local records a
 * vendor also found (by local id), and how each vendor answered.
 */
export const storedFederation = z.object({
  records: z.array(leakRecordResponse),
  also_in: z.record(z.string(), z.array(leakOrigin)),
  vendors: z.array(leakOriginStatus),
});
export type Federation = z.infer<typeof storedFederation>;

/** No vendor was asked. */
export const NO_FEDERATION: Federation = { records: [], also_in: {}, vendors: [] };

/** The federation a stored result kept; none for results from before it (or a damaged one). */
export function federationOf(result: unknown): Federation {
  if (typeof result !== 'object' || result === null) return NO_FEDERATION;
  const parsed = storedFederation.safeParse((result as { federation?: unknown }).federation);
  return parsed.success ? parsed.data : NO_FEDERATION;
}

/**
 * Splits the merged vendor records into those the local index also holds (their origins are added to
 * the local record: `also_in`) and the vendors' own.
 */
export function federate(
  merged: readonly LeakRecord[],
  localTwins: readonly LocalTwinCandidate[],
  vendors: LeakOriginStatus[],
): Federation {
  const localByIdentity = new Map<string, string>();
  for (const twin of localTwins) {
    const key = identityOf(twin);
    if (!localByIdentity.has(key)) localByIdentity.set(key, twin.id);
  }
  const records: LeakRecord[] = [];
  const alsoIn: Record<string, LeakOrigin[]> = {};
  for (const record of merged) {
    const localId = localByIdentity.get(identityOf(record));
    if (localId === undefined) records.push(record);
    else alsoIn[localId] = unionOrigins(alsoIn[localId] ?? [], record.origins);
  }
  return { records, also_in: alsoIn, vendors };
}

/** A local record with the vendors that also found it. */
export const withVendorOrigins = (record: LeakRecord, also: readonly LeakOrigin[] | undefined): LeakRecord =>
  also && also.length > 0 ? { ...record, origins: unionOrigins(record.origins, also) } : record;

/** How the local index answered: how many (capped) records matched. */
export const localStatus = (records: number): LeakOriginStatus => ({
  ...LOCAL_ORIGIN,
  status: records > 0 ? 'ok' : 'not_found',
  records,
});

/**
 * Which stretch of the merged list one page shows: the local matches come first (ordered by id, up
 * to the total cap), then the vendors' own records in the order they were stored.
 */
export function pageWindow(localTotal: number, page: number, perPage: number) {
  const start = (page - 1) * perPage;
  const end = start + perPage;
  const localOffset = Math.min(start, localTotal);
  return {
    local: { offset: localOffset, limit: Math.max(0, Math.min(end, localTotal) - localOffset) },
    vendor: { start: Math.max(0, start - localTotal), end: Math.max(0, end - localTotal) },
  };
}
