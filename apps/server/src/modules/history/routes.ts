import { Readable } from 'node:stream';
import {
  caseReferencePolicyResponse,
  creditStatementResponse,
  historyCsvQuery,
  historyCsvResponse,
  historyDetailResponse,
  historyExportQuery,
  historyExportResponse,
  historyPageResponse,
  historyQuery,
  statementQuery,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { HistoryService } from './service.ts';

const tags = ['History and credits'];

/** Every signed-in user's own records; nobody sees another's. */
export function historyRoutes(app: FastifyInstance, deps: { history: HistoryService; guards: Guards }) {
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/history',
    {
      preHandler,
      schema: {
        summary: "The caller's lookups, newest first",
        description:
          'Filters: `kind`, `case_id` (filed under one of the cases the caller sees) and `job_id` (the rows ' +
          "of one of the caller's bulk jobs); another's case or job answers 404. `group=job` (opt-in, so " +
          'the plain list keeps one lookup per entry) lists each bulk job as one entry (`type: bulk_job`) ' +
          'and every other entry with `type: lookup`.',
        tags,
        querystring: historyQuery,
        response: { 200: historyPageResponse },
        refusals: { 404: 'The case or bulk job is not one the caller sees.' },
      },
    },
    async (request) => deps.history.list(request.user!, parseInput(historyQuery, request.query)),
  );

  api.get<{ Params: { id: string } }>(
    '/api/history/:id',
    {
      preHandler,
      // A script reads back a lookup it ran (by the lookup_id of its answer) with the lookups scope.
      ...apiKeyScope('lookups'),
      schema: {
        summary: "One of the caller's lookups with its stored result, free (410 once purged)",
        tags,
        params: z.object({ id: z.string().describe('The lookup id.') }),
        response: { 200: historyDetailResponse },
        refusals: { 410: 'The result was purged by the retention policy.' },
      },
    },
    async (request) => deps.history.open(request.user!, request.params.id, clientOf(request)),
  );

  api.get<{ Params: { id: string } }>(
    '/api/history/:id/export',
    {
      preHandler,
      schema: {
        summary:
          "One of the caller's lookups as a CSV, JSON or XLSX download, from its stored result, free (410 once purged)",
        tags,
        params: z.object({ id: z.string().describe('The lookup id.') }),
        querystring: historyExportQuery,
        response: { 200: historyExportResponse },
        refusals: { 410: 'The result was purged by the retention policy.' },
        responseHeaders: {
          'Content-Disposition': 'attachment; filename="…"',
          'X-Export-Records': 'A leak search: how many records the file holds.',
          'X-Export-Matches': "A leak search: how many records match ('10000+' past the cap).",
        },
      },
    },
    async (request, reply) => {
      const { format } = parseInput(historyExportQuery, request.query);
      const file = await deps.history.exportResult(
        request.user!,
        request.params.id,
        format,
        clientOf(request),
      );
      reply
        .header('content-type', file.mediaType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store');
      if (file.records)
        reply
          .header('x-export-records', String(file.records.held))
          .header(
            'x-export-matches',
            file.records.capped ? `${file.records.matches}+` : String(file.records.matches),
          );
      return reply.send(Buffer.isBuffer(file.body) ? file.body : Readable.from(file.body));
    },
  );

  /** The lookups list as a CSV download, streamed; the export itself is written to the trail first. */
  api.get(
    '/api/history.csv',
    {
      preHandler,
      schema: {
        summary: "The caller's lookups as a CSV download, newest first (the export is audited)",
        tags,
        querystring: historyCsvQuery,
        response: { 200: historyCsvResponse },
        responseHeaders: {
          'Content-Disposition': 'attachment; filename="…"',
          'X-History-Rows': 'How many lookups the file lists.',
        },
      },
    },
    async (request, reply) => {
      const query = parseInput(historyCsvQuery, request.query);
      const { fileName, rows, chunks } = await deps.history.exportList(
        request.user!,
        query,
        clientOf(request),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-history-rows', String(rows))
        .send(Readable.from(chunks));
    },
  );

  api.get(
    '/api/credits/statement',
    {
      preHandler,
      schema: {
        summary: "The caller's credit ledger, newest first, with the balance",
        tags,
        querystring: statementQuery,
        response: { 200: creditStatementResponse },
      },
    },
    async (request) => deps.history.statement(request.user!, parseInput(statementQuery, request.query)),
  );

  api.get(
    '/api/case-reference-policy',
    {
      preHandler,
      schema: {
        summary: 'Whether a case reference is mandatory on this deployment',
        tags,
        response: { 200: caseReferencePolicyResponse },
      },
    },
    async () => deps.history.caseReferencePolicy(),
  );
}
