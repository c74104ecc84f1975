import { createHash, randomUUID } from 'node:crypto';
import {
  findIntelType,
  type IntelArea,
  type IntelKind,
  type IntelType,
  intelKindOf,
  intelQueryText,
  isRecord,
  messages,
  normalizeIntelData,
  parseIntelRequest,
  validateIntel,
} from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { lookups, reports, type UserRow, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { FanOutResult, Runner } from '../../providers/runner.ts';
import { type AuditOutcome, recordAudit } from '../audit/service.ts';
import type { ClientContext } from '../auth/service.ts';
import { chargeForLookup, refundPendingLookup } from '../credits/service.ts';
import { insufficientCredits } from '../lookup/service.ts';
import type { ReportPool } from '../reports/pool.ts';
import { safeFilePart } from '../reports/service.ts';
import { requireCaseReference } from '../settings/case-reference.ts';

/** The price of each corporate and verification search (config.costs). */
export type IntelCosts = Readonly<Record<IntelKind, number>>;

interface Found {
  /** The vendor's `data` object: what the results page flattens. */
  record: Record<string, unknown>;
  lookupId: string;
  credits: number;
  sandbox: boolean;
}

export type IntelOutcome =
  | (Found & { format: 'json' })
  | (Found & {
      format: 'pdf';
      pdf: Buffer;
      fileName: string;
      reportId: string;
      sha256: string;
    });

const ACTIONS: Record<IntelArea, string> = {
  corporate: 'lookup.corporate',
  verification: 'lookup.verification',
};

/** 400, not 422: the spec's browser reads 422 as 'no record found' (spec §4, §8). */
const badRequest = (message: string) => new AppError(400, 'invalid_search', message, { error: message });

/**
 * The KYC vendor's envelope (research/upstreams.md): a record answer is `data` as an object with
 * success not false and a 2xx status; 404 and 422 envelopes, `success: false` and a null `data` are
 * the vendor's "no record".
 */
export function recordOf(payload: unknown): Record<string, unknown> | null {
  if (!isRecord(payload) || !isRecord(payload.data)) return null;
  if (payload.success === false) return null;
  const status = payload.status_code;
  if (typeof status === 'number' && (status < 200 || status >= 300)) return null;
  return payload.data;
}

/**
 * Corporate Intelligence and Identity Verification (spec §2.7, §2.8, §7): the checks of spec §5 again
 * on the server, live accounts only, a charge from configuration, one vendor call, and a refund when
 * the source has no record (422) or does not answer (502). Every call leaves an audit row; every
 * search that reached the source leaves a lookups row with its charge and any refund in the ledger.
 */
export function createIntelService(deps: {
  db: Database;
  runner: Runner;
  pool: ReportPool;
  costs: IntelCosts;
  now?: () => Date;
}) {
  const { db, runner } = deps;
  const now = deps.now ?? (() => new Date());

  async function balanceOf(userId: string): Promise<number> {
    const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return row?.credits ?? 0;
  }

  const costOf = (t: IntelType): number => deps.costs[intelKindOf(t)];

  /** Gives the charge back and closes the lookups row as refunded; answers the balance after. */
  async function refund(
    userId: string,
    lookupId: string,
    cost: number,
    reason: string,
    errors: Record<string, string>,
    caseReference: string | null,
  ): Promise<number> {
    return db.transaction(async (tx) => {
      const credits = await refundPendingLookup(tx, {
        userId,
        lookupId,
        cost,
        reason,
        at: now(),
        set: { sourceErrors: errors, caseReference },
      });
      return credits ?? (await balanceOf(userId));
    });
  }

  return {
    async search(
      user: UserRow,
      area: IntelArea,
      body: unknown,
      client: ClientContext,
    ): Promise<IntelOutcome> {
      const action = ACTIONS[area];
      const audit = (
        outcome: AuditOutcome,
        target: string,
        cost: number,
        caseReference: string | null,
        details: Record<string, unknown>,
      ) => recordAudit(db, { action, outcome, user, client, target, cost, caseReference, details });

      // Trial accounts never reach a source, whatever their browser does (spec §1, §6).
      if (user.appMode !== 'live') {
        await audit('denied', area, 0, null, { reason: 'trial_account' });
        throw new AppError(403, 'live_only', messages.upgrade.body, { error: messages.upgrade.body });
      }

      const parsed = parseIntelRequest(body);
      if (!parsed.ok) {
        await audit('failure', area, 0, null, { reason: 'invalid_request', message: parsed.message });
        throw badRequest(parsed.message);
      }
      const { type, data, case_reference } = parsed.request;
      const caseReference = await requireCaseReference(db, case_reference);
      const t = findIntelType(area, type);
      if (!t) {
        const message = messages.intel.unknownType(type.slice(0, 60));
        await audit('failure', type.slice(0, 100), 0, caseReference, { reason: 'unknown_type', message });
        throw badRequest(message);
      }
      const invalid = validateIntel(t, data);
      if (invalid) {
        await audit('failure', t.type, 0, caseReference, { reason: 'invalid_fields', message: invalid });
        throw badRequest(invalid);
      }

      const params = normalizeIntelData(t, data);
      const kind = intelKindOf(t);
      const query = intelQueryText(t, params);
      const target = `${t.type}:${query}`;
      const cost = costOf(t);
      const charge = {
        userId: user.id,
        cost,
        kind,
        query,
        ip: client.ip,
        deviceId: client.deviceId ?? null,
        caseReference,
        at: now(),
      };
      const charged = await chargeForLookup(db, charge);
      if (!charged) {
        const balance = await balanceOf(user.id);
        await audit('denied', target, 0, caseReference, { reason: 'insufficient_credits', cost, balance });
        throw insufficientCredits(balance);
      }
      const { lookupId } = charged;

      let fanOut: FanOutResult;
      try {
        fanOut = await runner.run({ kind, value: query, params });
      } catch (error) {
        await refund(user.id, lookupId, cost, 'Search failed', {}, caseReference);
        throw error;
      }
      const payload = fanOut.payloads[kind];
      const record = recordOf(payload);

      if (!record) {
        const noRecord = fanOut.answered.includes(kind);
        const errors = { ...fanOut.errors };
        if (noRecord && payload !== undefined && !errors[kind]) {
          const message = isRecord(payload) && typeof payload.message === 'string' ? payload.message : '';
          errors[kind] = message.slice(0, 200) || 'No record found.';
        }
        const credits = await refund(
          user.id,
          lookupId,
          cost,
          noRecord ? 'No record found' : 'Source did not answer',
          errors,
          caseReference,
        );
        await audit('failure', target, 0, caseReference, {
          reason: noRecord ? 'no_record' : 'source_failed',
          lookup_id: lookupId,
          error: errors[kind] ?? null,
        });
        throw noRecord
          ? new AppError(422, 'no_record', messages.intel.noRecord, { credits, lookup_id: lookupId })
          : new AppError(502, 'source_failed', messages.intel.upstreamFailed, {
              credits,
              lookup_id: lookupId,
            });
      }

      const complete = (pdfReportId?: string) =>
        db
          .update(lookups)
          .set({
            status: 'complete',
            sourcesAnswered: [kind],
            sourceErrors: fanOut.errors,
            result: {
              payloads: { [kind]: payload },
              errors: fanOut.errors,
              ...(pdfReportId ? { report_id: pdfReportId } : {}),
            },
            sandbox: fanOut.sandbox,
            caseReference,
            completedAt: now(),
          })
          // A lookup the recovery sweep already refunded stays refunded (lookup/recovery.ts).
          .where(and(eq(lookups.id, lookupId), eq(lookups.status, 'pending')));
      const found: Found = { record, lookupId, credits: charged.credits, sandbox: fanOut.sandbox };

      if (!t.returnsPdf) {
        await complete();
        await audit('success', target, cost, caseReference, { lookup_id: lookupId, sandbox: fanOut.sandbox });
        return { ...found, format: 'json' };
      }

      // The credit report: drawn in the report pool from the bureau record, with a verifiable id.
      const reportId = randomUUID();
      const at = now();
      let pdf: Buffer;
      try {
        pdf = await deps.pool.render({
          template: 'credit',
          reportId,
          lookupId,
          generatedAt: at.toISOString(),
          searchedAt: at.toISOString(),
          account: { name: user.name, email: user.email },
          sandbox: fanOut.sandbox,
          caseReference,
          subject: {
            pan: String(params.pan ?? ''),
            name: String(params.name ?? ''),
            mobile: String(params.mobile ?? ''),
            gender: String(params.gender ?? ''),
          },
          record,
        });
      } catch {
        const credits = await refund(user.id, lookupId, cost, 'Report could not be drawn', {}, caseReference);
        await audit('failure', target, 0, caseReference, { reason: 'render_failed', lookup_id: lookupId });
        throw new AppError(500, 'render_failed', messages.creditReport.failed, {
          credits,
          lookup_id: lookupId,
        });
      }
      const sha256 = createHash('sha256').update(pdf).digest('hex');
      const fileName = `credit-report-${safeFilePart(String(params.pan ?? 'pan'))}.pdf`;
      await db.insert(reports).values({
        id: reportId,
        userId: user.id,
        lookupId,
        kind: 'credit_report',
        fileName,
        sha256,
        bytes: pdf.byteLength,
        writer: null,
        createdAt: at,
      });
      await complete(reportId);
      await audit('success', target, cost, caseReference, {
        lookup_id: lookupId,
        report_id: reportId,
        sandbox: fanOut.sandbox,
      });
      return { ...found, format: 'pdf', pdf, fileName, reportId, sha256 };
    },
  };
}

export type IntelService = ReturnType<typeof createIntelService>;
