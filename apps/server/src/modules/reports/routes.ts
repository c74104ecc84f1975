import {
  aiReportRequest,
  DETAIL_KINDS,
  detailFacts,
  detailReportRequest,
  lookupReportRequest,
  publicVerifyRequest,
  publicVerifyResponse,
  reportPdfResponse,
  reportVerifyQuery,
  reportVerifyResponse,
  SEARCH_KIND_DECLARATIONS,
} from '@footprint/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../errors.ts';
import { apiKeyScope, type Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import { REFUSALS } from '../../http/responses.ts';
import type { RateLimits } from '../../security/rate-limit.ts';
import type { ReportFile, ReportService } from './service.ts';

const tags = ['Reports'];
const pdfHeaders = {
  'Content-Disposition': 'attachment; filename="…"',
  'X-Report-Id': 'The report id (GET /api/reports/{id}/verify).',
  'X-Report-Sha256': 'The SHA-256 of the file.',
};
const reportRefusals = {
  404: "No stored lookup of the caller's matches.",
  503: REFUSALS.reportsBusy,
};

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

export function reportRoutes(
  app: FastifyInstance,
  deps: { reports: ReportService; guards: Guards; limits: RateLimits },
) {
  const { reports, guards, limits } = deps;
  const preHandler = guards.authenticate;
  // Reports of the caller's own lookups, and checking one, answer API keys with the reports scope.
  const scoped = apiKeyScope('reports');
  const api = app.withTypeProvider<ContractTypeProvider>();

  /** Every attempt is in the audit trail, refused ones included. */
  const audited = (request: FastifyRequest, action: string, work: () => Promise<ReportFile>) =>
    reports.audited(request.user!, clientOf(request), action, work);

  const fromLookup =
    "Drawn from what the server stored for the caller's own lookup (`results.lookup_id`), never from " +
    "what the browser sends. 404 when no stored lookup of the caller's matches. 503 with Retry-After " +
    'when every report thread is busy and the report queue is full (REPORT_QUEUE).';

  api.post(
    '/api/generate-report',
    {
      preHandler,
      ...scoped,
      schema: {
        summary: 'The PDF report of a phone, e-mail or username lookup',
        description: fromLookup,
        tags,
        body: lookupReportRequest,
        response: { 200: reportPdfResponse },
        refusals: reportRefusals,
        responseHeaders: pdfHeaders,
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
      ...scoped,
      schema: {
        summary: 'The written-analysis PDF report of a phone or e-mail lookup',
        description: fromLookup,
        tags,
        body: aiReportRequest,
        response: { 200: reportPdfResponse },
        refusals: reportRefusals,
        responseHeaders: pdfHeaders,
      },
    },
    async (request, reply) => {
      const file = await audited(request, 'report.ai', async () => {
        const input = parseInput(aiReportRequest, request.body);
        return reports.aiReport(request.user!, input.type, input.userInput, lookupIdOf(input.results));
      });
      return sendPdf(reply, file);
    },
  );

  for (const type of DETAIL_KINDS) {
    api.post(
      SEARCH_KIND_DECLARATIONS[type].reportPath!,
      {
        preHandler,
        ...scoped,
        schema: {
          summary: `The PDF report of a ${detailFacts(type).reportOf} lookup`,
          description:
            "Drawn from the caller's own stored lookup of the id the record names. 503 with Retry-After when the report queue is full.",
          tags,
          body: detailReportRequest,
          response: { 200: reportPdfResponse },
          refusals: reportRefusals,
          responseHeaders: pdfHeaders,
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
      ...scoped,
      schema: {
        summary: 'Check that a file is a report this server generated',
        description:
          "The report's owner and admins see who made it, when, for what lookup and under which file " +
          'name. Anyone else signed in sees only whether the hash matches and, when it does, when the ' +
          'report was made.',
        tags,
        params: z.object({ id: z.string().describe('The report id (X-Report-Id).') }),
        querystring: reportVerifyQuery,
        response: { 200: reportVerifyResponse },
      },
    },
    async (request) => {
      const { sha256 } = parseInput(reportVerifyQuery, request.query);
      return reports.verify(request.user!, request.params.id, sha256);
    },
  );

  /**
   * The public check behind the /verify page: the browser hashes the file (nothing is uploaded) and
   * asks whether a report with exactly that SHA-256 exists. Only an exact 64-hex hash is answered,
   * and each address has a small budget, so nobody can sweep the reports.
   */
  api.post(
    '/api/verify',
    {
      schema: {
        summary: 'Check a report file by its SHA-256, without signing in',
        description:
          'Answers whether this server generated a report file with exactly this SHA-256 and, if so, ' +
          'when; nothing about who made it or for what. Rate limited per address (429 with Retry-After).',
        tags,
        body: publicVerifyRequest,
        response: { 200: publicVerifyResponse },
        refusals: { 429: REFUSALS.rateLimited },
      },
    },
    async (request) => {
      await limits.consume('verifyPerIp', request.ip);
      const { sha256 } = parseInput(publicVerifyRequest, request.body);
      return reports.verifyHash(sha256);
    },
  );
}
