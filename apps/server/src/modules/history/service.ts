import type {
  CaseReferencePolicyResponse,
  ExportFormat,
  HistoryDetail,
  HistoryQuery,
} from '@footprint/domain';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ClientContext } from '../../http/context.ts';
import { presentAnswerTime, presentStoredResult } from '../lookup/present.ts';
import { retentionCutoff } from '../lookup/retention.ts';
import {
  type DeploymentDefaults,
  isCaseReferenceRequired,
  readDeploymentSettings,
} from '../settings/service.ts';
import { resultCsv, resultFileName } from './export.ts';
import { creditStatement, exportLookups, listLookups } from './lists.ts';
import { presentHistoryDetail } from './present.ts';
import { storedOf } from './stored.ts';

/**
 * A user's own records: the lookups they ran (reopened and exported without a charge, queries in
 * queries.ts, the stored result in stored.ts, the lists in lists.ts) and their credit statement.
 */
export function createHistoryService(deps: { db: Database; settings: DeploymentDefaults; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The start of the retention period: a result older than this is not served. */
  async function cutoff() {
    const { lookupRetentionDays } = await readDeploymentSettings(db, deps.settings);
    return retentionCutoff(now(), lookupRetentionDays);
  }

  return {
    /** What the search forms need to know: is a case reference mandatory on this deployment? */
    async caseReferencePolicy(): Promise<CaseReferencePolicyResponse> {
      return { required: await isCaseReferenceRequired(db) };
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
     * `open`), free, written to the audit trail as `lookup.export` with the format.
     */
    async exportResult(
      user: UserRow,
      id: string,
      format: ExportFormat,
      client: ClientContext,
    ): Promise<{ fileName: string; mediaType: string; body: string }> {
      const { lookup, result, answeredAt, reusedFrom } = await storedOf(
        db,
        await cutoff(),
        user,
        id,
        client,
        'lookup.export',
        { format },
      );
      const fileName = resultFileName(lookup.kind, lookup.query, lookup.createdAt, format);
      if (format === 'csv') {
        return { fileName, mediaType: 'text/csv; charset=utf-8', body: resultCsv(lookup.kind, result) };
      }
      const document = {
        lookup_id: lookup.id,
        kind: lookup.kind,
        query: lookup.query,
        query_typed: lookup.queryTyped,
        created_at: lookup.createdAt.toISOString(),
        case_reference: lookup.caseReference,
        result: presentStoredResult(lookup.kind, result, presentAnswerTime(answeredAt, reusedFrom)),
      };
      return {
        fileName,
        mediaType: 'application/json; charset=utf-8',
        body: `${JSON.stringify(document, null, 2)}\n`,
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
