import {
  type LeakFieldType,
  nameTokens,
  normalizeLeakEmail,
  normalizeLeakPhone,
  normalizeLeakUsername,
} from '@footprint/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { leakRecords } from '../../db/schema.ts';

export interface LeakCondition {
  type: LeakFieldType;
  /** Normalized: lower-case e-mail or username, last 10 phone digits, or name tokens. */
  value: string | string[];
}

/** One row of the query, normalized the way records were indexed at import. */
export function conditionOf(type: LeakFieldType, raw: string): LeakCondition {
  switch (type) {
    case 'email':
      return { type, value: normalizeLeakEmail(raw) };
    case 'phone':
      return { type, value: normalizeLeakPhone(raw) };
    case 'username':
      return { type, value: normalizeLeakUsername(raw) };
    case 'name':
      return { type, value: nameTokens(raw) };
  }
}

/** Each condition uses its own index (docs/scaling.md has the EXPLAIN of every shape). */
function predicate(condition: LeakCondition): SQL {
  switch (condition.type) {
    case 'email':
      return eq(leakRecords.emailNorm, condition.value as string);
    case 'phone':
      return eq(leakRecords.phoneNorm, condition.value as string);
    case 'username':
      return eq(leakRecords.usernameNorm, condition.value as string);
    case 'name': {
      // One array parameter, not one per token: the statement's text (and so its prepared plan,
      // pages.ts) does not change with the number of tokens.
      return sql`${leakRecords.nameTokens} @> ${sql.param(condition.value as string[])}::text[]`;
    }
  }
}

/** The order the conditions go into SQL: by type, so rows given in any order make one statement text. */
const TYPE_ORDER: Record<LeakFieldType, number> = { email: 0, phone: 1, username: 2, name: 3 };

/**
 * All conditions at once (rows combine with AND), in type order: the text of a search's statement
 * depends only on which types it has, so a prepared statement per text stays a handful per connection.
 */
export const whereAll = (conditions: LeakCondition[]): SQL =>
  and(...[...conditions].sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type]).map(predicate))!;

/** The same query whatever the row order or formatting: the key the charge and the cache use. */
export const queryKey = (conditions: LeakCondition[]) =>
  JSON.stringify(
    conditions
      .map((c) => [c.type, Array.isArray(c.value) ? [...c.value].sort() : c.value] as const)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  );

/** Which of the query's fields a record matched, for the results page. */
export function matchedTypes(record: Record<string, unknown>, conditions: LeakCondition[]): LeakFieldType[] {
  const hit = new Set<LeakFieldType>();
  for (const c of conditions) {
    if (c.type === 'email' && record.email_norm === c.value) hit.add('email');
    if (c.type === 'phone' && record.phone_norm === c.value) hit.add('phone');
    if (c.type === 'username' && record.username_norm === c.value) hit.add('username');
    if (c.type === 'name') {
      const tokens = new Set((record.name_tokens as string[] | null) ?? []);
      if ((c.value as string[]).every((t) => tokens.has(t))) hit.add('name');
    }
  }
  return [...hit];
}
