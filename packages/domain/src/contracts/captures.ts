import { z } from 'zod';
import {
  CAPTURE_ARTEFACT_NAMES,
  CAPTURE_FAILURES,
  CAPTURE_PREVIEW,
  CAPTURE_STATUSES,
  type CaptureFailure,
  type CaseCapture,
  type VerifyCaptureResult,
} from '../cases/captures.ts';
import { fileDownload, isoTimestamp } from './common.ts';

/** The answers of the capture routes (requests: createCaptureBody, removeCaptureBody, verifyCaptureBody). */

const person = z.object({ id: z.string(), name: z.string(), email: z.string() });
const artefactName = z.enum(CAPTURE_ARTEFACT_NAMES);
const manifestFile = z.object({
  name: artefactName,
  media_type: z.string(),
  sha256: z.string(),
  bytes: z.number().int(),
});

export const caseCaptureResponse: z.ZodType<CaseCapture> = z
  .object({
    id: z.string(),
    case_id: z.string(),
    url: z.string().describe('The address asked for.'),
    status: z.enum(CAPTURE_STATUSES),
    failure: z
      .enum(Object.keys(CAPTURE_FAILURES) as [CaptureFailure, ...CaptureFailure[]])
      .nullable()
      .describe('Why it failed, when status is failed.'),
    error: z.string().nullable().describe('The sentence the case page shows for the failure.'),
    requested_by: person,
    requested_at: isoTimestamp,
    lookup_id: z.string().nullable().describe('The search whose result held the address, if any.'),
    captured_at: isoTimestamp.nullable().describe("The server's clock when the page had loaded."),
    final_url: z.string().nullable().describe('Where the page ended after redirects.'),
    title: z.string().nullable(),
    http_status: z.number().int().nullable(),
    files: z.array(manifestFile).describe('Each artefact with its SHA-256, as the signed manifest lists it.'),
    truncated: z.array(artefactName).describe('Artefacts cut at the capture limits.'),
    manifest_sha256: z.string().nullable().describe("The SHA-256 of the capture's signed manifest.json."),
    preview: z
      .boolean()
      .describe(
        "Whether a thumbnail of the page's first screen is held (GET …/preview): not evidence, not in the manifest.",
      ),
    removal: z
      .object({ at: isoTimestamp, by: person, reason: z.string() })
      .nullable()
      .describe('Set when its artefacts were removed; the removal is itself a signed entry of the chain.'),
  })
  .meta({ id: 'CaseCapture', description: 'A web page captured into a case.' });

export const caseCapturesResponse: z.ZodType<{ data: CaseCapture[]; available: boolean }> = z.object({
  data: z.array(caseCaptureResponse),
  available: z.boolean().describe('Whether this server captures pages (the operator turns it on).'),
});

/** GET /api/captures/status: whether this server captures pages, for the buttons that offer it. */
export const captureStatusResponse = z
  .object({
    available: z.boolean().describe('Whether this server captures pages (the operator turns it on).'),
  })
  .meta({ id: 'CaptureStatus' });

export const caseCaptureOneResponse: z.ZodType<{ capture: CaseCapture }> = z.object({
  capture: caseCaptureResponse,
});

/** GET /api/cases/{id}/captures/{captureId}/download */
export const captureDownloadResponse = fileDownload(
  'application/zip',
  "The capture as a ZIP: manifest.json, its Ed25519 signature manifest.sig, every artefact and the server's public key.",
);

/** GET /api/cases/{id}/captures/{captureId}/files/{name} */
export const captureFileResponse = {
  description: 'One artefact of the capture: page.png as image/png, the others as application/octet-stream.',
  content: {
    'image/png': fileDownload('image/png', '').content['image/png'],
    'application/octet-stream': fileDownload('application/octet-stream', '').content[
      'application/octet-stream'
    ],
  },
};

/** GET /api/cases/{id}/captures/{captureId}/preview */
export const capturePreviewResponse = fileDownload(
  CAPTURE_PREVIEW.mediaType,
  `The thumbnail of the page's first screen (${CAPTURE_PREVIEW.width}×${CAPTURE_PREVIEW.height}): for the case's list, not evidence.`,
);

/** GET /.well-known/footprint-capture-key.pem */
export const captureKeyResponse = fileDownload(
  'application/x-pem-file',
  "The public half of the server's Ed25519 capture key (SubjectPublicKeyInfo, PEM).",
);

export const verifyCaptureResponse: z.ZodType<VerifyCaptureResult> = z
  .object({
    signature_valid: z.boolean(),
    recorded: z.boolean().describe("This server's capture chain holds exactly this manifest."),
    valid: z.boolean().describe('The signature is valid and every file the manifest lists matches.'),
    kind: z.enum(['capture', 'removal']).nullable(),
    requested_url: z.string().nullable(),
    final_url: z.string().nullable(),
    captured_at: isoTimestamp.nullable(),
    files: z.array(
      z.object({
        name: z.string(),
        expected_sha256: z.string(),
        sha256: z.string().nullable(),
        status: z.enum(['match', 'mismatch', 'missing']),
      }),
    ),
    removed: z.object({ at: isoTimestamp, reason: z.string() }).nullable(),
  })
  .meta({ id: 'CaptureCheck' });
