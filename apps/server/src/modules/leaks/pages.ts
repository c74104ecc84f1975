import {
  LEAK_TOTAL_CAP,
  type LeakRecord,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { executePrepared } from '../../db/named-statement.ts';
import { rowsOf } from '../../db/rows.ts';
import { leakRecords, leakSources } from '../../db/schema.ts';
import { LOCAL_ORIGIN, type LocalTwinCandidate } from './federation.ts';
import { type LeakCondition, matchedTypes, whereAll } from './query.ts';

/** Which sources a search reads: with the sandbox off, synthetic sources are never searched. */
export interface LeakScope {
  includeSandbox: boolean;
}

/**
 * The query's conditions within the scope. With the sandbox off, records of sandbox sources are left
 * out through the (small) sources table, so each condition still uses its own index.
 */
function scoped(conditions: LeakCondition[], scope: LeakScope): SQL {
  const where = whereAll(conditions);
  if (scope.includeSandbox) return where;
  return and(
    where,
    sql`${leakRecords.sourceId} in (select ${leakSources.id} from ${leakSources} where ${leakSources.sandbox} = false)`,
  )!;
}

/**
 * Whether the local index holds any record the scope reads (with the sandbox off, a record of a real
 * import). An index with none cannot answer a search: with no vendor configured either, the leak
 * search is unavailable (503, nothing charged), as any kind no source answers.
 */
export async function indexHasRecords(db: Database, scope: LeakScope): Promise<boolean> {
  const key = scope.includeSandbox ? 'all' : 'real';
  const known = filled.get(db)?.[key];
  if (known !== undefined && performance.now() - known < FILLED_TTL_MS) return true;
  const has = await readIndexHasRecords(db, scope);
  if (has) filled.set(db, { ...filled.get(db), [key]: performance.now() });
  return has;
}

/**
 * When the index was last seen holding records, per database and scope: a filled index stays filled
 * (records go only with their source, by an operator), so every search need not ask again, and a
 * search costs two round trips fewer. An empty index is asked every time (it fills at an import).
 * Should the index be emptied, a search within FILLED_TTL_MS finds nothing and, by the charging
 * rule, is not charged.
 */
const filled = new WeakMap<Database, { all?: number; real?: number }>();
const FILLED_TTL_MS = 10_000;

async function readIndexHasRecords(db: Database, scope: LeakScope): Promise<boolean> {
  // No source in scope at all (the common case of an unfilled index): the records are not read.
  const sources = await db
    .select({ id: leakSources.id })
    .from(leakSources)
    .where(scope.includeSandbox ? undefined : eq(leakSources.sandbox, false))
    .limit(1);
  if (sources.length === 0) return false;
  const where = scope.includeSandbox
    ? sql`true`
    : sql`${leakRecords.sourceId} in (select ${leakSources.id} from ${leakSources} where ${leakSources.sandbox} = false)`;
  const found = rowsOf<{ one: number }>(
    await db.execute(sql`select 1 as one from ${leakRecords} where ${where} limit 1`),
  );
  return found.length > 0;
}

/** How many records match, up to one past the total cap (so that the answer can say it was capped). */
export async function countMatches(
  db: Database,
  conditions: LeakCondition[],
  scope: LeakScope,
): Promise<number> {
  const counted = rowsOf<{ n: number | string }>(
    await db.execute(
      sql`select count(*) as n from (select 1 from ${leakRecords} where ${scoped(conditions, scope)} limit ${LEAK_TOTAL_CAP + 1}) capped`,
    ),
  );
  return Number(counted[0]?.n ?? 0);
}

/**
 * A stretch of the matches (`offset`, `limit`), each record with its source, the fields it matched and
 * its origin (the local index). The stretch comes from the capped set of matches, found through the
 * shape's own index and then sorted: ORDER BY id over the whole table would walk the id index and
 * filter, which is slow for rare combinations (the planner cannot know how rare).
 */
export async function readPage(
  db: Database,
  conditions: LeakCondition[],
  range: { offset: number; limit: number },
  scope: LeakScope,
): Promise<{ data: LeakRecord[]; sandbox: boolean }> {
  const where = scoped(conditions, scope);
  const pageIds = db
    .select({ id: sql<number>`m.id`.as('page_id') })
    .from(
      db
        .select({ id: leakRecords.id })
        .from(leakRecords)
        .where(where)
        .limit(LEAK_TOTAL_CAP + 1)
        .as('m'),
    )
    .orderBy(sql`m.id`)
    .limit(range.limit)
    .offset(range.offset);
  const records = await db
    .select({
      id: leakRecords.id,
      name: leakRecords.name,
      email: leakRecords.email,
      phone: leakRecords.phone,
      username: leakRecords.username,
      address: leakRecords.address,
      other: leakRecords.other,
      email_norm: leakRecords.emailNorm,
      phone_norm: leakRecords.phoneNorm,
      username_norm: leakRecords.usernameNorm,
      name_tokens: leakRecords.nameTokens,
      sourceName: leakSources.name,
      breachDate: leakSources.breachDate,
      description: leakSources.description,
      sandbox: leakSources.sandbox,
    })
    .from(leakRecords)
    .innerJoin(leakSources, eq(leakSources.id, leakRecords.sourceId))
    .where(and(sql`${leakRecords.id} in (${pageIds})`, where))
    .orderBy(leakRecords.id);

  const data = records.map((r) => recordOf(r, conditions));
  return { data, sandbox: records.some((r) => r.sandbox) };
}

/** A stored record as the answer lists it, with the fields it matched and its origin. */
function recordOf(
  r: {
    id: number | string;
    name: string | null;
    email: string | null;
    phone: string | null;
    username: string | null;
    address: string | null;
    other: unknown;
    sourceName: string;
    breachDate: string | null;
    description: string | null;
  } & Record<string, unknown>,
  conditions: LeakCondition[],
): LeakRecord {
  return {
    id: String(r.id),
    source: {
      name: r.sourceName,
      breach_date: r.breachDate ?? null,
      description: r.description ?? null,
    },
    name: r.name,
    email: r.email,
    phone: r.phone,
    username: r.username,
    address: r.address,
    other: (r.other ?? {}) as LeakRecord['other'],
    matched: matchedTypes(r, conditions),
    origins: [LOCAL_ORIGIN],
  };
}

/**
 * countMatches and readPage in one statement (one round trip instead of two): the capped match set
 * once, its size, and the stretch `range` of it with each record's source. `range` must lie within
 * the capped total (pageWindow(LEAK_TOTAL_CAP, …).local): the set holds one match more than the cap.
 * The same plan as the two statements: the shape's own index into the capped set, then the sort.
 */
export async function countAndReadPage(
  db: Database,
  conditions: LeakCondition[],
  range: { offset: number; limit: number },
  scope: LeakScope,
): Promise<{ matches: number; data: LeakRecord[]; sandbox: boolean }> {
  const where = scoped(conditions, scope);
  const rows = rowsOf<{
    n: number | string;
    id: number | string | null;
    name: string | null;
    email: string | null;
    phone: string | null;
    username: string | null;
    address: string | null;
    other: unknown;
    email_norm: string | null;
    phone_norm: string | null;
    username_norm: string | null;
    name_tokens: string[] | null;
    source_name: string;
    breach_date: string | null;
    description: string | null;
    sandbox: boolean | null;
  }>(
    await executePrepared(
      db,
      sql`
      with m as materialized (
        select ${leakRecords.id} as id from ${leakRecords} where ${where} limit ${LEAK_TOTAL_CAP + 1}
      )
      select c.n, p.* from (select count(*) as n from m) c
      left join lateral (
        select ${leakRecords.id} as id, ${leakRecords.name} as name, ${leakRecords.email} as email,
          ${leakRecords.phone} as phone, ${leakRecords.username} as username, ${leakRecords.address} as address,
          ${leakRecords.other} as other, ${leakRecords.emailNorm} as email_norm, ${leakRecords.phoneNorm} as phone_norm,
          ${leakRecords.usernameNorm} as username_norm, ${leakRecords.nameTokens} as name_tokens,
          s.name as source_name, s.breach_date::text as breach_date, s.description, s.sandbox
        from ${leakRecords} join ${leakSources} s on s.id = ${leakRecords.sourceId}
        where ${leakRecords.id} in (select id from m order by id limit ${range.limit} offset ${range.offset})
          and ${where}
      ) p on true
      order by p.id`,
    ),
  );
  const found = rows.filter((r) => r.id !== null);
  return {
    matches: Number(rows[0]?.n ?? 0),
    data: found.map((r) =>
      recordOf({ ...r, id: r.id!, sourceName: r.source_name, breachDate: r.breach_date }, conditions),
    ),
    sandbox: found.some((r) => r.sandbox === true),
  };
}

/** Most local candidates read for de-duplication (vendor answers are capped far below this). */
const MAX_TWIN_CANDIDATES = 2_000;

const keysOf = (values: Array<string | null>, normalize: (value: string) => string) => [
  ...new Set(values.map((value) => (value ? normalize(value) : ''))),
];

const inList = (column: SQL, keys: string[]) =>
  sql`coalesce(${column}, '') in (${sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  )})`;

/**
 * The local matches that may be identical to one of `records` (vendor records): same normalized
 * e-mail, phone and username keys. The caller compares the full identity (name, address and source
 * included); this only narrows the matches down through their indexed keys.
 */
export async function findTwinCandidates(
  db: Database,
  conditions: LeakCondition[],
  scope: LeakScope,
  records: readonly Pick<LeakRecord, 'email' | 'phone' | 'username'>[],
): Promise<LocalTwinCandidate[]> {
  if (records.length === 0) return [];
  const rows = await db
    .select({
      id: leakRecords.id,
      name: leakRecords.name,
      email: leakRecords.email,
      phone: leakRecords.phone,
      username: leakRecords.username,
      address: leakRecords.address,
      sourceName: leakSources.name,
    })
    .from(leakRecords)
    .innerJoin(leakSources, eq(leakSources.id, leakRecords.sourceId))
    .where(
      and(
        scoped(conditions, scope),
        inList(
          sql`${leakRecords.emailNorm}`,
          keysOf(
            records.map((r) => r.email),
            normalizeLeakEmail,
          ),
        ),
        inList(
          sql`${leakRecords.phoneNorm}`,
          keysOf(
            records.map((r) => r.phone),
            normalizeLeakPhone,
          ),
        ),
        inList(
          sql`${leakRecords.usernameNorm}`,
          keysOf(
            records.map((r) => r.username),
            normalizeLeakUsername,
          ),
        ),
      ),
    )
    .limit(MAX_TWIN_CANDIDATES);
  return rows.map((r) => ({
    id: String(r.id),
    name: r.name,
    email: r.email,
    phone: r.phone,
    username: r.username,
    address: r.address,
    source: { name: r.sourceName },
  }));
}
