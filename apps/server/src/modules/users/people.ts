import { inArray } from 'drizzle-orm';
import { holds } from '../../access/policy.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export interface Person {
  id: string;
  name: string;
  email: string;
}

/** The accounts of these ids, by id: who a list of a supervisor's units names beside each entry. */
export async function peopleByIds(db: Executor, ids: Iterable<string>): Promise<Map<string, Person>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Adds `user` to the entries that are not the caller's (a list of their units' work). */
export async function namingOthers<T extends object>(
  db: Executor,
  caller: { id: string },
  entries: { row: { userId: string }; shown: T }[],
): Promise<(T & { user?: Person })[]> {
  const others = entries.filter((e) => !holds(caller, e.row.userId)).map((e) => e.row.userId);
  const people = await peopleByIds(db, others);
  return entries.map(({ row, shown }) => {
    const person = holds(caller, row.userId) ? undefined : people.get(row.userId);
    return person ? { ...shown, user: person } : shown;
  });
}
