import {
  LEAK_TOTAL_CAP,
  type LeakRecord,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
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

  const data: LeakRecord[] = records.map((r) => ({
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
    other: r.other ?? {},
    matched: matchedTypes(r, conditions),
    origins: [LOCAL_ORIGIN],
  }));
  return { data, sandbox: records.some((r) => r.sandbox) };
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
