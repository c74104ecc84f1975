import {
  addItemBody,
  addMemberBody,
  addNoteBody,
  CASE_EXPORT_FORMATS,
  CASE_EXPORTS,
  caseBundleResponse,
  caseDetailResponse,
  caseItemsResponse,
  caseListResponse,
  caseNoteResponse,
  caseSummaryResponse,
  casesQuery,
  caseUnitShareResponse,
  createCaseBody,
  legalHoldBody,
  shareCaseBody,
  updateCaseBody,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput, validationError } from '../../errors.ts';
import type { Guards } from '../../http/auth.ts';
import { clientOf } from '../../http/context.ts';
import type { ContractTypeProvider } from '../../http/contracts.ts';
import type { CaseBundles } from './bundle.ts';
import type { CaseExports } from './exports/service.ts';
import type { Cases } from './service.ts';

const tags = ['Cases'];
const caseId = z.object({ id: z.string().describe('The case id.') });
const membersResponse = z.object({
  data: z.array(z.object({ id: z.string(), name: z.string(), email: z.string(), added_at: z.string() })),
});

/** What every route of caseRoutes shares. */
function caseRoutesContext(
  app: FastifyInstance,
  deps: { cases: Cases; bundles: CaseBundles; exports: CaseExports; guards: Guards },
) {
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();
  const { cases } = deps;
  return { preHandler, api, cases, deps };
}

function caseListRoutes(context: ReturnType<typeof caseRoutesContext>) {
  const { preHandler, api, cases, deps } = context;
  api.get(
    '/api/cases',
    {
      preHandler,
      schema: {
        summary: "The caller's cases (owned or shared with them), most recently active first",
        tags,
        querystring: casesQuery,
        response: { 200: caseListResponse },
      },
    },
    async (request) => ({
      data: await cases.list(request.user!, parseInput(casesQuery, request.query).status),
    }),
  );

  api.post(
    '/api/cases',
    {
      preHandler,
      schema: {
        summary: 'Open a case (without a reference it gets one of its own)',
        tags,
        body: createCaseBody,
        response: { 201: caseSummaryResponse },
      },
    },
    async (request, reply) => {
      const input = parseInput(createCaseBody, request.body);
      return reply.status(201).send(await cases.create(request.user!, input, clientOf(request)));
    },
  );

  api.get<{ Params: { id: string } }>(
    '/api/cases/:id',
    {
      preHandler,
      schema: {
        summary: 'One case with its members, notes, searches (items) and the entities they found',
        tags,
        params: caseId,
        response: { 200: caseDetailResponse },
      },
    },
    async (request) => cases.get(request.user!, request.params.id),
  );

  api.patch<{ Params: { id: string } }>(
    '/api/cases/:id',
    {
      preHandler,
      schema: {
        summary: 'Change the title, the status (open, closed) or the legal basis (owner or admin)',
        tags,
        params: caseId,
        body: updateCaseBody,
        response: { 200: caseSummaryResponse },
      },
    },
    async (request) =>
      cases.update(
        request.user!,
        request.params.id,
        parseInput(updateCaseBody, request.body),
        clientOf(request),
      ),
  );

  api.get<{ Params: { id: string } }>(
    '/api/cases/:id/bundle',
    {
      preHandler,
      schema: {
        summary: "The case's evidence bundle: a ZIP, streamed as it is made",
        description:
          "case-summary.pdf (the case, its members, notes, entities and timeline), reports/ (the PDF report of every search whose kind has one and whose result is kept), results/ (every stored result as JSON), audit.csv (the audit rows of the case and its searches) and manifest.json (every file with its SHA-256, size and generation time; purged results listed as such). The ZIP's own SHA-256 is registered once its last byte is made, so POST /api/verify knows it. Same visibility as the case: 404 for anyone else.",
        tags,
        params: caseId,
        response: { 200: caseBundleResponse },
        responseHeaders: { 'Content-Disposition': 'attachment; filename="…"' },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await deps.bundles.open(
        request.user!,
        request.params.id,
        clientOf(request),
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}

const formatsMessage = `The export format must be one of: ${CASE_EXPORT_FORMATS.join(', ')}.`;
const exportParams = z.object({
  id: z.string().describe('The case id.'),
  // Checked in the handler, so that an unknown format is the 422 below and not a refusal of the route.
  format: z.string().describe(`One of: ${CASE_EXPORT_FORMATS.join(', ')}.`),
});
const exportFormat = z.enum(CASE_EXPORT_FORMATS);

function caseExportRoutes(context: ReturnType<typeof caseRoutesContext>) {
  const { preHandler, api, deps } = context;
  api.get<{ Params: z.infer<typeof exportParams> }>(
    '/api/cases/:id/export/:format',
    {
      preHandler,
      schema: {
        summary: 'The case in a format other tools read',
        description: `One file per format, drawn from the same reading of the case (its searches, entities, notes, legal basis and audit rows): ${CASE_EXPORT_FORMATS.map((f) => `\`${f}\` (${CASE_EXPORTS[f].description})`).join('; ')}. Audited as case.export with the file's SHA-256; each is also in the evidence bundle under exports/. Same visibility as the case: 404 for anyone else.`,
        tags,
        params: exportParams,
        response: {
          200: {
            description: 'The export file.',
            content: Object.fromEntries(
              CASE_EXPORT_FORMATS.map((f) => {
                const type = CASE_EXPORTS[f].mediaType.split(';')[0]!;
                // A JSON format (STIX, CASE/UCO) is a JSON document; the others are text files.
                const schema = /json/.test(type)
                  ? z.unknown().meta({ description: CASE_EXPORTS[f].description })
                  : z.unknown().meta({ type: 'string', format: 'binary' });
                return [type, { schema }];
              }),
            ),
          },
        },
        responseHeaders: { 'Content-Disposition': 'attachment; filename="…"' },
      },
    },
    async (request, reply) => {
      const format = exportFormat.safeParse(request.params.format);
      if (!format.success) throw validationError({ format: [formatsMessage] }, formatsMessage);
      const file = await deps.exports.export(
        request.user!,
        request.params.id,
        format.data,
        clientOf(request),
      );
      return reply
        .header('content-type', file.mediaType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
}

function casePartRoutes(context: ReturnType<typeof caseRoutesContext>) {
  const { preHandler, api, cases } = context;
  api.get<{ Params: { id: string } }>(
    '/api/cases/:id/items',
    {
      preHandler,
      schema: {
        summary: 'The searches filed under a case, oldest first',
        tags,
        params: caseId,
        response: { 200: caseItemsResponse },
      },
    },
    async (request) => ({ data: await cases.items(request.user!, request.params.id) }),
  );

  api.post<{ Params: { id: string } }>(
    '/api/cases/:id/items',
    {
      preHandler,
      schema: {
        summary: 'File one of your searches under a case ("Add to case")',
        tags,
        params: caseId,
        body: addItemBody,
        response: { 201: caseItemsResponse },
        refusals: { 409: 'The case is closed: nothing can be added to it.' },
      },
    },
    async (request, reply) => {
      const { lookup_id } = parseInput(addItemBody, request.body);
      const data = await cases.addItem(request.user!, request.params.id, lookup_id, clientOf(request));
      return reply.status(201).send({ data });
    },
  );

  api.post<{ Params: { id: string } }>(
    '/api/cases/:id/members',
    {
      preHandler,
      schema: {
        summary: 'Add a member by e-mail (owner or admin); answers the members',
        tags,
        params: caseId,
        body: addMemberBody,
        response: { 201: membersResponse },
      },
    },
    async (request, reply) => {
      const { email } = parseInput(addMemberBody, request.body);
      const data = await cases.addMember(request.user!, request.params.id, email, clientOf(request));
      return reply.status(201).send({ data });
    },
  );

  api.delete<{ Params: { id: string; userId: string } }>(
    '/api/cases/:id/members/:userId',
    {
      preHandler,
      schema: {
        summary: 'Remove a member (owner or admin), or leave a case you are a member of',
        tags,
        params: caseId.extend({ userId: z.string().describe("The member's user id.") }),
        response: { 200: membersResponse },
      },
    },
    async (request) => ({
      data: await cases.removeMember(
        request.user!,
        request.params.id,
        request.params.userId,
        clientOf(request),
      ),
    }),
  );

  api.post<{ Params: { id: string } }>(
    '/api/cases/:id/notes',
    {
      preHandler,
      schema: {
        summary: 'Add a note (append-only: notes are never changed or removed)',
        tags,
        params: caseId,
        body: addNoteBody,
        response: { 201: caseNoteResponse },
        refusals: { 409: 'The case is closed: nothing can be added to it.' },
      },
    },
    async (request, reply) => {
      const { body } = parseInput(addNoteBody, request.body);
      return reply
        .status(201)
        .send(await cases.addNote(request.user!, request.params.id, body, clientOf(request)));
    },
  );
}

/**
 * /api/cases: the signed-in user's cases. A case someone cannot see answers 404 as if it did not
 * exist; members add searches and notes, the owner (and admins) also change the case and its members.
 */
/** Who else answers for a case: the units it is shared with, and a legal hold on its results. */
function caseGovernanceRoutes(context: ReturnType<typeof caseRoutesContext>) {
  const { preHandler, api, cases } = context;
  api.put<{ Params: { id: string } }>(
    '/api/cases/:id/hold',
    {
      preHandler,
      schema: {
        summary:
          "Place (or renew) a legal hold: the case's results outlive every retention period until released",
        description: "The case's owner, a supervisor of the owner, or an admin.",
        tags,
        params: caseId,
        body: legalHoldBody,
        response: { 200: caseSummaryResponse },
      },
    },
    async (request) =>
      cases.placeHold(
        request.user!,
        request.params.id,
        parseInput(legalHoldBody, request.body).reason,
        clientOf(request),
      ),
  );

  api.delete<{ Params: { id: string } }>(
    '/api/cases/:id/hold',
    {
      preHandler,
      schema: {
        summary: 'Release the legal hold',
        tags,
        params: caseId,
        response: { 200: caseSummaryResponse },
      },
    },
    async (request) => cases.releaseHold(request.user!, request.params.id, clientOf(request)),
  );

  api.post<{ Params: { id: string } }>(
    '/api/cases/:id/units',
    {
      preHandler,
      schema: {
        summary: 'Share the case with a unit: its members, and those of the units below, see it',
        description: "The case's owner, a supervisor of the owner, or an admin.",
        refusals: { 409: 'The case is already shared with this unit.' },
        tags,
        params: caseId,
        body: shareCaseBody,
        response: { 201: caseUnitShareResponse },
      },
    },
    async (request, reply) => {
      const { unit_id } = parseInput(shareCaseBody, request.body);
      const share = await cases.shareWithUnit(request.user!, request.params.id, unit_id, clientOf(request));
      return reply.status(201).send(share);
    },
  );

  api.delete<{ Params: { id: string; unitId: string } }>(
    '/api/cases/:id/units/:unitId',
    {
      preHandler,
      schema: {
        summary: 'Stop sharing the case with a unit',
        tags,
        params: caseId.extend({ unitId: z.string().describe('The unit id.') }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await cases.unshareWithUnit(request.user!, request.params.id, request.params.unitId, clientOf(request));
      return reply.status(204).send();
    },
  );
}

export function caseRoutes(
  app: FastifyInstance,
  deps: { cases: Cases; bundles: CaseBundles; exports: CaseExports; guards: Guards },
) {
  const context = caseRoutesContext(app, deps);
  caseListRoutes(context);
  casePartRoutes(context);
  caseExportRoutes(context);
  caseGovernanceRoutes(context);
}
