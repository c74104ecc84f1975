import { createHash, randomUUID } from 'node:crypto';
import {
  findIntelType,
  type IntelArea,
  type IntelKind,
  type IntelType,
  intelFieldErrors,
  intelKindOf,
  intelQueryText,
  intelTypedText,
  messages,
  normalizeIntelData,
  parseIntelRequest,
  validateIntel,
} from '@footprint/domain';
import { usesLiveFeatures } from '../../access/policy.ts';
import type { Database } from '../../db/client.ts';
import { reports, type UserRow } from '../../db/schema.ts';
import {
  invalidSearch,
  kindUnavailable,
  liveOnly,
  noRecord as noRecordFound,
  renderFailed,
  reportsBusy,
  sourceFailed,
} from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { kycMessageOf, kycRecordOf } from '../../providers/kyc-envelope.ts';
import type { Runner } from '../../providers/runner.ts';
import { type AuditOutcome, recordAudit } from '../audit/service.ts';
import { type ReportPool, ReportsBusyError } from '../reports/pool.ts';
import { safeFilePart } from '../reports/service.ts';
import { type Answer, type CaseReference, legalBasisLineOf, type Searches } from '../searches/service.ts';

/** The price of each corporate and verification search (config.costs). */
export type IntelCosts = Readonly<Record<IntelKind, number>>;

/** The credit report drawn from a bureau record. */
interface Report {
  pdf: Buffer;
  fileName: string;
  reportId: string;
  sha256: string;
}

interface Found {
  /** The vendor's `data` object: what the results page flattens. */
  record: Record<string, unknown>;
  sandbox: boolean;
  report?: Report | undefined;
}

interface Answered {
  record: Record<string, unknown>;
  lookupId: string;
  credits: number;
  sandbox: boolean;
}

export type IntelOutcome = (Answered & { format: 'json' }) | (Answered & { format: 'pdf' } & Report);

interface IntelDeps {
  db: Database;
  searches: Searches;
  runner: Runner;
  pool: ReportPool;
  costs: IntelCosts;
  now?: () => Date;
}

const ACTIONS: Record<IntelArea, string> = {
  corporate: 'lookup.corporate',
  verification: 'lookup.verification',
};

/** The KYC vendor's record in its envelope, or null for its "no record" (providers/kyc-envelope.ts). */
export const recordOf = kycRecordOf;

/**
 * The credit report: drawn in the report pool from the bureau record, with a verifiable id, and
 * registered as a report. A full queue or a failed drawing is a refusal of the search (refunded).
 */
async function drawCreditReport(
  deps: IntelDeps,
  user: UserRow,
  lookupId: string,
  caseReference: CaseReference,
  params: Record<string, string | boolean>,
  record: Record<string, unknown>,
  sandbox: boolean,
): Promise<{ ok: true; report: Report } | Extract<Answer<Found>, { ok: false }>> {
  const now = deps.now ?? (() => new Date());
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
      sandbox,
      caseReference: caseReference.value,
      legalBasis: legalBasisLineOf(caseReference),
      subject: {
        pan: String(params.pan ?? ''),
        name: String(params.name ?? ''),
        mobile: String(params.mobile ?? ''),
        gender: String(params.gender ?? ''),
      },
      record,
    });
  } catch (error) {
    // The queue filled up while the bureau answered: refunded, and the caller may try again.
    const busy = error instanceof ReportsBusyError ? error : undefined;
    return {
      ok: false as const,
      refund: busy ? 'Reports busy' : 'Report could not be drawn',
      sourceErrors: {},
      details: { reason: busy ? 'reports_busy' : 'render_failed' },
      error: (credits: number) =>
        busy
          ? reportsBusy(busy.retryAfterSeconds, { credits, lookup_id: lookupId })
          : renderFailed(credits, lookupId),
    };
  }
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const fileName = `credit-report-${safeFilePart(String(params.pan ?? 'pan'))}.pdf`;
  await deps.db.insert(reports).values({
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
  return { ok: true, report: { pdf, fileName, reportId, sha256 } };
}

/**
 * Corporate Intelligence and Identity Verification (spec §2.7, §2.8, §7): the checks of spec §5 again
 * on the server, live accounts only, a charge from configuration, one vendor call, and a refund when
 * the source has no record (422) or does not answer (502), through the paid search (searches/). Every
 * call leaves an audit row; every search that reached the source leaves a lookups row with its charge
 * and any refund in the ledger.
 */
export function createIntelService(deps: IntelDeps) {
  const { db, searches, runner } = deps;

  const costOf = (t: IntelType): number => deps.costs[intelKindOf(t)];

  return {
    /** Runs a held request (modules/approvals) once a supervisor approved it, as the user's search. */
    replayHeld(user: UserRow, client: ClientContext, input: unknown, auditDetails: Record<string, unknown>) {
      const { area, body } = input as { area: IntelArea; body: unknown };
      return this.search(user, area, body, client, { auditDetails });
    },

    /**
     * `options.holdable`: the user asks for it now, so a sensitive kind is held for a supervisor's
     * approval (modules/approvals); an approved request runs again here with `auditDetails`.
     */
    async search(
      user: UserRow,
      area: IntelArea,
      body: unknown,
      client: ClientContext,
      options: { holdable?: boolean; auditDetails?: Record<string, unknown> } = {},
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
      if (!usesLiveFeatures(user)) {
        await audit('denied', area, 0, null, { reason: 'trial_account' });
        throw liveOnly();
      }

      const parsed = parseIntelRequest(body);
      if (!parsed.ok) {
        await audit('failure', area, 0, null, { reason: 'invalid_request', message: parsed.message });
        throw invalidSearch(parsed.message, parsed.errors);
      }
      const { type, data, case_reference, legal_basis } = parsed.request;
      // Checked first; the case itself is looked up (or opened) only for a search that will run.
      const checkedReference = await searches.checkReference(case_reference);
      const t = findIntelType(area, type);
      if (!t) {
        const message = messages.intel.unknownType(type.slice(0, 60));
        await audit('failure', type.slice(0, 100), 0, checkedReference, {
          reason: 'unknown_type',
          message,
        });
        throw invalidSearch(message, { type: [message] });
      }
      const invalid = validateIntel(t, data);
      if (invalid) {
        await audit('failure', t.type, 0, checkedReference, {
          reason: 'invalid_fields',
          message: invalid,
        });
        throw invalidSearch(invalid, intelFieldErrors(t, data));
      }

      const params = normalizeIntelData(t, data);
      const kind = intelKindOf(t);
      const query = intelQueryText(t, params);
      const target = `${t.type}:${query}`;
      // No vendor for this search in this deployment: say so before anything is charged.
      if (!runner.available(kind)) throw kindUnavailable(t.label);
      // A credit report while the report queue is full: refused before anything is charged.
      const busy = t.returnsPdf ? deps.pool.busy() : undefined;
      if (busy) {
        await audit('failure', target, 0, checkedReference, { reason: 'reports_busy' });
        throw reportsBusy(busy.retryAfterSeconds);
      }
      const caseReference = await searches.caseReference(case_reference, user, legal_basis);

      const searched = await searches.run<Found>({
        user,
        client,
        kind,
        query,
        queryTyped: intelTypedText(t, data),
        cost: costOf(t),
        caseReference,
        action,
        target,
        reuse: 'never',
        ...(options.holdable ? { held: { family: 'intel' as const, input: { area, body } } } : {}),
        ...(options.auditDetails ? { auditDetails: options.auditDetails } : {}),
        async ask({ lookupId }) {
          const fanOut = await runner.run({ kind, value: query, params });
          const payload = fanOut.payloads[kind];
          const record = recordOf(payload);
          if (!record) {
            const noRecord = fanOut.answered.includes(kind);
            const errors = { ...fanOut.errors };
            if (noRecord && payload !== undefined && !errors[kind]) {
              errors[kind] = kycMessageOf(payload) || 'No record found.';
            }
            return {
              ok: false,
              // The source's "no record" is its own outcome (not a failure), refunded as before.
              noRecord,
              refund: noRecord ? 'No record found' : 'Source did not answer',
              sourceErrors: errors,
              details: { reason: noRecord ? 'no_record' : 'source_failed', error: errors[kind] ?? null },
              error: (credits) =>
                noRecord ? noRecordFound(credits, lookupId) : sourceFailed(credits, lookupId),
            };
          }
          const answer = (report?: Report) => ({
            ok: true as const,
            value: { record, sandbox: fanOut.sandbox, report },
            answered: [kind],
            errors: fanOut.errors,
            result: {
              payloads: { [kind]: payload },
              errors: fanOut.errors,
              ...(report ? { report_id: report.reportId } : {}),
            },
            sandbox: fanOut.sandbox,
            details: report ? { report_id: report.reportId } : {},
          });
          if (!t.returnsPdf) return answer();

          // The credit report: drawn in the report pool from the bureau record, with a verifiable id.
          const drawn = await drawCreditReport(
            deps,
            user,
            lookupId,
            caseReference,
            params,
            record,
            fanOut.sandbox,
          );
          if (!drawn.ok) return drawn;
          return answer(drawn.report);
        },
      });

      const { record, sandbox, report } = searched.value;
      const found = { record, lookupId: searched.lookupId, credits: searched.credits, sandbox };
      return report ? { ...found, format: 'pdf', ...report } : { ...found, format: 'json' };
    },
  };
}

export type IntelService = ReturnType<typeof createIntelService>;
