import { DETAIL_KINDS } from '@footprint/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import { AppError, parseInput } from '../../http/errors.ts';
import { recordAudit } from '../audit/service.ts';
import type { ReportFile, ReportService } from './service.ts';

const reportRequest = z.strictObject({
  userInput: z
    .string({ error: 'The user input field is required.' })
    .trim()
    .min(1, { error: 'The user input field is required.', abort: true })
    .max(100, 'The user input field must not be greater than 100 characters.'),
  type: z.enum(['tel', 'email'], { error: 'The type field must be tel or email.' }),
  // The browser sends the results it shows; they are never trusted, only their lookup id is read.
  results: z.unknown().optional(),
});

const detailRequest = z.strictObject({
  data: z.record(z.string(), z.unknown(), { error: 'The data field must be an object.' }),
});

const verifyQuery = z.strictObject({
  sha256: z
    .string({ error: 'The sha256 field is required.' })
    .regex(/^[0-9a-fA-F]{64}$/, 'The sha256 field must be 64 hex digits.'),
});

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
  deps: { reports: ReportService; guards: Guards; db: Database },
) {
  const { reports, guards, db } = deps;
  const preHandler = guards.authenticate;

  /** Every attempt is in the audit trail, refused ones included. */
  async function audited(request: FastifyRequest, action: string, work: () => Promise<ReportFile>) {
    const user = request.user!;
    try {
      const file = await work();
      await recordAudit(db, {
        action,
        outcome: 'success',
        user,
        client: clientOf(request),
        target: file.reportId,
        cost: 0,
        caseReference: file.caseReference,
        details: { file_name: file.fileName, sha256: file.sha256, lookup_id: file.lookupId },
      });
      return file;
    } catch (error) {
      await recordAudit(db, {
        action,
        outcome: 'failure',
        user,
        client: clientOf(request),
        details: {
          status: error instanceof AppError ? error.status : 500,
          message: (error as Error).message.slice(0, 300),
        },
      });
      throw error;
    }
  }

  app.post('/api/generate-report', { preHandler }, async (request, reply) => {
    const file = await audited(request, 'report.lookup', async () => {
      const input = parseInput(reportRequest, request.body);
      return reports.lookupReport(request.user!, input.type, input.userInput, lookupIdOf(input.results));
    });
    return sendPdf(reply, file);
  });

  app.post('/api/generate-ai-report', { preHandler }, async (request, reply) => {
    const file = await audited(request, 'report.ai', async () => {
      const input = parseInput(reportRequest, request.body);
      return reports.aiReport(request.user!, input.type, input.userInput, lookupIdOf(input.results));
    });
    return sendPdf(reply, file);
  });

  for (const type of DETAIL_KINDS) {
    app.post(`/api/generate-${type}-report`, { preHandler }, async (request, reply) => {
      const file = await audited(request, `report.${type}`, async () => {
        const input = parseInput(detailRequest, request.body);
        return reports.detailReport(request.user!, type, input.data);
      });
      return sendPdf(reply, file);
    });
  }

  /** A holder of a report checks it: GET /api/reports/{id}/verify?sha256=<hex of the file>. */
  app.get<{ Params: { id: string } }>('/api/reports/:id/verify', { preHandler }, async (request) => {
    const { sha256 } = parseInput(verifyQuery, request.query);
    return reports.verify(request.params.id, sha256);
  });
}
