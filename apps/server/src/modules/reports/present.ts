import type { reports } from '../../db/schema.ts';

/** A report's check: whether the SHA-256 a holder gives is the one of the file generated, and by whom. */
export const presentReportCheck = (
  report: typeof reports.$inferSelect,
  author: { name: string; email: string },
  sha256: string,
) => ({
  report_id: report.id,
  valid: report.sha256 === sha256.toLowerCase(),
  kind: report.kind,
  file_name: report.fileName,
  generated_at: report.createdAt.toISOString(),
  generated_by: { name: author.name, email: author.email },
  lookup_id: report.lookupId,
});
