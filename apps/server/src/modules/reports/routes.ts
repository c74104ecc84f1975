import {
  DETAIL_KINDS,
  detailReportRequest,
  lookupReportRequest,
  reportPdfResponse,
  reportVerifyQuery,
  reportVerifyResponse,
} from '@footprint/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { parseInput } from '../../http/errors.ts';
import type { ReportFile, ReportService } from './service.ts';

const tags = ['Reports'];

const sendPdf = (reply: FastifyReply, file: ReportFile) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('x-report-id', file.reportId)
    .header('x-report-sha256', file.sha256)
    .header('cache-control', 'no-store')
    .send(file.pdf);

const lookupIdOf = (results: unknown): unknown =>
  results && typeof results === 'object' ? (results as { lookup_id?: unknown }).lookup_id : undefined;

export function reportRoutes(app: FastifyInstance, deps: { reports: ReportService; guards: Guards }) {
  const { reports, guards } = deps;
  const preHandler = guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  /** Every attempt is in the audit trail, refused ones included. */
  const audited = (request: FastifyRequest, action: string, work: () => Promise<ReportFile>) =>
    reports.audited(request.user!, clientOf(request), action, work);

  const fromLookup =
    "Drawn from what the server stored for the caller's own lookup (`results.lookup_id`), never from " +
    "what the browser sends. 404 when no stored lookup of the caller's matches.";

  api.post(
    '/api/generate-report',
    {
      preHandler,
      schema: {
        summary: 'The PDF report of a phone or e-mail lookup',
        description: fromLookup,
        tags,
        body: lookupReportRequest,
        response: { 200: reportPdfResponse },
      },
    },
    async (request, reply) => {
      const file = await audited(request, 'report.lookup', async () => {
        const input = parseInput(lookupReportRequest, request.body);
        return reports.lookupReport(request.user!, input.type, input.userInput, lookupIdOf(input.results));
      });
      return sendPdf(reply, file);
    },
  );

  api.post(
    '/api/generate-ai-report',
    {
      preHandler,
      schema: {
        summary: 'The written-analysis PDF report of a phone or e-mail lookup',
        description: fromLookup,
        tags,
        body: lookupReportRequest,
        response: { 200: reportPdfResponse },
      },
    },
    async (request, reply) => {
      const file = await audited(request, 'report.ai', async () => {
        const input = parseInput(lookupReportRequest, request.body);
        return reports.aiReport(request.user!, input.type, input.userInput, lookupIdOf(input.results));
      });
      return sendPdf(reply, file);
    },
  );

  for (const type of DETAIL_KINDS) {
    api.post(
      `/api/generate-${type}-report`,
      {
        preHandler,
        schema: {
          summary: `The PDF report of a ${type === 'rc' ? 'vehicle registration' : type === 'upi' ? 'UPI id' : 'challan'} lookup`,
          description: "Drawn from the caller's own stored lookup of the id the record names.",
          tags,
          body: detailReportRequest,
          response: { 200: reportPdfResponse },
        },
      },
      async (request, reply) => {
        const file = await audited(request, `report.${type}`, async () => {
          const input = parseInput(detailReportRequest, request.body);
          return reports.detailReport(request.user!, type, input.data);
        });
        return sendPdf(reply, file);
      },
    );
  }

  /** A holder of a report checks it: GET /api/reports/{id}/verify?sha256=<hex of the file>. */
  api.get<{ Params: { id: string } }>(
    '/api/reports/:id/verify',
    {
      preHandler,
      schema: {
        summary: 'Check that a file is a report this server generated',
        tags,
        params: z.object({ id: z.string().describe('The report id (X-Report-Id).') }),
        querystring: reportVerifyQuery,
        response: { 200: reportVerifyResponse },
      },
    },
    async (request) => {
      const { sha256 } = parseInput(reportVerifyQuery, request.query);
      return reports.verify(request.params.id, sha256);
    },
  );
}
