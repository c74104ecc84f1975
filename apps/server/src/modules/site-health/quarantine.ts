/**
 * The lookups' synchronous view of the quarantine: which sites' checks have been failing, and since
 * when (site_health.failing_since). runtime.ts makes it before the site check exists and hands the site
 * check `(id) => view.get(id)`; it is filled from the database at start, after each self-check run and
 * every few minutes (another process may have run one).
 */
import { isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { siteHealth } from '../../db/schema.ts';

export interface QuarantineView {
  /** When the site's check started failing (ISO), if it is quarantined. */
  get(siteId: string): string | undefined;
  /** Replaces the whole view. */
  replace(entries: ReadonlyMap<string, string>): void;
  readonly size: number;
}

export function createQuarantineView(): QuarantineView {
  let current: ReadonlyMap<string, string> = new Map();
  return {
    get: (siteId) => current.get(siteId),
    replace(entries) {
      current = new Map(entries);
    },
    get size() {
      return current.size;
    },
  };
}

/** The quarantined sites and since when, from the database. */
export async function readQuarantine(db: Executor): Promise<Map<string, string>> {
  const rows = await db
    .select({ siteId: siteHealth.siteId, failingSince: siteHealth.failingSince })
    .from(siteHealth)
    .where(isNotNull(siteHealth.failingSince));
  return new Map(
    rows.flatMap((row) => (row.failingSince ? [[row.siteId, row.failingSince.toISOString()]] : [])),
  );
}

/** Reads the quarantine again into `view`. */
export async function refreshQuarantine(db: Executor, view: QuarantineView): Promise<void> {
  view.replace(await readQuarantine(db));
}
