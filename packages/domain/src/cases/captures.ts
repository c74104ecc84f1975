/**
 * Captured web pages, declared once: the artefacts a capture keeps, the manifest each capture (and each
 * removal) signs, the ways a capture can fail and the request bodies. The server's capture job and
 * routes, the evidence bundle (captures/), the case page and the /verify page all read these.
 *
 * A case's captures form one chain: every entry (a capture, or the removal of one) is a manifest.json
 * holding the SHA-256 of the entry before it, signed with the server's Ed25519 capture key. A removal
 * deletes the capture's artefacts but never its manifest: the chain keeps both, so a gap is always
 * explained.
 */
import { z } from 'zod';

/** The artefacts of a capture, in the order a manifest lists them. */
export const CAPTURE_ARTEFACTS = {
  'page.mhtml': { label: 'Page archive (MHTML)', mediaType: 'multipart/related' },
  'page.png': { label: 'Full-page screenshot', mediaType: 'image/png' },
  'page.txt': { label: 'Page text', mediaType: 'text/plain; charset=utf-8' },
  'headers.json': { label: 'Response headers', mediaType: 'application/json' },
} as const;
export type CaptureArtefactName = keyof typeof CAPTURE_ARTEFACTS;
export const CAPTURE_ARTEFACT_NAMES = Object.keys(CAPTURE_ARTEFACTS) as CaptureArtefactName[];

/** The layout of a capture's manifest.json; raised when a field changes meaning. */
export const CAPTURE_MANIFEST_FORMAT = 'footprint-capture/1';
/** Where every server publishes the public half of its capture key (PEM, SubjectPublicKeyInfo). */
export const CAPTURE_KEY_PATH = '/.well-known/footprint-capture-key.pem';
/** The key's file name inside a capture's ZIP and inside an evidence bundle. */
export const CAPTURE_KEY_FILE = 'capture-signing-key.pem';

export const CAPTURE_STATUSES = ['queued', 'running', 'done', 'failed', 'removed'] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

/** Why a capture failed: its code and the sentence the case page shows. */
export const CAPTURE_FAILURES = {
  address_refused:
    'The page is on a private or loopback address, which captures do not reach unless the operator allows it.',
  unreachable: 'The page could not be reached.',
  timeout: 'The page did not finish loading within the time limit.',
  too_large: 'The page is larger than the capture limit.',
  browser: 'The browser could not capture the page.',
} as const;
export type CaptureFailure = keyof typeof CAPTURE_FAILURES;

/** One artefact as a manifest lists it. */
export interface CaptureManifestFile {
  name: CaptureArtefactName;
  media_type: string;
  sha256: string;
  bytes: number;
}

interface ManifestBase {
  format: typeof CAPTURE_MANIFEST_FORMAT;
  case: { id: string; reference: string };
  /** The entry's place in the case's chain, from 1. */
  sequence: number;
  /** The SHA-256 of the chain's previous manifest.json; null for the first entry. */
  previous_sha256: string | null;
  capture_id: string;
  signing_key: { algorithm: 'Ed25519'; key_id: string; published_at: string };
}

/** A page captured: what was asked, what came back, when, by whom, with what, and each artefact's hash. */
export interface CaptureManifest extends ManifestBase {
  kind: 'capture';
  requested_url: string;
  final_url: string;
  http_status: number | null;
  title: string;
  /** The server's clock when the page had loaded. */
  captured_at: string;
  requested_at: string;
  requested_by: { id: string; name: string; email: string };
  /** The search whose result held the address, when the capture began from one. */
  lookup_id: string | null;
  tool: { name: string; browser: string; user_agent: string };
  files: CaptureManifestFile[];
  /** Artefacts cut at the capture's limits (a very tall page's screenshot, say). */
  truncated: CaptureArtefactName[];
}

/** A capture's artefacts deleted: who, when, why, and the manifest of the capture removed. */
export interface CaptureRemovalManifest extends ManifestBase {
  kind: 'removal';
  removed_at: string;
  removed_by: { id: string; name: string; email: string };
  reason: string;
  /** The SHA-256 of the removed capture's own manifest.json (still in the chain). */
  capture_manifest_sha256: string;
}

export type CaptureChainEntry = CaptureManifest | CaptureRemovalManifest;

/** A capture as the case page lists it. */
export interface CaseCapture {
  id: string;
  case_id: string;
  url: string;
  status: CaptureStatus;
  /** Set when status is failed. */
  failure: CaptureFailure | null;
  error: string | null;
  requested_by: { id: string; name: string; email: string };
  requested_at: string;
  lookup_id: string | null;
  captured_at: string | null;
  final_url: string | null;
  title: string | null;
  http_status: number | null;
  files: CaptureManifestFile[];
  truncated: CaptureArtefactName[];
  /** The SHA-256 of the capture's signed manifest.json. */
  manifest_sha256: string | null;
  /** Whether the small picture of the page's top is held (CAPTURE_PREVIEW): the list's thumbnail. */
  preview: boolean;
  removal: { at: string; by: { id: string; name: string; email: string }; reason: string } | null;
}

/**
 * The thumbnail a case's list of captures shows: the page's first screen (1280×800 CSS pixels) at
 * half its size (sharp in a card on a high-density screen), as a JPEG of tens of kilobytes, where the
 * full screenshot may run to megabytes.
 * It is a convenience of the screen, not evidence: the manifest does not list it, the ZIP and the
 * bundle do not hold it, and a removal deletes it with the artefacts.
 */
export const CAPTURE_PREVIEW = { width: 640, height: 400, mediaType: 'image/jpeg' } as const;

export const CAPTURE_URL_MAX_LENGTH = 2048;
export const CAPTURE_REASON_MAX_LENGTH = 500;

export const captureMessages = {
  url: 'Enter the full address of a web page, starting with http:// or https://.',
  urlLength: `The address must be at most ${CAPTURE_URL_MAX_LENGTH} characters.`,
  urlCredentials: 'The address must not hold a user name or password.',
  reason: 'Say why the capture is removed.',
  reasonLength: `The reason must be at most ${CAPTURE_REASON_MAX_LENGTH} characters.`,
  unavailable: 'Capturing web pages is not turned on on this server.',
  notFound: 'Capture not found.',
  noPreview: 'This capture has no thumbnail.',
  notDone: 'This capture has no files: it has not finished, failed or was removed.',
  closed: 'This case is closed: reopen it to capture pages.',
} as const;

/** An http(s) address without credentials or control characters: what a capture may be asked for. */
export const captureUrl = z
  .string({ error: captureMessages.url })
  .trim()
  .max(CAPTURE_URL_MAX_LENGTH, captureMessages.urlLength)
  .refine((value) => !/\p{Cc}/u.test(value), captureMessages.url)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  }, captureMessages.url)
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, captureMessages.urlCredentials);

/** POST /api/cases/{id}/captures */
export const createCaptureBody = z.strictObject({
  url: captureUrl,
  lookup_id: z.string().uuid('The lookup id must be a UUID.').optional(),
});
export type CreateCaptureBody = z.input<typeof createCaptureBody>;

/** DELETE /api/cases/{id}/captures/{captureId}: a removal says why. */
export const removeCaptureBody = z.strictObject({
  reason: z
    .string({ error: captureMessages.reason })
    .trim()
    .min(1, captureMessages.reason)
    .max(CAPTURE_REASON_MAX_LENGTH, captureMessages.reasonLength)
    .regex(/^[^\p{Cc}]*$/u, captureMessages.reason),
});
export type RemoveCaptureBody = z.input<typeof removeCaptureBody>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/i, 'A SHA-256 is 64 hex digits.');

/** POST /api/verify/capture: the holder of a capture sends its manifest, its signature and each file's hash. */
export const verifyCaptureBody = z.strictObject({
  manifest: z
    .string({ error: 'The manifest (manifest.json) is required.' })
    .min(2, 'The manifest (manifest.json) is required.')
    .max(64 * 1024, 'The manifest is larger than any capture manifest.'),
  signature: z
    .string({ error: 'The signature (manifest.sig, base64) is required.' })
    .regex(/^[A-Za-z0-9+/]{86}==$/, 'The signature must be the 64 bytes of manifest.sig, in base64.')
    .meta({ example: `${'A'.repeat(86)}==` }),
  files: z
    .array(z.strictObject({ name: z.string().min(1).max(200), sha256: sha256Hex }))
    .max(16, 'At most 16 files.'),
});
export type VerifyCaptureBody = z.input<typeof verifyCaptureBody>;

export type CaptureFileCheck = 'match' | 'mismatch' | 'missing';

export interface VerifyCaptureResult {
  /** The signature is this server's over exactly these manifest bytes. */
  signature_valid: boolean;
  /** This server's chain holds this manifest (it was signed here and not forged with another key). */
  recorded: boolean;
  /** Signature valid and every file the manifest lists matches. */
  valid: boolean;
  kind: 'capture' | 'removal' | null;
  requested_url: string | null;
  final_url: string | null;
  captured_at: string | null;
  files: Array<{ name: string; expected_sha256: string; sha256: string | null; status: CaptureFileCheck }>;
  /** Set when the chain records a later removal of this capture. */
  removed: { at: string; reason: string } | null;
}
