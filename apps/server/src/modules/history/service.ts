import { createHash } from 'node:crypto';
import {
  type CaseReferencePolicyResponse,
  declarationOf,
  type ExportFormat,
  type HistoryDetail,
  type HistoryQuery,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { recordAudit } from '../audit/service.ts';
import type { LeakScope } from '../leaks/pages.ts';
import { retentionCutoff } from '../lookup/retention.ts';
import {
  type DeploymentDefaults,
  isCaseReferenceRequired,
  readDeploymentSettings,
} from '../settings/service.ts';
import { resultFileName } from './export.ts';
import { digestOf, EXPORT_MEDIA_TYPES, lookupFile } from './export-file.ts';
import { leakExport } from './export-leak.ts';
import { creditStatement, exportLookups, listLookups } from './lists.ts';
import { presentHistoryDetail } from './present.ts';
import { storedOf } from './stored.ts';

/**
 * A user's own records: the lookups they ran (reopened and exported without a charge, queries in
 * queries.ts, the stored result in stored.ts, the lists in lists.ts) and their credit statement.
 */
export function createHistoryService(deps: {
  db: Database;
  settings: DeploymentDefaults;
  now?: () => Date;
  /** Which leak sources an export of a leak search reads again (the leak search's own scope). */
  leakScope?: LeakScope;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The start of the retention period: a result older than this is not served. */
  async function cutoff() {
    const { lookupRetentionDays } = await readDeploymentSettings(db, deps.settings);
    return retentionCutoff(now(), lookupRetentionDays);
  }

  return {
    /** What the search forms need to know: is a case reference, or a legal basis, mandatory here? */
    async caseReferencePolicy(): Promise<CaseReferencePolicyResponse> {
      const [required, { legalBasisRequired }] = await Promise.all([
        isCaseReferenceRequired(db),
        readDeploymentSettings(db, deps.settings),
      ]);
      return { required, legal_basis_required: legalBasisRequired };
    },

    list: async (user: UserRow, query: HistoryQuery) => listLookups(db, await cutoff(), user, query),

    /**
     * One of the user's own lookups with its stored result, at no charge. 404 for anything not
     * theirs, 410 once the result has been purged (or is past the retention period). The reopening
     * is written to the audit trail as `history.view`.
     */
    async open(user: UserRow, id: string, client: ClientContext): Promise<HistoryDetail> {
      const found = await storedOf(db, await cutoff(), user, id, client, 'history.view');
      return presentHistoryDetail(found.lookup, found.result, found);
    },

    /**
     * One of the user's own lookups as a download, from its stored result (the same 404 and 410 as
     * `open`), free. Phone, e-mail, detail, corporate and verification files are made whole (they
     * are small); a leak search's file holds every match and is streamed (export-leak.ts). Written to
     * the audit trail as `lookup.export` once the file is made (streamed: once its last byte is sent),
     * with the format, the lookup id, the byte count and the SHA-256 of the bytes sent; a stream cut
     * short is written as a failure with what was sent.
     */
    async exportResult(
      user: UserRow,
      id: string,
      format: ExportFormat,
      client: ClientContext,
    ): Promise<{
      fileName: string;
      mediaType: string;
      body: Buffer | AsyncGenerator<Buffer>;
      /** A leak export: the records the file holds, and how many match. */
      records?: { held: number; matches: number; capped: boolean };
    }> {
      const found = await storedOf(db, await cutoff(), user, id, client, 'lookup.export', { format }, false);
      const { lookup } = found;
      const fileName = resultFileName(lookup.kind, lookup.query, lookup.createdAt, format);
      const mediaType = EXPORT_MEDIA_TYPES[format];
      const exportedAt = now();
      const audit = (outcome: 'success' | 'failure', extra: Record<string, unknown>) =>
        recordAudit(db, {
          action: 'lookup.export',
          outcome,
          user,
          client,
          target: lookup.id,
          cost: 0,
          caseReference: lookup.caseReference,
          details: {
            kind: lookup.kind,
            query: lookup.query,
            query_typed: lookup.queryTyped,
            format,
            lookup_id: lookup.id,
            ...extra,
          },
        });

      if (declarationOf(lookup.kind)?.shape !== 'leak') {
        const body = await lookupFile(found, format, exportedAt);
        await audit('success', digestOf(body));
        return { fileName, mediaType, body };
      }

      const leak = await leakExport(
        db,
        deps.leakScope ?? { includeSandbox: true },
        found,
        format,
        exportedAt,
      );
      const counts = { records: leak.held, matches: leak.matches, capped: leak.capped };
      async function* audited(): AsyncGenerator<Buffer> {
        const hash = createHash('sha256');
        let bytes = 0;
        let done = false;
        try {
          for await (const chunk of leak.chunks) {
            const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
            if (buffer.length === 0) continue;
            hash.update(buffer);
            bytes += buffer.length;
            yield buffer;
          }
          done = true;
          // Before the stream ends: the response is complete only once its audit row is written.
          await audit('success', { ...counts, bytes, sha256: hash.digest('hex') });
        } finally {
          if (!done)
            await audit('failure', { ...counts, bytes, reason: 'stream_incomplete' }).catch(() => undefined);
        }
      }
      return {
        fileName,
        mediaType,
        body: audited(),
        records: { held: leak.held, matches: leak.matches, capped: leak.capped },
      };
    },

    exportList: (
      user: UserRow,
      query: { kind?: string | undefined },
      client: ClientContext,
      batchSize = 1000,
    ) => exportLookups(db, now(), user, query, client, batchSize),

    statement: (user: UserRow, query: { page: number; per_page: number }) => creditStatement(db, user, query),
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
