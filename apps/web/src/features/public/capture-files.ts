import type { VerifyCaptureBody } from '@footprint/domain';
import { unzipSync } from 'fflate';

/**
 * The captures a file (or files) dropped on /verify holds, read in the browser: a capture's ZIP
 * (manifest.json and manifest.sig at its root, the artefacts beside them), an evidence bundle (a
 * folder per capture under captures/) or the loose files of one capture chosen together. For each
 * capture, its manifest's text, its signature in base64 and the SHA-256 of every file the manifest
 * lists that is there: the body of POST /api/verify/capture. No file leaves the browser.
 */

const MB = 1024 * 1024;
/** The largest ZIP this page reads at all (an evidence bundle with many captures). */
export const ZIP_MAX_BYTES = 512 * MB;
/** The most the captures of one ZIP (or one set of loose files) may unpack to. */
export const UNPACKED_MAX_BYTES = 512 * MB;
/** Far above any manifest the server signs (the API refuses more than 64 KB). */
const MANIFEST_MAX_BYTES = 64 * 1024;
/** The API checks at most this many files per capture. */
const FILES_MAX = 16;

/** '512 MB', for the messages. */
export const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

export class CaptureReadError extends Error {
  constructor(readonly reason: 'tooLarge' | 'unpackedTooLarge' | 'unreadable' | 'looseIncomplete') {
    super(reason);
    this.name = 'CaptureReadError';
  }
}

/** One capture (or one removal record) ready to be checked. */
export interface CaptureToCheck {
  /** Its folder in the ZIP ('' at the root, 'captures/001-…/' in a bundle); null for loose files. */
  folder: string | null;
  /** The manifest's fields this page shows before the server answers (null when it is not JSON). */
  sequence: number | null;
  kind: 'capture' | 'removal' | null;
  requestedUrl: string | null;
  /** The body to send, or why there is none (manifest.sig missing or not 64 bytes). */
  body: VerifyCaptureBody | null;
  problem: 'signature' | null;
}

/** Whether the bytes begin as a ZIP does (a local file header, or the end record of an empty ZIP). */
export const startsAsZip = (head: Uint8Array): boolean =>
  head[0] === 0x50 &&
  head[1] === 0x4b &&
  (head[2] === 3 || head[2] === 5) &&
  (head[3] === 4 || head[3] === 6);

/** Whether a dropped file is a ZIP: its first bytes say so. */
export async function isZipFile(file: Blob): Promise<boolean> {
  if (file.size < 4) return false;
  return startsAsZip(new Uint8Array(await file.slice(0, 4).arrayBuffer()));
}

export async function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

interface ManifestFacts {
  sequence: number | null;
  kind: 'capture' | 'removal' | null;
  requestedUrl: string | null;
  /** The file names the manifest lists (plain names only), at most FILES_MAX. */
  files: string[];
}

function factsOf(text: string): ManifestFacts {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { sequence: null, kind: null, requestedUrl: null, files: [] };
  }
  const record = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const files = Array.isArray(record.files) ? record.files : [];
  const names = files
    .map((file) => (file && typeof file === 'object' ? (file as { name?: unknown }).name : undefined))
    .filter((name): name is string => typeof name === 'string' && /^[^/\\]{1,200}$/.test(name));
  return {
    sequence: typeof record.sequence === 'number' ? record.sequence : null,
    kind: record.kind === 'capture' || record.kind === 'removal' ? record.kind : null,
    requestedUrl: typeof record.requested_url === 'string' ? record.requested_url : null,
    files: [...new Set(names)].slice(0, FILES_MAX),
  };
}

/** The capture's folders in a ZIP: every folder holding a manifest.sig and a manifest.json. */
export function captureFolders(names: readonly string[]): string[] {
  const present = new Set(names);
  const folders: string[] = [];
  for (const name of names) {
    if (!name.endsWith('manifest.sig')) continue;
    const folder = name.slice(0, -'manifest.sig'.length);
    if ((folder === '' || folder.endsWith('/')) && present.has(`${folder}manifest.json`))
      folders.push(folder);
  }
  return folders.sort();
}

/** What a ZIP holds: its entries' names and unpacked sizes (nothing is unpacked). */
export function zipEntries(bytes: Uint8Array): Map<string, number> {
  const entries = new Map<string, number>();
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.set(file.name, file.originalSize);
        return false;
      },
    });
  } catch {
    throw new CaptureReadError('unreadable');
  }
  return entries;
}

/** The files of the names given, unpacked (each at most its recorded size). */
function unpack(bytes: Uint8Array, names: ReadonlySet<string>): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, { filter: (file) => names.has(file.name) });
  } catch {
    throw new CaptureReadError('unreadable');
  }
}

function bodyOf(
  manifest: Uint8Array,
  signature: Uint8Array | undefined,
  hashes: Array<{ name: string; sha256: string }>,
  folder: string | null,
): CaptureToCheck {
  const text = new TextDecoder().decode(manifest);
  const facts = factsOf(text);
  const signed = signature?.length === 64;
  return {
    folder,
    sequence: facts.sequence,
    kind: facts.kind,
    requestedUrl: facts.requestedUrl,
    body: signed ? { manifest: text, signature: base64(signature), files: hashes } : null,
    problem: signed ? null : 'signature',
  };
}

/**
 * The captures of a ZIP, their files hashed one folder at a time (a bundle's captures are never all
 * unpacked at once). Throws CaptureReadError when the ZIP cannot be read or unpacks to too much.
 */
export async function capturesInZip(
  bytes: Uint8Array,
  entries: ReadonlyMap<string, number> = zipEntries(bytes),
  limit = UNPACKED_MAX_BYTES,
): Promise<CaptureToCheck[]> {
  const folders = captureFolders([...entries.keys()]);
  if (folders.length === 0) return [];
  const wanted = new Set<string>();
  for (const folder of folders) {
    for (const name of ['manifest.json', 'manifest.sig']) {
      if ((entries.get(folder + name) ?? 0) <= MANIFEST_MAX_BYTES) wanted.add(folder + name);
    }
  }
  const heads = unpack(bytes, wanted);
  const listed = folders.map((folder) => {
    const manifest = heads[`${folder}manifest.json`];
    const files = manifest ? factsOf(new TextDecoder().decode(manifest)).files : [];
    return { folder, manifest, files: files.filter((name) => entries.has(folder + name)) };
  });
  let total = 0;
  for (const { folder, files } of listed) {
    for (const name of files) total += entries.get(folder + name) ?? 0;
  }
  if (total > limit) throw new CaptureReadError('unpackedTooLarge');

  const checks: CaptureToCheck[] = [];
  for (const { folder, manifest, files } of listed) {
    if (!manifest) {
      checks.push({ folder, sequence: null, kind: null, requestedUrl: null, body: null, problem: null });
      continue;
    }
    const unpacked = unpack(bytes, new Set(files.map((name) => folder + name)));
    const hashes: Array<{ name: string; sha256: string }> = [];
    for (const name of files) {
      const file = unpacked[folder + name];
      if (file) hashes.push({ name, sha256: await sha256Hex(file) });
    }
    checks.push(bodyOf(manifest, heads[`${folder}manifest.sig`], hashes, folder));
  }
  return checks;
}

/** The loose files of one capture chosen together: manifest.json, manifest.sig and its files. */
export async function captureOfFiles(
  files: readonly File[],
  limit = UNPACKED_MAX_BYTES,
): Promise<CaptureToCheck> {
  const byName = new Map(files.map((file) => [file.name, file]));
  const manifest = byName.get('manifest.json');
  const signature = byName.get('manifest.sig');
  if (!manifest || !signature) throw new CaptureReadError('looseIncomplete');
  if (manifest.size > MANIFEST_MAX_BYTES || signature.size > MANIFEST_MAX_BYTES)
    throw new CaptureReadError('unreadable');
  const manifestBytes = new Uint8Array(await manifest.arrayBuffer());
  const listed = factsOf(new TextDecoder().decode(manifestBytes)).files.filter((name) => byName.has(name));
  const total = listed.reduce((sum, name) => sum + (byName.get(name)?.size ?? 0), 0);
  if (total > limit) throw new CaptureReadError('unpackedTooLarge');
  const hashes: Array<{ name: string; sha256: string }> = [];
  for (const name of listed) {
    const file = byName.get(name);
    if (file) hashes.push({ name, sha256: await sha256Hex(await file.arrayBuffer()) });
  }
  return bodyOf(manifestBytes, new Uint8Array(await signature.arrayBuffer()), hashes, null);
}

/** Whether files chosen together are one capture's loose files rather than one file to check whole. */
export const areLooseCaptureFiles = (files: readonly Pick<File, 'name'>[]): boolean =>
  files.length > 1 || files.some((file) => file.name === 'manifest.json' || file.name === 'manifest.sig');
