/**
 * The capture routes: a case's captures (list, ask for one, one, its files, its ZIP, its removal), the
 * server's public capture key at its well-known path, and the public check of a capture (/verify).
 */
import {
  CAPTURE_ARTEFACT_NAMES,
  CAPTURE_ARTEFACTS,
  CAPTURE_KEY_PATH,
  CAPTURE_PREVIEW,
  type CaptureArtefactName,
  captureDownloadResponse,
  captureFileResponse,
  captureKeyResponse,
  capturePreviewResponse,
  captureStatusResponse,
  caseCaptureOneResponse,
  caseCapturesResponse,
  createCaptureBody,
  removeCaptureBody,
  verifyCaptureBody,
  verifyCaptureResponse,
} from '@footprint/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../../db/client.ts';
import { parseInput, validationError } from '../../../errors.ts';
import type { Guards } from '../../../http/auth.ts';
import { clientOf } from '../../../http/context.ts';
import type { ContractTypeProvider } from '../../../http/contracts.ts';
import { REFUSALS } from '../../../http/responses.ts';
import type { RateLimits } from '../../../security/rate-limit.ts';
import type { Captures } from './service.ts';
import { verifyCapture } from './verify.ts';

const tags = ['Captures'];
const caseParams = z.object({ id: z.string().describe('The case id.') });
const captureParams = caseParams.extend({ captureId: z.string().describe('The capture id.') });
const fileParams = captureParams.extend({
  // Checked in the handler, so that an unknown name is the 422 below and not a refusal of the route.
  name: z.string().describe(`One of: ${CAPTURE_ARTEFACT_NAMES.join(', ')}.`),
});
const namesMessage = `The file must be one of: ${CAPTURE_ARTEFACT_NAMES.join(', ')}.`;
const notReady =
  'The capture has no files: it has not finished, it failed or it was removed (`capture_not_ready`).';

type CaptureParams = z.infer<typeof captureParams>;

/** A case's captures: whether capturing is on, the list, a new one, one, its removal. */
function caseCaptureRoutes(
  app: FastifyInstance,
  deps: { captures: Captures; guards: Guards; limits: RateLimits },
) {
  const { captures } = deps;
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get(
    '/api/captures/status',
    {
      preHandler,
      schema: {
        summary: 'Whether this server captures web pages',
        description:
          'The results page offers Capture beside an address only where this is true (CAPTURE_ENABLED and a browser found).',
        tags,
        response: { 200: captureStatusResponse },
      },
    },
    async () => ({ available: captures.available }),
  );

  api.get<{ Params: { id: string } }>(
    '/api/cases/:id/captures',
    {
      preHandler,
      schema: {
        summary: "The case's captured web pages, newest first",
        tags,
        params: caseParams,
        response: { 200: caseCapturesResponse },
      },
    },
    async (request) => captures.list(request.user!, request.params.id),
  );

  api.post<{ Params: { id: string } }>(
    '/api/cases/:id/captures',
    {
      preHandler,
      schema: {
        summary: 'Capture a web page into the case',
        description:
          "Queues the capture (202): the server's Chromium loads the page through the address guard (no private or loopback address unless the operator allows it) and keeps its MHTML snapshot, a full-page PNG, its text and its response headers, each with its SHA-256, in a manifest signed with the server's Ed25519 capture key. Audited as case.capture, then case.capture.done. Poll GET /api/cases/{id}/captures/{captureId}.",
        tags,
        params: caseParams,
        body: createCaptureBody,
        response: { 202: caseCaptureOneResponse },
        refusals: {
          409: 'The case is closed (`case_closed`), or capturing web pages is off on this server (`capture_off`).',
          429: 'Too many captures asked for by this account in the last hour: try again after Retry-After seconds.',
        },
      },
    },
    async (request, reply) => {
      const body = parseInput(createCaptureBody, request.body);
      await deps.limits.consume('capturesPerUser', request.user!.id);
      const capture = await captures.request(request.user!, request.params.id, body, clientOf(request));
      return reply.status(202).send({ capture });
    },
  );

  api.get<{ Params: CaptureParams }>(
    '/api/cases/:id/captures/:captureId',
    {
      preHandler,
      schema: {
        summary: 'One capture of the case',
        tags,
        params: captureParams,
        response: { 200: caseCaptureOneResponse },
      },
    },
    async (request) => ({
      capture: await captures.get(request.user!, request.params.id, request.params.captureId),
    }),
  );

  api.delete<{ Params: CaptureParams }>(
    '/api/cases/:id/captures/:captureId',
    {
      preHandler,
      schema: {
        summary: "Remove a capture's files, saying why",
        description:
          "The artefacts' bytes are deleted; the capture's signed manifest stays, and a signed removal entry (who, when, why) is appended to the case's chain, so the removal is never silent. Its requester, the case's owner or their supervisor, or an admin. Audited as case.capture.remove.",
        tags,
        params: captureParams,
        body: removeCaptureBody,
        response: { 200: caseCaptureOneResponse },
        refusals: {
          403: 'Only its requester, the case owner, their supervisor or an admin may remove it.',
          409: notReady,
        },
      },
    },
    async (request) => {
      const { reason } = parseInput(removeCaptureBody, request.body);
      const { id, captureId } = request.params;
      return { capture: await captures.remove(request.user!, id, captureId, reason, clientOf(request)) };
    },
  );
}

/** A capture's files: one of them, and all of them as a ZIP. */
function captureFileRoutes(app: FastifyInstance, deps: { captures: Captures; guards: Guards }) {
  const { captures } = deps;
  const preHandler = deps.guards.authenticate;
  const api = app.withTypeProvider<ContractTypeProvider>();

  api.get<{ Params: z.infer<typeof fileParams> }>(
    '/api/cases/:id/captures/:captureId/files/:name',
    {
      preHandler,
      schema: {
        summary: 'One file of a capture',
        description: 'page.png is served inline (the preview); the others as attachments.',
        tags,
        params: fileParams,
        response: { 200: captureFileResponse },
        refusals: { 409: notReady },
      },
    },
    async (request, reply) => {
      const { id, captureId, name } = request.params;
      if (!(CAPTURE_ARTEFACT_NAMES as string[]).includes(name)) {
        throw validationError({ name: [namesMessage] }, namesMessage);
      }
      const artefact = name as CaptureArtefactName;
      const file = await captures.file(request.user!, id, captureId, artefact);
      const inline = artefact === 'page.png';
      return reply
        .header('content-type', inline ? 'image/png' : 'application/octet-stream')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${artefact}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600, immutable')
        .send(file.body);
    },
  );

  api.get<{ Params: CaptureParams }>(
    '/api/cases/:id/captures/:captureId/preview',
    {
      preHandler,
      schema: {
        summary: "A capture's thumbnail",
        description: `The page's first screen at half its size (${CAPTURE_PREVIEW.width}×${CAPTURE_PREVIEW.height}), as a JPEG, for the case's list of captures. Not evidence: the manifest does not list it, and a removal deletes it. 404 when the capture has none.`,
        tags,
        params: captureParams,
        response: { 200: capturePreviewResponse },
      },
    },
    async (request, reply) => {
      const { id, captureId } = request.params;
      const body = await captures.preview(request.user!, id, captureId);
      return reply
        .header('content-type', CAPTURE_PREVIEW.mediaType)
        .header('content-disposition', 'inline; filename="preview.jpg"')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600, immutable')
        .send(body);
    },
  );

  api.get<{ Params: CaptureParams }>(
    '/api/cases/:id/captures/:captureId/download',
    {
      preHandler,
      schema: {
        summary: 'The capture as a ZIP',
        description: `manifest.json, manifest.sig, every artefact still held (${CAPTURE_ARTEFACT_NAMES.map((n) => CAPTURE_ARTEFACTS[n].label).join(', ')}), the server's public key and a README on how to check them. Audited as case.capture.download.`,
        tags,
        params: captureParams,
        response: { 200: captureDownloadResponse },
        responseHeaders: { 'Content-Disposition': 'attachment; filename="…"' },
        refusals: { 409: notReady },
      },
    },
    async (request, reply) => {
      const { id, captureId } = request.params;
      const { fileName, stream } = await captures.download(request.user!, id, captureId, clientOf(request));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}

/** The public key and the public check: no sign-in, like POST /api/verify. */
function publicCaptureRoutes(
  app: FastifyInstance,
  deps: { captures: Captures; db: Database; limits: RateLimits },
) {
  const api = app.withTypeProvider<ContractTypeProvider>();
  api.get(
    CAPTURE_KEY_PATH,
    {
      schema: {
        summary: "The server's public capture key",
        description:
          'Ed25519, SubjectPublicKeyInfo in PEM: it checks the signature (manifest.sig) of every capture manifest this server made, also without this server (openssl pkeyutl -verify -pubin -rawin).',
        tags,
        response: { 200: captureKeyResponse },
      },
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'application/x-pem-file')
        .header('cache-control', 'public, max-age=3600')
        .send(deps.captures.signer.publicKeyPem),
  );

  api.post(
    '/api/verify/capture',
    {
      schema: {
        summary: "Check a capture's manifest, signature and files, without signing in",
        description:
          'The holder sends manifest.json as text, manifest.sig in base64 and the SHA-256 of each file they hold (hashed in the browser: nothing is uploaded). Answers whether this server signed exactly that manifest, whether its chain holds it, which files match, and whether the capture was removed since. Rate limited per address (429 with Retry-After), with room for every capture of an evidence bundle.',
        tags,
        body: verifyCaptureBody,
        response: { 200: verifyCaptureResponse },
        refusals: { 429: REFUSALS.rateLimited },
      },
    },
    async (request) => {
      await deps.limits.consume('captureChecksPerIp', request.ip);
      const body = parseInput(verifyCaptureBody, request.body);
      return verifyCapture(deps.db, deps.captures.signer, body);
    },
  );
}

export function captureRoutes(
  app: FastifyInstance,
  deps: { captures: Captures; guards: Guards; db: Database; limits: RateLimits },
) {
  caseCaptureRoutes(app, deps);
  captureFileRoutes(app, deps);
  publicCaptureRoutes(app, deps);
}
