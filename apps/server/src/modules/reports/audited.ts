import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { reports, type UserRow } from '../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { httpStatusOf } from '../../http/errors.ts';
import { auditInsert, recordAudit } from '../audit/service.ts';
import type { ReportFile } from './files.ts';

/**
 * Runs one report request (its input parsing included) and writes its audit row: every attempt is in
 * the trail, refused ones too. A made report's `reports` row and its audit row are one statement.
 */
export async function auditedReport(
  db: Database,
  user: UserRow,
  client: ClientContext,
  action: string,
  work: () => Promise<ReportFile>,
): Promise<ReportFile> {
  try {
    const file = await work();
    // The report's hash (for /verify) and its audit row in one statement: both or neither.
    const audit = auditInsert(db, [
      {
        action,
        outcome: 'success',
        user,
        client,
        target: file.reportId,
        cost: 0,
        caseReference: file.caseReference,
        details: { file_name: file.fileName, sha256: file.sha256, lookup_id: file.lookupId },
      },
    ]);
    await db.execute(sql`with report as (${db.insert(reports).values(file.row).getSQL()}) ${audit.getSQL()}`);
    return file;
  } catch (error) {
    const code = error instanceof DomainError ? error.code : 'internal';
    await recordAudit(db, {
      action,
      outcome: 'failure',
      user,
      client,
      // `status` is what the API answered, for readers of the trail; `code` is the refusal.
      details: { status: httpStatusOf(code), code, message: (error as Error).message.slice(0, 300) },
    });
    throw error;
  }
}
