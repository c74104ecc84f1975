/**
 * The check behind /verify for a capture: its holder sends the manifest's text, the signature and the
 * SHA-256 of each file they hold (hashed in their browser: nothing is uploaded). The answer says whether
 * this server's key signed exactly that manifest, whether its chain holds it, which files match, and
 * whether the capture was removed since.
 */
import type { CaptureChainEntry, VerifyCaptureBody, VerifyCaptureResult } from '@footprint/domain';
import type { Executor } from '../../../db/client.ts';
import { validationError } from '../../../errors.ts';
import type { CaptureSigner } from './signer.ts';
import { chainEntryBySha, removalOf, sha256Hex } from './store.ts';

const NOT_A_MANIFEST = 'This is not a capture manifest (manifest.json of a capture).';

function parseManifest(text: string): CaptureChainEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError({ manifest: [NOT_A_MANIFEST] }, NOT_A_MANIFEST);
  }
  const entry = parsed as Partial<CaptureChainEntry> | null;
  if (!entry || typeof entry !== 'object' || (entry.kind !== 'capture' && entry.kind !== 'removal')) {
    throw validationError({ manifest: [NOT_A_MANIFEST] }, NOT_A_MANIFEST);
  }
  if (entry.kind === 'capture' && !Array.isArray(entry.files)) {
    throw validationError({ manifest: [NOT_A_MANIFEST] }, NOT_A_MANIFEST);
  }
  return entry as CaptureChainEntry;
}

export async function verifyCapture(
  db: Executor,
  signer: CaptureSigner,
  body: VerifyCaptureBody,
): Promise<VerifyCaptureResult> {
  const entry = parseManifest(body.manifest);
  const bytes = Buffer.from(body.manifest, 'utf8');
  const signatureValid = signer.verify(bytes, Buffer.from(body.signature, 'base64'));
  const recorded = signatureValid && (await chainEntryBySha(db, sha256Hex(bytes))) !== undefined;
  const held = new Map(body.files.map((file) => [file.name, file.sha256.toLowerCase()]));
  const files =
    entry.kind === 'capture'
      ? entry.files.map((file) => {
          const sha256 = held.get(String(file.name)) ?? null;
          const status = sha256 === null ? 'missing' : sha256 === file.sha256 ? 'match' : 'mismatch';
          return { name: String(file.name), expected_sha256: String(file.sha256), sha256, status } as const;
        })
      : [];
  const removal = recorded && entry.kind === 'capture' ? await removalOf(db, entry.capture_id) : undefined;
  const removed = removal
    ? (JSON.parse(removal.manifest) as { removed_at: string; reason: string })
    : undefined;
  return {
    signature_valid: signatureValid,
    recorded,
    valid: signatureValid && files.every((file) => file.status === 'match'),
    kind: entry.kind,
    requested_url: entry.kind === 'capture' ? entry.requested_url : null,
    final_url: entry.kind === 'capture' ? entry.final_url : null,
    captured_at: entry.kind === 'capture' ? entry.captured_at : null,
    files,
    removed: removed ? { at: removed.removed_at, reason: removed.reason } : null,
  };
}
