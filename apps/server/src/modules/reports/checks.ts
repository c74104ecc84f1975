/** Checking a report file: by its id for a signed-in holder, by its SHA-256 alone for anyone. */
import { eq } from 'drizzle-orm';
import { readsReportOf } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { reports, type UserRow, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { presentPublicCheck, presentReportCheck } from './present.ts';
import { UUID } from './stored.ts';

/**
 * A signed-in caller checks a report by its id: its owner, the owner's supervisors and admins see who made it, when, for
 * what lookup and under which file name; anyone else only whether the hash matches and when.
 */
export async function verifyReport(db: Database, caller: UserRow, reportId: string, sha256: string) {
  if (!UUID.test(reportId)) throw notFound('No report with this id.');
  const [row] = await db
    .select({ report: reports, name: users.name, email: users.email })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.userId))
    .where(eq(reports.id, reportId));
  if (!row) throw notFound('No report with this id.');
  const insider = await readsReportOf(db, caller, row.report.userId);
  return insider ? presentReportCheck(row.report, row, sha256) : presentPublicCheck(row.report, sha256);
}

/**
 * Anyone checks a file by its SHA-256 alone: whether this server made a report with exactly that
 * hash, and when (the first, should two files ever share one). Nothing else about the report.
 */
export async function verifyReportHash(
  db: Database,
  sha256: string,
): Promise<{ valid: boolean; generated_at?: string }> {
  const [row] = await db
    .select({ createdAt: reports.createdAt })
    .from(reports)
    .where(eq(reports.sha256, sha256.toLowerCase()))
    .orderBy(reports.createdAt)
    .limit(1);
  return row ? { valid: true, generated_at: row.createdAt.toISOString() } : { valid: false };
}
