/**
 * The entities and dated facts a case's searches hold: read from their results once per search, then
 * gathered per case with the other cases the viewer can see that found them too.
 */

import { type CaseDetail, datesOf, entitiesOf } from '@footprint/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { casesSeenBy } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { caseItems, cases, lookupDates, lookupEntities, lookups, type UserRow } from '../../db/schema.ts';

/** Reads the entities and dated facts of the case's searches that were not read yet (once per search). */
export async function readEntities(db: Database, caseId: string): Promise<void> {
  const due = await db
    .select({
      lookupId: caseItems.lookupId,
      kind: lookups.kind,
      result: lookups.result,
      cacheOf: lookups.cacheOf,
    })
    .from(caseItems)
    .innerJoin(lookups, eq(lookups.id, caseItems.lookupId))
    .where(and(eq(caseItems.caseId, caseId), eq(caseItems.entitiesRead, false)));
  if (due.length === 0) return;
  // A free repeat keeps no result of its own: its entities are those of the search it reused.
  const originals = due.filter((d) => d.result === null && d.cacheOf).map((d) => d.cacheOf!);
  const kept = new Map<string, unknown>();
  if (originals.length > 0) {
    for (const row of await db
      .select({ id: lookups.id, result: lookups.result })
      .from(lookups)
      .where(inArray(lookups.id, originals)))
      kept.set(row.id, row.result);
  }
  await db.transaction(async (tx) => {
    for (const item of due) {
      const result = item.result ?? (item.cacheOf ? kept.get(item.cacheOf) : null) ?? null;
      const entities = result === null ? [] : entitiesOf(item.kind, result);
      const dates = result === null ? [] : datesOf(item.kind, result);
      if (dates.length > 0) {
        await tx
          .insert(lookupDates)
          .values(dates.map((d) => ({ lookupId: item.lookupId, ...d })))
          .onConflictDoNothing();
      }
      if (entities.length > 0) {
        await tx
          .insert(lookupEntities)
          .values(
            entities.map((e) => ({
              lookupId: item.lookupId,
              type: e.type,
              value: e.value,
              sources: e.sources,
            })),
          )
          .onConflictDoNothing();
      }
    }
    await tx
      .update(caseItems)
      .set({ entitiesRead: true })
      .where(
        and(
          eq(caseItems.caseId, caseId),
          inArray(
            caseItems.lookupId,
            due.map((d) => d.lookupId),
          ),
        ),
      );
  });
}

/**
 * The case's entities: one per type and value (names, addresses and employers compared without
 * regard to case), with every source and search that gave it, and the other cases the viewer can
 * see whose searches found it too.
 */
export async function entitiesOfCase(
  db: Database,
  viewer: UserRow,
  caseId: string,
): Promise<CaseDetail['entities']> {
  const rows = rowsOf<{
    type: string;
    value: string;
    sources: string[] | string;
    items: string[] | string;
    other_cases: Array<{ id: string; title: string; reference: string }> | string | null;
  }>(
    await db.execute(sql`
      with mine as (
        select e.type,
               case when e.type in ('name', 'address', 'employer', 'username') then lower(e.value) else e.value end as key,
               min(e.value) as value,
               jsonb_agg(distinct s.source) as sources,
               jsonb_agg(distinct e.lookup_id) as items
        from ${caseItems} i
        join ${lookupEntities} e on e.lookup_id = i.lookup_id
        cross join lateral jsonb_array_elements_text(e.sources) as s(source)
        where i.case_id = ${caseId}
        group by 1, 2
      ), seen as (
        select ${cases.id} as id, ${cases.title} as title, ${cases.reference} as reference from ${cases}
        where ${cases.id} <> ${caseId} and ${casesSeenBy(viewer)}
      ), theirs as (
        -- Set-based, from the viewer's other cases (a per-entity subquery cost ~1 ms per entity).
        select mine.type, mine.key,
               jsonb_agg(distinct jsonb_build_object('id', seen.id, 'title', seen.title, 'reference', seen.reference)) as other_cases
        from seen
        join ${caseItems} oi on oi.case_id = seen.id
        join ${lookupEntities} oe on oe.lookup_id = oi.lookup_id
        join mine on mine.type = oe.type
          and mine.key = (case when oe.type in ('name', 'address', 'employer', 'username') then lower(oe.value) else oe.value end)
        group by 1, 2
      )
      select mine.type, mine.value, mine.sources, mine.items, theirs.other_cases
      from mine
      left join theirs on theirs.type = mine.type and theirs.key = mine.key
      order by mine.type, mine.value
    `),
  );
  const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  return rows.map((row) => {
    const sources = json<string[]>(row.sources).sort();
    const items = json<string[]>(row.items);
    return {
      type: row.type,
      value: row.value,
      sources,
      items,
      corroborated: sources.length >= 2 || items.length >= 2,
      other_cases: row.other_cases === null ? [] : json(row.other_cases),
    };
  });
}
