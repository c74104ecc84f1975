/**
 * A case's export in one format (GET /api/cases/{id}/export/{format}): read, rendered, hashed and
 * audited (`case.export`, with the file's SHA-256), for a case the caller may see (404 otherwise).
 */
import { createHash } from 'node:crypto';
import { CASE_EXPORTS, type CaseDetail, type CaseExportFormat, legalBasisLine } from '@footprint/domain';
import type { Database } from '../../../db/client.ts';
import type { UserRow } from '../../../db/schema.ts';
import type { ClientContext } from '../../../http/context.ts';
import { recordAudit } from '../../audit/service.ts';
import type { Cases } from '../service.ts';
import { referenceSlug } from '../stored-result.ts';
import { CASE_EXPORT_RENDERERS } from './index.ts';
import { type CaseExportInput, caseExportInput } from './input.ts';

export interface CaseExportFile {
  fileName: string;
  mediaType: string;
  body: Buffer;
  sha256: string;
}

/** 'case-fir-214-2026.stix.json' */
export const caseExportFileName = (detail: Pick<CaseDetail, 'reference'>, format: CaseExportFormat) =>
  `case-${referenceSlug(detail.reference)}.${CASE_EXPORTS[format].extension}`;

/** One format of a case read for export (the endpoint renders one, the bundle every one). */
export function renderCaseExport(input: CaseExportInput, format: CaseExportFormat): CaseExportFile {
  const body = Buffer.from(CASE_EXPORT_RENDERERS[format](input), 'utf8');
  return {
    fileName: caseExportFileName(input.detail, format),
    mediaType: CASE_EXPORTS[format].mediaType,
    body,
    sha256: createHash('sha256').update(body).digest('hex'),
  };
}

export function createCaseExports(deps: { db: Database; cases: Cases; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async export(
      user: UserRow,
      caseId: string,
      format: CaseExportFormat,
      client: ClientContext,
    ): Promise<CaseExportFile> {
      const detail = await deps.cases.get(user, caseId);
      const file = renderCaseExport(await caseExportInput(deps.db, user, detail, now()), format);
      await recordAudit(deps.db, {
        action: 'case.export',
        outcome: 'success',
        user,
        client,
        target: detail.id,
        cost: 0,
        caseReference: detail.reference,
        details: {
          case_id: detail.id,
          ...(detail.legal_basis ? { legal_basis: legalBasisLine(detail.legal_basis) } : {}),
          format,
          file_name: file.fileName,
          sha256: file.sha256,
          bytes: file.body.length,
        },
      });
      return file;
    },
  };
}

export type CaseExports = ReturnType<typeof createCaseExports>;
