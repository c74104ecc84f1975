import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { leakSources } from '../../../db/schema.ts';

export interface LeakSourceInput {
  name: string;
  /** 'YYYY-MM-DD' */
  breachDate?: string | undefined;
  description?: string | undefined;
  /** Synthetic sandbox records (the generator), never set by a real import. */
  sandbox?: boolean | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function validateLeakSource(source: LeakSourceInput): void {
  const name = source.name.trim();
  if (name === '' || name.length > 200) throw new Error('The source name must be 1 to 200 characters.');
  if (source.breachDate !== undefined) {
    const date = new Date(`${source.breachDate}T00:00:00Z`);
    if (
      !DATE.test(source.breachDate) ||
      Number.isNaN(date.getTime()) ||
      !date.toISOString().startsWith(source.breachDate)
    ) {
      throw new Error(`The breach date must be a real date as YYYY-MM-DD, not '${source.breachDate}'.`);
    }
  }
}

/** The source's id, creating it by name when absent; a given breach date or description is updated. */
export async function upsertLeakSource(db: Database, source: LeakSourceInput): Promise<string> {
  return (await upsertLeakSourceRow(db, source)).id;
}

/** upsertLeakSource(), with the segment of leak_records that holds the source's records. */
export async function upsertLeakSourceRow(
  db: Database,
  source: LeakSourceInput,
): Promise<{ id: string; segment: number }> {
  validateLeakSource(source);
  const [row] = await db
    .insert(leakSources)
    .values({
      name: source.name.trim(),
      breachDate: source.breachDate ?? null,
      description: source.description ?? null,
      sandbox: source.sandbox ?? false,
    })
    .onConflictDoUpdate({
      target: leakSources.name,
      set: {
        breachDate: sql`coalesce(excluded.breach_date, ${leakSources.breachDate})`,
        description: sql`coalesce(excluded.description, ${leakSources.description})`,
        sandbox: sql`${leakSources.sandbox} or excluded.sandbox`,
      },
    })
    .returning({ id: leakSources.id, segment: leakSources.segment });
  return row as { id: string; segment: number };
}

/** record_count = what leak_records holds for the source now, imported_at = now(). */
export async function refreshLeakSourceCounts(db: Database, sourceIds: readonly string[]): Promise<void> {
  for (const id of sourceIds) {
    await db.execute(
      sql`update leak_sources set record_count = (select count(*) from leak_records where source_id = ${id}),
            imported_at = now() where id = ${id}`,
    );
  }
}
