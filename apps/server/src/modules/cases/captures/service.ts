/**
 * Web pages captured into a case: asked for by a member (audited), taken on the job queue by the
 * server's Chromium (browser.ts) through the address guard, kept with a signed manifest in the case's
 * chain (store.ts), listed on the case page, downloaded as a ZIP, put in the evidence bundle, and never
 * deleted silently: a removal deletes the artefacts' bytes and appends its own signed entry.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import {
  CAPTURE_ARTEFACTS,
  CAPTURE_FAILURES,
  CAPTURE_KEY_FILE,
  CAPTURE_MANIFEST_FORMAT,
  type CaptureArtefactName,
  type CaptureManifest,
  type CaseCapture,
  type CreateCaptureBody,
  captureMessages,
  casesMessages,
} from '@footprint/domain';
import { and, eq, inArray, or } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import packageJson from '../../../../package.json' with { type: 'json' };
import { removesCapture, sees } from '../../../access/policy.ts';
import type { Config } from '../../../config.ts';
import type { Database, Executor } from '../../../db/client.ts';
import {
  captureFiles,
  capturePreviews,
  caseCaptures,
  caseItems,
  cases,
  lookups,
  type UserRow,
  users,
} from '../../../db/schema.ts';
import {
  captureNotReady,
  captureOff,
  closedCase,
  forbidden,
  notFound,
  validationError,
} from '../../../errors.ts';
import type { ClientContext } from '../../../http/context.ts';
import { noteOutage, OUTAGE_WAIT_MS, outageOf, whenUp } from '../../../outage.ts';
import { createAddressGuard } from '../../../security/address-guard.ts';
import { recordAudit } from '../../audit/service.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { UUID, visibleCase } from '../access.ts';
import { auditCase } from '../context.ts';
import { referenceSlug } from '../stored-result.ts';
import { type CaptureEngineOptions, CaptureFailed, capturePage, type PageCapture } from './browser.ts';
import { CAPTURE_README, entryFiles } from './files.ts';
import type { CaptureSigner } from './signer.ts';
import { appendToChain, artefactOf, capturesOf, chainOf, previewOf, sha256Hex } from './store.ts';

export const CAPTURE_JOB = 'case.capture';
const MAX_SCREENSHOT_HEIGHT = 16_384;
const TOOL = `Footprint ${packageJson.version}`;

export interface CapturesDeps {
  db: Database;
  queue: JobQueue;
  signer: CaptureSigner;
  config: Config['capture'];
  appUrl: string;
  now?: () => Date;
  log?: { warn(o: object, m: string): void; error(o: object, m: string): void };
}

/** The browser binary: an absolute path as given, a bare name looked up on the PATH; undefined if absent. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  const candidates = isAbsolute(name) ? [name] : path.split(delimiter).map((dir) => join(dir, name));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

type Ctx = Required<Omit<CapturesDeps, 'log'>> & Pick<CapturesDeps, 'log'> & { chromium: string | undefined };

/** The capture's manifest, from what the browser took. */
function manifestOf(
  ctx: Ctx,
  row: typeof caseCaptures.$inferSelect,
  caseRef: { id: string; reference: string },
  requester: { id: string; name: string; email: string },
  page: PageCapture,
  place: { sequence: number; previous_sha256: string | null },
): CaptureManifest {
  return {
    format: CAPTURE_MANIFEST_FORMAT,
    kind: 'capture',
    case: caseRef,
    ...place,
    capture_id: row.id,
    requested_url: row.url,
    final_url: page.finalUrl,
    http_status: page.httpStatus,
    title: page.title,
    captured_at: page.capturedAt.toISOString(),
    requested_at: row.createdAt.toISOString(),
    requested_by: requester,
    lookup_id: row.lookupId,
    tool: { name: TOOL, browser: page.browser, user_agent: page.userAgent },
    files: (Object.keys(CAPTURE_ARTEFACTS) as CaptureArtefactName[]).map((name) => ({
      name,
      media_type: CAPTURE_ARTEFACTS[name].mediaType,
      sha256: sha256Hex(page.files[name]),
      bytes: page.files[name].length,
    })),
    truncated: page.truncated,
    signing_key: { algorithm: 'Ed25519', key_id: ctx.signer.keyId, published_at: ctx.signer.publishedAt },
  };
}

/** Keeps a finished capture: its artefacts, its signed manifest in the chain, its row and audit, at once. */
async function keep(ctx: Ctx, row: typeof caseCaptures.$inferSelect, page: PageCapture): Promise<void> {
  const { db, signer } = ctx;
  const [requester] = await db.select().from(users).where(eq(users.id, row.requestedBy));
  if (!requester) throw new Error(`the requester of capture ${row.id} is gone`);
  await db.transaction(async (tx) => {
    const caseRow = await caseRowOf(tx, row.caseId);
    const { entry, sha256 } = await appendToChain(tx, signer, row.caseId, row.id, (place) =>
      manifestOf(
        ctx,
        row,
        { id: caseRow.id, reference: caseRow.reference },
        { id: requester.id, name: requester.name, email: requester.email },
        page,
        place,
      ),
    );
    const manifest = entry as CaptureManifest;
    await tx.insert(captureFiles).values(
      manifest.files.map((file) => ({
        captureId: row.id,
        name: file.name,
        mediaType: file.media_type,
        sha256: file.sha256,
        bytes: file.bytes,
        body: page.files[file.name],
      })),
    );
    if (page.preview) await tx.insert(capturePreviews).values({ captureId: row.id, body: page.preview });
    await tx
      .update(caseCaptures)
      .set({
        status: 'done',
        capturedAt: page.capturedAt,
        finalUrl: page.finalUrl,
        title: page.title,
        httpStatus: page.httpStatus,
        truncated: page.truncated,
      })
      .where(eq(caseCaptures.id, row.id));
    await auditCase(tx, requester, null, 'case.capture.done', caseRow, {
      capture_id: row.id,
      url: row.url,
      final_url: page.finalUrl,
      http_status: page.httpStatus,
      manifest_sha256: sha256,
      sequence: manifest.sequence,
      files: Object.fromEntries(manifest.files.map((file) => [file.name, file.sha256])),
    });
  });
}

/**
 * Keeps a capture taken while the database went away: the page as the browser saw it is held and
 * written once the database is back (the write is one transaction, so a try cut off left nothing),
 * rather than the page fetched again later, when it may have changed. Gives up after three outages,
 * or when one lasts longer than OUTAGE_WAIT_MS: the job is then retried as any other failure.
 */
async function keepThroughOutage(
  ctx: Ctx,
  row: typeof caseCaptures.$inferSelect,
  page: PageCapture,
  signal: AbortSignal,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await keep(ctx, row, page);
    } catch (error) {
      if (outageOf(error) !== 'database' || attempt >= 3 || signal.aborted) throw error;
      noteOutage('database', error);
      if (!(await whenUp('database', OUTAGE_WAIT_MS))) throw error;
    }
  }
}

/** The case row of a capture (the job reads it without a caller). */
async function caseRowOf(executor: Executor, caseId: string) {
  const [row] = await executor.select().from(cases).where(eq(cases.id, caseId));
  return row!;
}

/** Tries of one capture job after its first (SendOptions.retryLimit). */
const CAPTURE_RETRIES = 2;

/**
 * Runs one capture (the job's handler). A job is delivered again only when its run was lost (a stopped
 * or crashed process, an expired run) or threw, so a capture still queued or running is taken again;
 * one done, failed or removed is left alone. A page that cannot be captured is a failure kept on the
 * capture, not a retry; anything else (the database, the browser not starting) is retried, and on the
 * last try the capture is marked failed rather than left in progress.
 */
async function runCapture(
  ctx: Ctx,
  captureId: string,
  job: { signal: AbortSignal; retryCount: number },
): Promise<void> {
  const { db, now, config } = ctx;
  const [row] = await db
    .update(caseCaptures)
    .set({ status: 'running', startedAt: now() })
    .where(and(eq(caseCaptures.id, captureId), inArray(caseCaptures.status, ['queued', 'running'])))
    .returning();
  if (!row) return;
  const options: CaptureEngineOptions = {
    executablePath: ctx.chromium ?? config.chromiumPath,
    guard: createAddressGuard(config.allowAddresses),
    userAgentSuffix: `FootprintCapture/${packageJson.version} (+${ctx.appUrl})`,
    now,
    timeoutMs: config.timeoutMs,
    maxBytes: config.maxBytes,
    maxScreenshotHeight: MAX_SCREENSHOT_HEIGHT,
  };
  try {
    await keepThroughOutage(ctx, row, await capturePage(row.url, options, job.signal), job.signal);
  } catch (error) {
    if (error instanceof CaptureFailed) {
      ctx.log?.warn({ capture_id: row.id, failure: error.failure, detail: error.message }, 'capture failed');
      return failed(ctx, row, error.failure);
    }
    // Stopped (the queue is closing): queued again, the next delivery takes it.
    if (job.signal.aborted) {
      await db.update(caseCaptures).set({ status: 'queued' }).where(eq(caseCaptures.id, row.id));
      throw error;
    }
    ctx.log?.error({ capture_id: row.id, err: error }, 'capture job failed');
    if (job.retryCount >= CAPTURE_RETRIES) return failed(ctx, row, 'browser');
    throw error;
  }
}

async function failed(ctx: Ctx, row: typeof caseCaptures.$inferSelect, failure: CaptureFailed['failure']) {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    await tx.update(caseCaptures).set({ status: 'failed', failure }).where(eq(caseCaptures.id, row.id));
    const caseRow = await caseRowOf(tx, row.caseId);
    const [requester] = await tx.select().from(users).where(eq(users.id, row.requestedBy));
    await recordAudit(tx, {
      action: 'case.capture.done',
      outcome: 'failure',
      user: requester,
      target: caseRow.id,
      caseReference: caseRow.reference,
      details: {
        case_id: caseRow.id,
        capture_id: row.id,
        url: row.url,
        failure,
        error: CAPTURE_FAILURES[failure],
      },
    });
  });
}

/** The lookup a capture names must be one the caller may read, or one filed in the case. */
async function checkLookup(db: Database, user: UserRow, caseId: string, lookupId: string): Promise<void> {
  const [found] = await db
    .select({ id: lookups.id })
    .from(lookups)
    .leftJoin(caseItems, and(eq(caseItems.lookupId, lookups.id), eq(caseItems.caseId, caseId)))
    .where(and(eq(lookups.id, lookupId), or(sees(user, lookups), eq(caseItems.caseId, caseId))));
  if (!found) {
    throw validationError({ lookup_id: [casesMessages.lookupNotFound] }, casesMessages.lookupNotFound);
  }
}

/** A literal address the guard refuses is refused at once (a name is checked when the browser connects). */
function refusedAtOnce(ctx: Ctx, url: string): boolean {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const guard = createAddressGuard(ctx.config.allowAddresses);
  if (host === 'localhost' || host.endsWith('.localhost')) return !guard.allowed('127.0.0.1', port);
  return /^[\d.]+$|:/.test(host) && !guard.allowed(host, port);
}

type One = (
  user: UserRow,
  caseId: string,
  captureId: string,
) => Promise<{ visible: Awaited<ReturnType<typeof visibleCase>>; capture: CaseCapture }>;

/**
 * Removes a finished capture's artefacts (its requester, or whoever may share the case): the bytes go,
 * the manifest stays, and a signed removal entry with its reason is appended to the case's chain.
 */
async function removeCapture(
  ctx: Ctx,
  one: One,
  user: UserRow,
  target: { caseId: string; captureId: string; reason: string },
  client: ClientContext,
): Promise<CaseCapture> {
  const { db, signer } = ctx;
  const { reason } = target;
  const { visible, capture } = await one(user, target.caseId, target.captureId);
  if (!removesCapture(visible.role, user, capture.requested_by.id)) throw forbidden();
  if (capture.status !== 'done' || !capture.manifest_sha256) throw captureNotReady();
  const at = ctx.now();
  await db.transaction(async (tx) => {
    const { sha256 } = await appendToChain(tx, signer, visible.row.id, capture.id, (place) => ({
      format: CAPTURE_MANIFEST_FORMAT,
      kind: 'removal',
      case: { id: visible.row.id, reference: visible.row.reference },
      ...place,
      capture_id: capture.id,
      removed_at: at.toISOString(),
      removed_by: { id: user.id, name: user.name, email: user.email },
      reason,
      capture_manifest_sha256: capture.manifest_sha256!,
      signing_key: { algorithm: 'Ed25519', key_id: signer.keyId, published_at: signer.publishedAt },
    }));
    await tx.update(captureFiles).set({ body: null }).where(eq(captureFiles.captureId, capture.id));
    await tx.delete(capturePreviews).where(eq(capturePreviews.captureId, capture.id));
    await tx
      .update(caseCaptures)
      .set({ status: 'removed', removedAt: at, removedBy: user.id, removalReason: reason })
      .where(eq(caseCaptures.id, capture.id));
    await auditCase(tx, user, client, 'case.capture.remove', visible.row, {
      capture_id: capture.id,
      url: capture.url,
      reason,
      removal_sha256: sha256,
      capture_manifest_sha256: capture.manifest_sha256,
    });
  });
  const [removed] = await capturesOf(db, visible.row.id, capture.id);
  return removed!;
}

/** The capture alone as a ZIP: its signed manifest, signature, artefacts, any removal, the key and a README. */
async function downloadCapture(
  ctx: Ctx,
  one: One,
  user: UserRow,
  caseId: string,
  captureId: string,
  client: ClientContext,
) {
  const { db, signer } = ctx;
  const { visible, capture } = await one(user, caseId, captureId);
  const entries = await chainOf(db, visible.row.id, capture.id);
  const own = entries.find((entry) => entry.kind === 'capture');
  if (!own) throw captureNotReady();
  const zip = new ZipFile();
  const mtime = capture.captured_at ? new Date(capture.captured_at) : ctx.now();
  for (const file of await entryFiles(db, own, '')) {
    zip.addBuffer(file.body, file.path, { compress: file.compress, mtime });
  }
  for (const removal of entries.filter((entry) => entry.kind === 'removal')) {
    for (const file of await entryFiles(db, removal, 'removal/'))
      zip.addBuffer(file.body, file.path, { mtime });
  }
  zip.addBuffer(Buffer.from(signer.publicKeyPem, 'utf8'), CAPTURE_KEY_FILE, { mtime });
  zip.addBuffer(Buffer.from(CAPTURE_README, 'utf8'), 'README.txt', { mtime });
  zip.end();
  await auditCase(db, user, client, 'case.capture.download', visible.row, {
    capture_id: capture.id,
    manifest_sha256: capture.manifest_sha256,
  });
  const sequence = String(own.sequence).padStart(3, '0');
  return {
    fileName: `capture-${referenceSlug(visible.row.reference)}-${sequence}.zip`,
    stream: zip.outputStream,
  };
}

export function createCaptures(deps: CapturesDeps) {
  const chromium = deps.config.enabled ? findExecutable(deps.config.chromiumPath) : undefined;
  const ctx: Ctx = { ...deps, now: deps.now ?? (() => new Date()), chromium, log: deps.log };
  const available = deps.config.enabled && chromium !== undefined;
  const { db } = ctx;

  const one = async (user: UserRow, caseId: string, captureId: string) => {
    const visible = await visibleCase(db, user, caseId);
    if (!UUID.test(captureId)) throw notFound(captureMessages.notFound);
    const [capture] = await capturesOf(db, visible.row.id, captureId);
    if (!capture) throw notFound(captureMessages.notFound);
    return { visible, capture };
  };

  return {
    available,
    signer: deps.signer,

    /** Registers the capture job's worker (only where capturing is on). */
    async register(): Promise<void> {
      if (!available) return;
      await deps.queue.work<{ captureId: string }>(
        CAPTURE_JOB,
        (job) => runCapture(ctx, job.data.captureId, job),
        { concurrency: deps.config.concurrency },
      );
    },

    async list(user: UserRow, caseId: string): Promise<{ data: CaseCapture[]; available: boolean }> {
      const { row } = await visibleCase(db, user, caseId);
      return { data: await capturesOf(db, row.id), available };
    },

    get: async (user: UserRow, caseId: string, captureId: string) =>
      (await one(user, caseId, captureId)).capture,

    async request(
      user: UserRow,
      caseId: string,
      body: CreateCaptureBody & { url: string },
      client: ClientContext,
    ): Promise<CaseCapture> {
      const { row } = await visibleCase(db, user, caseId);
      if (row.status === 'closed') throw closedCase();
      if (!available) throw captureOff();
      if (refusedAtOnce(ctx, body.url)) {
        throw validationError({ url: [CAPTURE_FAILURES.address_refused] }, CAPTURE_FAILURES.address_refused);
      }
      if (body.lookup_id) await checkLookup(db, user, row.id, body.lookup_id);
      const created = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(caseCaptures)
          .values({
            caseId: row.id,
            requestedBy: user.id,
            url: body.url,
            lookupId: body.lookup_id ?? null,
            createdAt: ctx.now(),
          })
          .returning();
        await auditCase(tx, user, client, 'case.capture', row, {
          capture_id: inserted!.id,
          url: body.url,
          ...(body.lookup_id ? { lookup_id: body.lookup_id } : {}),
        });
        return inserted!;
      });
      // The answer is the capture as asked for (queued), read before the job is sent: read after, it
      // was whatever the worker had made of it by then (running, on a quick queue).
      const [capture] = await capturesOf(db, row.id, created.id);
      await deps.queue.send(
        CAPTURE_JOB,
        { captureId: created.id },
        {
          // One job per capture: the queue folds sends of one name and key, and a keyless send is one key.
          singletonKey: created.id,
          retryLimit: CAPTURE_RETRIES,
          retryDelaySeconds: 10,
          expireInSeconds: Math.ceil((3 * deps.config.timeoutMs) / 1000) + 60,
        },
      );
      return capture!;
    },

    /** One artefact's bytes, for a capture that has them. */
    async file(user: UserRow, caseId: string, captureId: string, name: CaptureArtefactName) {
      const { capture } = await one(user, caseId, captureId);
      if (capture.status !== 'done') throw captureNotReady();
      const file = await artefactOf(db, capture.id, name);
      if (!file) throw captureNotReady();
      return { ...file, capture };
    },

    /** The thumbnail of a finished capture: 404 when it has none (removed, or not drawn). */
    async preview(user: UserRow, caseId: string, captureId: string) {
      const { capture } = await one(user, caseId, captureId);
      const body = capture.preview ? await previewOf(db, capture.id) : null;
      if (!body) throw notFound(captureMessages.noPreview);
      return body;
    },

    remove: (user: UserRow, caseId: string, captureId: string, reason: string, client: ClientContext) =>
      removeCapture(ctx, one, user, { caseId, captureId, reason }, client),

    download: (user: UserRow, caseId: string, captureId: string, client: ClientContext) =>
      downloadCapture(ctx, one, user, caseId, captureId, client),

    /** Runs one capture now (tests, and the job's handler). */
    run: (captureId: string, signal: AbortSignal = new AbortController().signal) =>
      runCapture(ctx, captureId, { signal, retryCount: CAPTURE_RETRIES }),
  };
}

export type Captures = ReturnType<typeof createCaptures>;
