import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { rowsOf } from './rows.ts';

/**
 * The migrations this build carries (drizzle/meta/_journal.json) against the ones the database has
 * applied (drizzle.__drizzle_migrations, which Drizzle's migrator writes): Drizzle applies every
 * migration newer than the newest one recorded, so those are the pending ones.
 */
export interface MigrationStatus {
  /** Migrations in the journal. */
  known: number;
  /** Journal entries the database has not applied. */
  pending: string[];
}

interface JournalEntry {
  tag: string;
  when: number;
}

/** The journal's entries, read once per folder. */
const journals = new Map<string, JournalEntry[]>();
export function journalOf(folder: string): JournalEntry[] {
  let entries = journals.get(folder);
  if (!entries) {
    const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
      entries: JournalEntry[];
    };
    entries = journal.entries.map(({ tag, when }) => ({ tag, when }));
    journals.set(folder, entries);
  }
  return entries;
}

/** PostgreSQL's undefined_table and invalid_schema_name: nothing was ever migrated. */
const NEVER_MIGRATED = new Set(['42P01', '3F000']);

const codeOf = (error: unknown): string | undefined => {
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: unknown }).cause;
  return cause ? codeOf(cause) : undefined;
};

export async function migrationStatus(db: Database, folder: string): Promise<MigrationStatus> {
  const entries = journalOf(folder);
  let last = -1;
  try {
    const [row] = rowsOf<{ last: string | number | null }>(
      await db.execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`),
    );
    last = row?.last === null || row?.last === undefined ? -1 : Number(row.last);
  } catch (error) {
    if (!NEVER_MIGRATED.has(codeOf(error) ?? '')) throw error;
  }
  return { known: entries.length, pending: entries.filter((entry) => entry.when > last).map((e) => e.tag) };
}
