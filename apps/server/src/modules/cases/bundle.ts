import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { ENTITY_LABELS, ENTITY_TYPES, legalBasisLine, searchLabel } from '@footprint/domain';
import { and, eq, like, or, sql } from 'drizzle-orm';
import { ZipFile } from 'yazl';
import packageJson from '../../../package.json' with { type: 'json' };
import type { Database } from '../../db/client.ts';
import { auditEvents, lookups, type UserRow } from '../../db/schema.ts';
import { DomainError } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { auditCsvOf } from '../audit/query.ts';
import { recordAudit } from '../audit/service.ts';
import { type ReportService, reportKindOf, safeFilePart } from '../reports/service.ts';
import type { Cases } from './service.ts';

/** What made the bundle, in its manifest. */
export const BUNDLE_GENERATOR = `Footprint ${packageJson.version}`;
/** The layout of manifest.json; raised when a field changes meaning. */
export const BUNDLE_FORMAT = 1;

/** One file of a bundle, as its manifest lists it. */
export interface BundleFile {
  path: string;
  sha256: string;
  bytes: number;
  generated_at: string;
  /** The registered report this file is (its id verifies at /api/reports/{id}/verify), if any. */
  report_id?: string;
}

/** One search of the case, as the manifest lists it. */
export interface BundleItem {
  n: number;
  lookup_id: string;
  kind: string;
  search: string;
  /** included: its files are in the bundle; purged: the retention purge removed its result, no files; no_result: it kept none (refunded). */
  status: 'included' | 'purged' | 'no_result';
  result: string | null;
  report: string | null;
  /** Why there is no report file beside the result. */
  report_note?: string;
}

export interface BundleManifest {
  format: number;
  generator: string;
  case: { id: string; reference: string; title: string };
  generated_at: string;
  generated_by: { name: string; email: string };
  files: BundleFile[];
  items: BundleItem[];
  note: string;
}

/** How often a bundle waits for a full report queue before it gives up. */
const MAX_BUSY_TRIES = 60;

const NO_REPORT_KIND =
  'No PDF report exists for this kind of search: its stored result is included as JSON only.';

/** 'FIR 214/2026' → 'fir-214-2026'. */
export const referenceSlug = (reference: string): string =>
  reference
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'case';

const kindPart = (kind: string) => kind.replace(/[^a-z0-9_]+/gi, '-');

/**
 * A case's evidence bundle: a ZIP streamed as it is made, each file drawn only when the archive has
 * taken the one before (so a large case never sits in memory, and a slow or vanished client stops the
 * drawing). The ZIP's SHA-256 is computed as it streams and registered (`reports`, kind case_bundle)
 * with its audit row once its last byte is made, never for an archive left unfinished.
 */
export function createCaseBundles(deps: {
  db: Database;
  cases: Cases;
  reports: ReportService;
  now?: () => Date;
}) {
  const { db, cases, reports } = deps;
  const now = deps.now ?? (() => new Date());

  /** The stored result of a search (a free repeat's is the one it reused), and whether it was purged. */
  async function resultOf(lookupId: string): Promise<{ result: unknown; purged: boolean }> {
    const [row] = await db
      .select({
        result: lookups.result,
        purgedAt: lookups.resultPurgedAt,
        cacheOf: lookups.cacheOf,
        userId: lookups.userId,
      })
      .from(lookups)
      .where(eq(lookups.id, lookupId));
    if (!row) return { result: null, purged: false };
    if (row.result !== null) return { result: row.result, purged: false };
    if (row.purgedAt) return { result: null, purged: true };
    if (!row.cacheOf) return { result: null, purged: false };
    const [original] = await db
      .select({ result: lookups.result, purgedAt: lookups.resultPurgedAt })
      .from(lookups)
      .where(and(eq(lookups.id, row.cacheOf), eq(lookups.userId, row.userId)));
    return { result: original?.result ?? null, purged: original?.result == null && !!original?.purgedAt };
  }

  return {
    /**
     * Opens the bundle of a case the caller may see (404 otherwise, before anything is sent): answers
     * its file name and the stream to send.
     */
    async open(
      user: UserRow,
      caseId: string,
      client: ClientContext,
    ): Promise<{ fileName: string; stream: Readable }> {
      const detail = await cases.get(user, caseId);
      const started = now();
      const fileName = `case-${referenceSlug(detail.reference)}-${started.toISOString().slice(0, 10)}.zip`;
      const zip = new ZipFile();
      const files: BundleFile[] = [];
      const items: BundleItem[] = [];
      let aborted = false;

      // The ZIP's own hash, as it streams; registered when its last byte is made.
      const hash = createHash('sha256');
      let bytes = 0;
      const out = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          bytes += chunk.length;
          done(null, chunk);
        },
        flush(done) {
          const sha256 = hash.digest('hex');
          const reportId = randomUUID();
          db.transaction(async (tx) => {
            await reports.register(tx, user, { id: reportId, kind: 'case_bundle', fileName, sha256, bytes });
            await recordAudit(tx, {
              action: 'case.bundle',
              outcome: 'success',
              user,
              client,
              target: detail.id,
              cost: 0,
              caseReference: detail.reference,
              details: {
                case_id: detail.id,
                ...(detail.legal_basis ? { legal_basis: legalBasisLine(detail.legal_basis) } : {}),
                report_id: reportId,
                file_name: fileName,
                sha256,
                bytes,
                items: items.length,
                files: files.length,
                // The reports drawn for it (the summary and each search's), registered each on its own.
                report_ids: files.flatMap((file) => (file.report_id ? [file.report_id] : [])),
              },
            });
          }).then(
            () => done(),
            (error: Error) => done(error),
          );
        },
      });
      out.on('close', () => {
        aborted = true;
      });
      zip.outputStream.on('error', (error) => out.destroy(error));
      zip.outputStream.pipe(out);

      /**
       * Adds one file once the archive has taken the previous one, hashing it as it goes in; resolves
       * when the archive has taken all of it (a stalled client stalls the next file's drawing).
       */
      const add = (
        path: string,
        data: Buffer | AsyncIterable<string>,
        compress: boolean,
        extra: Partial<BundleFile> = {},
      ) =>
        new Promise<void>((resolve, reject) => {
          const gone = () => reject(new Error('the client went away'));
          if (aborted) return gone();
          out.once('close', gone);
          const fileHash = createHash('sha256');
          let fileBytes = 0;
          zip.addReadStreamLazy(path, { compress, mtime: started }, (ready) => {
            const counted = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                fileHash.update(chunk);
                fileBytes += chunk.length;
                done(null, chunk);
              },
            });
            const source = Buffer.isBuffer(data) ? Readable.from([data]) : Readable.from(data);
            source.once('error', reject);
            counted.once('end', () => {
              out.off('close', gone);
              files.push({
                path,
                sha256: fileHash.digest('hex'),
                bytes: fileBytes,
                generated_at: now().toISOString(),
                ...extra,
              });
              resolve();
            });
            ready(null, source.pipe(counted));
          });
        });

      /**
       * Draws through the report pool; while its queue is full (503 reports_busy) the bundle waits the
       * time the pool names and tries again, rather than failing half-sent.
       */
      async function whenFree<T>(work: () => Promise<T>): Promise<T> {
        for (let attempt = 1; ; attempt++) {
          try {
            return await work();
          } catch (error) {
            const busy = error instanceof DomainError && error.code === 'reports_busy';
            if (!busy || aborted || attempt >= MAX_BUSY_TRIES) throw error;
            const seconds = Number(error.extra.retry_after) || 1;
            await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 10) * 1000));
          }
        }
      }

      const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

      async function write(): Promise<void> {
        // 1. The case summary, drawn in the report pool like every report.
        const sandbox = detail.items.some((item) => item.sandbox);
        const byType = new Map<string, BundleSummaryEntity[]>();
        for (const entity of detail.entities) {
          const list = byType.get(entity.type) ?? [];
          list.push({
            value: entity.value,
            sources: entity.sources,
            searches: entity.items.length,
            corroborated: entity.corroborated,
          });
          byType.set(entity.type, list);
        }
        const order = [
          ...ENTITY_TYPES,
          ...[...byType.keys()].filter((t) => !ENTITY_TYPES.includes(t as never)),
        ];
        const summary = await whenFree(() =>
          reports.caseSummary(
            user,
            {
              template: 'case',
              reportId: randomUUID(),
              generatedAt: now().toISOString(),
              account: { name: user.name, email: user.email },
              sandbox,
              case: {
                id: detail.id,
                title: detail.title,
                reference: detail.reference,
                status: detail.status,
                legalBasis: detail.legal_basis ? legalBasisLine(detail.legal_basis) : null,
                owner: detail.owner,
                createdAt: detail.created_at,
              },
              members: detail.members.map((m) => ({ name: m.name, email: m.email, addedAt: m.added_at })),
              notes: detail.notes.map((n) => ({ author: n.author, body: n.body, createdAt: n.created_at })),
              searches: detail.items.map((item) => ({
                lookupId: item.lookup_id,
                label: searchLabel(item),
                createdAt: item.created_at,
                status: item.status,
                kept: item.result_available,
              })),
              entities: order
                .filter((type) => byType.has(type))
                .map((type) => ({
                  type: (ENTITY_LABELS as Record<string, string>)[type] ?? type,
                  items: byType.get(type)!,
                })),
              timeline: detail.timeline.map(({ at, label, source }) => ({ at, label, source })),
            },
            'case-summary.pdf',
          ),
        );
        await add('case-summary.pdf', summary.pdf, false, { report_id: summary.reportId });

        // 2. Every search: its report (where its kind has one) and its stored result.
        let n = 0;
        for (const item of detail.items) {
          n += 1;
          const base = `${String(n).padStart(3, '0')}-${kindPart(item.kind)}-${item.lookup_id}`;
          const entry: BundleItem = {
            n,
            lookup_id: item.lookup_id,
            kind: item.kind,
            search: searchLabel(item),
            status: 'included',
            result: null,
            report: null,
          };
          items.push(entry);
          const { result, purged } = await resultOf(item.lookup_id);
          if (result === null) {
            entry.status = purged ? 'purged' : 'no_result';
            continue;
          }
          if (reportKindOf(item.kind)) {
            const path = `reports/${base}.pdf`;
            const file = await whenFree(() =>
              reports.searchReport(user, item.lookup_id, safeFilePart(`${base}.pdf`)),
            );
            if (file) {
              await add(path, file.pdf, false, { report_id: file.reportId });
              entry.report = path;
            } else {
              entry.report_note = 'This search has no report: its sources did not answer it.';
            }
          } else {
            entry.report_note = NO_REPORT_KIND;
          }
          const path = `results/${base}.json`;
          await add(path, json(result), true);
          entry.result = path;
        }

        // 3. The case's audit rows: its searches' (details.case_id) and its own actions (case.*).
        const where = or(
          sql`${auditEvents.details}->>'case_id' = ${detail.id}`,
          and(like(auditEvents.action, 'case.%'), eq(auditEvents.target, detail.id)),
        );
        await add('audit.csv', auditCsvOf(db, where), true);

        // 4. The manifest: every file above with its hash and size (it cannot hold the ZIP's own).
        const manifest: BundleManifest = {
          format: BUNDLE_FORMAT,
          generator: BUNDLE_GENERATOR,
          case: { id: detail.id, reference: detail.reference, title: detail.title },
          generated_at: started.toISOString(),
          generated_by: { name: user.name, email: user.email },
          files,
          items,
          note: 'The SHA-256 of this ZIP file itself was recorded when it was generated: anyone holding it can check it at /verify (POST /api/verify).',
        };
        await add('manifest.json', json(manifest), true);
        zip.end();
      }

      write().catch((error: Error) => {
        // A client that went away stops the drawing: nothing more is made and nothing is registered.
        if (!aborted) out.destroy(error);
        zip.outputStream.unpipe(out);
      });
      return { fileName, stream: out };
    },
  };
}

interface BundleSummaryEntity {
  value: string;
  sources: string[];
  searches: number;
  corroborated: boolean;
}

export type CaseBundles = ReturnType<typeof createCaseBundles>;
