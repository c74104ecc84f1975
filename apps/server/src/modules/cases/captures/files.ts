/**
 * A capture's files as they leave the server: alone as a ZIP (GET …/captures/{id}/download), and in
 * the case's evidence bundle under captures/. Both hold manifest.json exactly as signed, its signature
 * manifest.sig (64 raw bytes), every artefact still held, and the server's public key.
 */
import { CAPTURE_KEY_FILE } from '@footprint/domain';
import type { Executor } from '../../../db/client.ts';
import { artefactsOf, type ChainEntryRow, chainOf } from './store.ts';

/** How to check a capture without this server, in every capture ZIP. */
export const CAPTURE_README = `This folder is one web page captured by Footprint.

manifest.json  what was captured, when, by whom, with what, and the SHA-256 of each file
manifest.sig   the server's Ed25519 signature of the exact bytes of manifest.json
${CAPTURE_KEY_FILE}  the server's public key (also published at the address in manifest.json)

Check the signature:
  openssl pkeyutl -verify -pubin -inkey ${CAPTURE_KEY_FILE} -rawin -in manifest.json -sigfile manifest.sig
Check each file:
  sha256sum page.mhtml page.png page.txt headers.json   (compare with manifest.json)
Or drop this ZIP on the server's /verify page.
`;

/** The folder of one chain entry in a bundle: captures/001-<capture id>/, captures/002-removal-<id>/. */
export const chainFolder = (entry: Pick<ChainEntryRow, 'sequence' | 'kind' | 'captureId'>) =>
  `captures/${String(entry.sequence).padStart(3, '0')}-${entry.kind === 'removal' ? 'removal-' : ''}${entry.captureId}/`;

export interface CaptureFile {
  path: string;
  body: Buffer;
  /** Already compressed data (PNG) is stored, not deflated again. */
  compress: boolean;
}

/** One chain entry's files, under `folder`: its manifest, signature and (for a capture) its artefacts. */
export async function entryFiles(db: Executor, entry: ChainEntryRow, folder: string): Promise<CaptureFile[]> {
  const files: CaptureFile[] = [
    { path: `${folder}manifest.json`, body: Buffer.from(entry.manifest, 'utf8'), compress: true },
    { path: `${folder}manifest.sig`, body: Buffer.from(entry.signature, 'base64'), compress: false },
  ];
  if (entry.kind === 'capture') {
    for (const artefact of await artefactsOf(db, entry.captureId)) {
      files.push({
        path: `${folder}${artefact.name}`,
        body: artefact.body,
        compress: artefact.name !== 'page.png',
      });
    }
  }
  return files;
}

/** A case's whole chain, entry by entry, each read only when asked for (the bundle streams them). */
export async function* chainFiles(db: Executor, caseId: string): AsyncGenerator<CaptureFile[]> {
  for (const entry of await chainOf(db, caseId)) yield entryFiles(db, entry, chainFolder(entry));
}
