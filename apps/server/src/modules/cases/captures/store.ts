/**
 * The captures as the database keeps them: the rows as the case page lists them, the artefacts' bytes,
 * and each case's chain of signed manifests (appended under a lock on the case, so that two captures
 * finishing at once still get one order).
 */
import { createHash } from 'node:crypto';
import {
  CAPTURE_ARTEFACT_NAMES,
  CAPTURE_FAILURES,
  type CaptureArtefactName,
  type CaptureChainEntry,
  type CaptureFailure,
  type CaptureManifestFile,
  type CaseCapture,
} from '@footprint/domain';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../db/client.ts';
import {
  captureChain,
  captureFiles,
  capturePreviews,
  caseCaptures,
  cases,
  users,
} from '../../../db/schema.ts';
import type { CaptureSigner } from './signer.ts';

export type CaptureRow = typeof caseCaptures.$inferSelect;
type Person = { id: string; name: string; email: string };

const remover = alias(users, 'remover');

const sortFiles = (files: CaptureManifestFile[]) =>
  files.sort(
    (a, b) =>
      CAPTURE_ARTEFACT_NAMES.indexOf(a.name as CaptureArtefactName) -
      CAPTURE_ARTEFACT_NAMES.indexOf(b.name as CaptureArtefactName),
  );

function present(
  row: CaptureRow,
  requester: Person,
  removedBy: Person | null,
  files: CaptureManifestFile[],
  manifestSha256: string | null,
  preview: boolean,
): CaseCapture {
  const failure = (row.failure as CaptureFailure | null) ?? null;
  return {
    id: row.id,
    case_id: row.caseId,
    url: row.url,
    status: row.status,
    failure,
    error: failure ? CAPTURE_FAILURES[failure] : null,
    requested_by: requester,
    requested_at: row.createdAt.toISOString(),
    lookup_id: row.lookupId,
    captured_at: row.capturedAt?.toISOString() ?? null,
    final_url: row.finalUrl,
    title: row.title,
    http_status: row.httpStatus,
    files: sortFiles(files),
    truncated: row.truncated as CaptureArtefactName[],
    manifest_sha256: manifestSha256,
    preview,
    removal:
      row.removedAt && removedBy
        ? { at: row.removedAt.toISOString(), by: removedBy, reason: row.removalReason ?? '' }
        : null,
  };
}

/** A case's captures, newest first (or the one asked for), as the case page lists them. */
export async function capturesOf(db: Executor, caseId: string, captureId?: string): Promise<CaseCapture[]> {
  const rows = await db
    .select({
      capture: caseCaptures,
      requester: { id: users.id, name: users.name, email: users.email },
      remover: { id: remover.id, name: remover.name, email: remover.email },
      preview: capturePreviews.captureId,
    })
    .from(caseCaptures)
    .innerJoin(users, eq(users.id, caseCaptures.requestedBy))
    .leftJoin(remover, eq(remover.id, caseCaptures.removedBy))
    .leftJoin(capturePreviews, eq(capturePreviews.captureId, caseCaptures.id))
    .where(
      captureId
        ? and(eq(caseCaptures.caseId, caseId), eq(caseCaptures.id, captureId))
        : eq(caseCaptures.caseId, caseId),
    )
    .orderBy(desc(caseCaptures.createdAt), desc(caseCaptures.id));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.capture.id);
  const [files, manifests] = await Promise.all([
    db
      .select({
        captureId: captureFiles.captureId,
        name: captureFiles.name,
        media_type: captureFiles.mediaType,
        sha256: captureFiles.sha256,
        bytes: captureFiles.bytes,
      })
      .from(captureFiles)
      .where(inArray(captureFiles.captureId, ids)),
    db
      .select({ captureId: captureChain.captureId, sha256: captureChain.sha256 })
      .from(captureChain)
      .where(and(inArray(captureChain.captureId, ids), eq(captureChain.kind, 'capture'))),
  ]);
  return rows.map(({ capture, requester, remover: by, preview }) =>
    present(
      capture,
      requester,
      by?.id ? (by as Person) : null,
      files
        .filter((f) => f.captureId === capture.id)
        .map(({ captureId: _, ...file }) => ({ ...file, name: file.name as CaptureArtefactName })),
      manifests.find((m) => m.captureId === capture.id)?.sha256 ?? null,
      preview !== null,
    ),
  );
}

/** A capture's thumbnail (CAPTURE_PREVIEW), or null when it has none. */
export async function previewOf(db: Executor, captureId: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ body: capturePreviews.body })
    .from(capturePreviews)
    .where(eq(capturePreviews.captureId, captureId));
  return row?.body ?? null;
}

/** One artefact's bytes (null once removed, or when the capture has none). */
export async function artefactOf(
  db: Executor,
  captureId: string,
  name: CaptureArtefactName,
): Promise<{ body: Buffer; mediaType: string } | null> {
  const [row] = await db
    .select({ body: captureFiles.body, mediaType: captureFiles.mediaType })
    .from(captureFiles)
    .where(
      and(eq(captureFiles.captureId, captureId), eq(captureFiles.name, name), isNotNull(captureFiles.body)),
    );
  return row?.body ? { body: row.body, mediaType: row.mediaType } : null;
}

/** Every artefact of a capture still held, in the manifest's order. */
export async function artefactsOf(db: Executor, captureId: string) {
  const rows = await db
    .select({ name: captureFiles.name, body: captureFiles.body })
    .from(captureFiles)
    .where(and(eq(captureFiles.captureId, captureId), isNotNull(captureFiles.body)));
  return rows
    .flatMap((row) => (row.body ? [{ name: row.name as CaptureArtefactName, body: row.body }] : []))
    .sort((a, b) => CAPTURE_ARTEFACT_NAMES.indexOf(a.name) - CAPTURE_ARTEFACT_NAMES.indexOf(b.name));
}

export interface ChainEntryRow {
  sequence: number;
  captureId: string;
  kind: 'capture' | 'removal';
  manifest: string;
  signature: string;
  sha256: string;
}

/** A case's chain, in order (or only the entries of one capture). */
export async function chainOf(db: Executor, caseId: string, captureId?: string): Promise<ChainEntryRow[]> {
  return db
    .select({
      sequence: captureChain.sequence,
      captureId: captureChain.captureId,
      kind: captureChain.kind,
      manifest: captureChain.manifest,
      signature: captureChain.signature,
      sha256: captureChain.sha256,
    })
    .from(captureChain)
    .where(
      captureId
        ? and(eq(captureChain.caseId, caseId), eq(captureChain.captureId, captureId))
        : eq(captureChain.caseId, caseId),
    )
    .orderBy(asc(captureChain.sequence));
}

/** The chain entry with exactly this manifest hash, anywhere. */
export async function chainEntryBySha(db: Executor, sha256: string) {
  const [row] = await db.select().from(captureChain).where(eq(captureChain.sha256, sha256));
  return row;
}

/** The removal entry of a capture, if it was removed. */
export async function removalOf(db: Executor, captureId: string) {
  const [row] = await db
    .select({ manifest: captureChain.manifest })
    .from(captureChain)
    .where(and(eq(captureChain.captureId, captureId), eq(captureChain.kind, 'removal')));
  return row;
}

export const manifestText = (entry: CaptureChainEntry) => `${JSON.stringify(entry, null, 2)}\n`;
export const sha256Hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Appends one signed entry to a case's chain, inside the caller's transaction: the case row is locked
 * first, so the sequence and the previous hash are those of the entry just before, whatever else
 * finishes at the same moment. Answers the entry and the hash of its manifest.
 */
export async function appendToChain(
  tx: Executor,
  signer: CaptureSigner,
  caseId: string,
  captureId: string,
  build: (place: { sequence: number; previous_sha256: string | null }) => CaptureChainEntry,
): Promise<{ entry: CaptureChainEntry; sha256: string }> {
  await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId)).for('update');
  const [last] = await tx
    .select({ sequence: captureChain.sequence, sha256: captureChain.sha256 })
    .from(captureChain)
    .where(eq(captureChain.caseId, caseId))
    .orderBy(desc(captureChain.sequence))
    .limit(1);
  const entry = build({ sequence: (last?.sequence ?? 0) + 1, previous_sha256: last?.sha256 ?? null });
  const text = manifestText(entry);
  const bytes = Buffer.from(text, 'utf8');
  const sha256 = sha256Hex(bytes);
  await tx.insert(captureChain).values({
    caseId,
    sequence: entry.sequence,
    captureId,
    kind: entry.kind,
    manifest: text,
    signature: signer.sign(bytes).toString('base64'),
    sha256,
  });
  return { entry, sha256 };
}
