import type { reports } from '../../db/schema.ts';

/** A report's check as its owner or an admin sees it: whether the SHA-256 matches, and by whom, when, for what. */
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

/**
 * The same check for anyone else: whether the hash matches and, only then, when the report was made.
 * A wrong hash learns nothing more than that.
 */
export const presentPublicCheck = (report: typeof reports.$inferSelect, sha256: string) => {
  const valid = report.sha256 === sha256.toLowerCase();
  return {
    report_id: report.id,
    valid,
    ...(valid ? { generated_at: report.createdAt.toISOString() } : {}),
  };
};
