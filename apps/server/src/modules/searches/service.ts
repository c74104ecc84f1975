import { randomUUID } from 'node:crypto';
import { cleanTypedQuery, type SearchKind } from '@footprint/domain';
import { and, eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { lookups, type UserRow, users } from '../../db/schema.ts';
import { apiKeyCapReached, type DomainError, insufficientCredits } from '../../errors.ts';
import type { ClientContext } from '../../http/context.ts';
import { keySpendSince, monthStartOf } from '../api-keys/service.ts';
import { recordAudit, withApiKey } from '../audit/service.ts';
import { type Cases, caseAuditDetails, type FiledCase } from '../cases/service.ts';
import { refundPendingLookup } from '../credits/service.ts';
import { requireCaseReference } from '../settings/case-reference.ts';
import { type DeploymentDefaults, readDeploymentSettings } from '../settings/service.ts';
import { createChargeBatcher } from './charge-batcher.ts';
import { createForeground } from './foreground.ts';
import { findReusable, type Reusable, reuseWindowStart } from './reuse.ts';
import { createSettleWriter } from './settle.ts';

/** A case reference checked by `caseReference()`: the only way a search gets one. */
export interface CaseReference {
  /** The case's reference as the case spells it (or null: no case). */
  readonly value: string | null;
  /** The case the search files itself under. */
  readonly case: FiledCase | null;
  readonly checked: true;
}

/** What the source (or the kind's own store) answered, as the kind judges it. */
export type Answer<T> =
  | {
      ok: true;
      /** What the kind answers its caller. */
      value: T;
      /** Stored with the lookups row: sources that answered, their errors, the result history reopens. */
      answered: string[];
      errors: Record<string, string>;
      result: unknown;
      sandbox: boolean;
      /** The kind's own keys for the success row of the audit trail. */
      details?: Record<string, unknown>;
      /**
       * The sources answered and found nothing: the row is `no_record` and so is its audit row (a
       * neutral outcome, not a failure). Still charged: the sources did the work.
       */
      noRecord?: boolean;
    }
  | {
      ok: false;
      /** The ledger's reason for giving the charge back. */
      refund: string;
      /** Stored on the refunded lookups row. */
      sourceErrors?: Record<string, string>;
      /** The kind's own keys for the failure row of the audit trail (`reason` at least). */
      details: Record<string, unknown>;
      /** The refusal the caller gets, with the balance after the refund. */
      error: (credits: number) => DomainError;
      /**
       * The source answered that it holds no record (not a failure): the refunded row is `no_record`
       * and so is its audit row.
       */
      noRecord?: boolean;
    };

export interface AskContext {
  /** The search's lookups row (for a free repeat, the id it will get). */
  lookupId: string;
  /** The user's identical recent search when this one is a free repeat, else null. */
  reused: Reusable | null;
}

export interface PaidSearch<T> {
  user: UserRow;
  client: ClientContext;
  kind: SearchKind;
  /** The normalized query: stored in `lookups.query`, the key of the cache. */
  query: string;
  /**
   * The query as the user typed it (for intel, the filled fields), stored in `lookups.query_typed` and
   * the audit row's `query_typed`; cleaned here (control characters, length) whatever the kind sent.
   */
  queryTyped: string;
  cost: number;
  caseReference: CaseReference;
  /** The audit row's action and target; `lookup.<kind>` and the query unless the kind says otherwise. */
  action?: string;
  target?: string;
  /**
   * What the user's identical search within the cache window (capped by retention) gives: its stored
   * answer again without asking ('replay'), a free ask ('ask': the leak search pages its paid run),
   * or nothing ('never').
   */
  reuse: { replay: (hit: Reusable) => T } | 'ask' | 'never';
  /** Skip the reuse this once (the user asked for a fresh answer): ask and charge as a new search. */
  fresh?: boolean;
  /** The ledger's reason when the charge goes back because the ask threw. */
  failedReason?: string;
  /**
   * Keys added to every audit row of this search, naming what ran it when the user did not ask at
   * that moment (a watch run: `watch_id`).
   */
  auditDetails?: Record<string, unknown>;
  /**
   * The lookups row's id, chosen by the caller before the search (a bulk row stores it first), so that
   * a search retried after its process died finds its own charge instead of charging again: a pending
   * row of this id and user was charged and never answered, and is resumed (asked and settled) with no
   * new charge. Absent: a new id. A caller passing one must not run it twice at once (bulk's lease).
   */
  lookupId?: string;
  /**
   * The caller made `lookupId` just now for this search (a bulk row's first run), so no earlier run can
   * have charged under it: the search skips looking for a charge to resume.
   */
  lookupIdIsNew?: boolean;
  /**
   * Nobody is waiting for this search (a bulk row): it is not counted among the interactive searches
   * that background work gives way to (foreground.ts).
   */
  background?: boolean;
  ask: (context: AskContext) => Promise<Answer<T>>;
}

/** The paid search a free repeat reuses. */
export interface ReusedSearch {
  lookupId: string;
  caseReference: string | null;
}

export interface Searched<T> {
  value: T;
  lookupId: string;
  /** The balance after the search. */
  credits: number;
  cached: boolean;
  /**
   * When the answer was given: the moment the sources (or the kind's store) answered, which for a
   * replayed answer is the completion of the paid search it replays.
   */
  answeredAt: Date;
  /** The paid search a free repeat reuses; null for a charged search. */
  reusedFrom: ReusedSearch | null;
}

export interface SearchesDeps {
  db: Database;
  cacheHours: number;
  /** Defaults of the deployment settings (the retention period bounds the cache window). */
  settings: DeploymentDefaults;
  /** Where a search with a case reference is filed. */
  cases: Cases;
  now?: () => Date;
}

/**
 * The paid search, for every kind: case reference, cache, charge, ask, settle or refund, and audit.
 * A kind supplies its query, its price and how to ask; this module owns the money and the trail:
 *
 *   - an identical search by the same user within the cache window (never longer than retention) is
 *     served free, with its own cost-0 lookups row and its audit row, unless the search asks to be
 *     `fresh`; the answer says when its sources answered and which paid search it reuses;
 *   - otherwise the charge and the lookups row are written in one statement (group-committed with
 *     other searches' charges); a short balance is a 402 and a 'denied' row;
 *   - an answer completes the lookups row and writes its 'success' row in one statement (group
 *     committed too); a refusal or an error gives the charge back and writes a 'failure' row;
 *   - an answer that found nothing (`noRecord`) is neither: the row and its audit row are 'no_record'.
 *     It is charged like any answer, unless the kind refuses it (intel's "no record" is refunded);
 *   - the query as typed (`queryTyped`, cleaned here) is kept beside the normalized one, on the row
 *     and in every audit row's details (`query_typed`, `query`).
 */
export function createSearches(deps: SearchesDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const charge = createChargeBatcher(db);
  const foreground = createForeground();
  const write = createSettleWriter(db);

  async function balanceOf(userId: string): Promise<number> {
    const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return row?.credits ?? 0;
  }

  /** A charged, unanswered lookups row of this id and user: the charge a retried search resumes. */
  async function pendingCharge(id: string, userId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: lookups.id })
      .from(lookups)
      .where(and(eq(lookups.id, id), eq(lookups.userId, userId), eq(lookups.status, 'pending')));
    return row !== undefined;
  }

  async function reusable(search: PaidSearch<unknown>): Promise<Reusable | undefined> {
    if (search.fresh || search.reuse === 'never' || deps.cacheHours <= 0) return undefined;
    const { lookupRetentionDays } = await readDeploymentSettings(db, deps.settings);
    return findReusable(db, {
      userId: search.user.id,
      kind: search.kind,
      query: search.query,
      since: reuseWindowStart(now(), deps.cacheHours, lookupRetentionDays),
    });
  }

  const actionOf = (search: PaidSearch<unknown>) => search.action ?? `lookup.${search.kind}`;
  const targetOf = (search: PaidSearch<unknown>) => search.target ?? search.query;
  const typedOf = (search: PaidSearch<unknown>) => cleanTypedQuery(search.queryTyped, search.query);
  /**
   * Every audit row of a search names its query as typed and as matched, its case's legal basis, the
   * caller's own details (a watch run names its watch), and the API key it was made with (`api_key_id`, `api_key_name`), if any.
   */
  const queryDetails = (search: PaidSearch<unknown>) =>
    withApiKey(
      {
        query_typed: typedOf(search),
        query: search.query,
        ...caseAuditDetails(search.caseReference.case),
        ...search.auditDetails,
      },
      search.client.apiKey,
    );

  /**
   * A search with a capped API key is charged only if the key's spend this calendar month (UTC) plus
   * its price stays within the cap; otherwise a 402 and a 'denied' row, before any charge. A key's
   * capped searches take turns in this process (check, then charge), so concurrent calls of one key
   * cannot both pass the check; across server processes they can overshoot by the searches in flight.
   */
  const keyTurns = new Map<string, Promise<unknown>>();
  async function chargeWithinCap(search: PaidSearch<unknown>, charging: () => ReturnType<typeof charge>) {
    const key = search.client.apiKey;
    if (!key || key.monthlyCreditCap === null || search.cost === 0) return charging();
    const cap = key.monthlyCreditCap;
    const turn = async () => {
      const spent = await keySpendSince(db, key.id, monthStartOf(now()));
      if (spent + search.cost > cap) {
        await auditRefusal(db, search, 'denied', {
          reason: 'api_key_monthly_cap',
          monthly_credit_cap: cap,
          spent_this_month: spent,
          price: search.cost,
        });
        throw apiKeyCapReached(cap, spent, await balanceOf(search.user.id));
      }
      return charging();
    };
    const previous = keyTurns.get(key.id) ?? Promise.resolve();
    const mine = previous.catch(() => {}).then(turn);
    keyTurns.set(key.id, mine);
    try {
      return await mine;
    } finally {
      if (keyTurns.get(key.id) === mine) keyTurns.delete(key.id);
    }
  }
  /** Files a search under its case, if it has one. */
  const file = async (search: PaidSearch<unknown>, lookupId: string) => {
    const filed = search.caseReference.case;
    if (filed) await deps.cases.file(filed, lookupId, search.user);
  };

  /**
   * The audit row of a search that did not complete (a refusal, an error, a short balance), at no
   * cost. Completed searches get theirs from the settle writer, in the statement that completes them.
   */
  const auditRefusal = (
    executor: Executor,
    search: PaidSearch<unknown>,
    outcome: 'failure' | 'denied' | 'no_record',
    details: Record<string, unknown>,
  ) =>
    recordAudit(executor, {
      action: actionOf(search),
      outcome,
      user: search.user,
      client: search.client,
      target: targetOf(search),
      cost: 0,
      caseReference: search.caseReference.value,
      details: { ...queryDetails(search), ...details },
    });

  /**
   * Closes the charged row as refunded (or as no_record), gives the charge back and writes the failure
   * (or no_record) row; answers the balance.
   */
  async function refund(
    search: PaidSearch<unknown>,
    lookupId: string,
    reason: string,
    sourceErrors: Record<string, string> | undefined,
    details: Record<string, unknown>,
    noRecord = false,
  ): Promise<number> {
    const credits = await db.transaction(async (tx) => {
      const after = await refundPendingLookup(tx, {
        userId: search.user.id,
        lookupId,
        cost: search.cost,
        reason,
        at: now(),
        ...(noRecord ? { status: 'no_record' as const } : {}),
        ...(sourceErrors ? { set: { sourceErrors } } : {}),
      });
      await auditRefusal(tx, search, noRecord ? 'no_record' : 'failure', {
        lookup_id: lookupId,
        ...details,
        refunded: search.cost,
      });
      return after;
    });
    return credits ?? (await balanceOf(search.user.id));
  }

  /** An identical recent search: served free, on a new cost-0 row that points at the paid one. */
  async function repeat<T>(search: PaidSearch<T>, hit: Reusable): Promise<Searched<T>> {
    const lookupId = search.lookupId ?? randomUUID();
    const reusedFrom: ReusedSearch = { lookupId: hit.id, caseReference: hit.caseReference };
    const row = {
      mode: 'repeat' as const,
      id: lookupId,
      userId: search.user.id,
      kind: search.kind,
      query: search.query,
      queryTyped: typedOf(search),
      cacheOf: hit.id,
      ip: search.client.ip,
      deviceId: search.client.deviceId ?? null,
      caseReference: search.caseReference.value,
      at: now(),
      actorEmail: search.user.email,
      action: actionOf(search),
      target: targetOf(search),
    };
    if (typeof search.reuse === 'object') {
      const written = await write({
        ...row,
        noRecord: hit.status === 'no_record',
        answered: hit.answered,
        errors: hit.errors,
        sandbox: hit.sandbox,
        details: {
          ...queryDetails(search),
          cached: true,
          cache_of: hit.id,
          sandbox: hit.sandbox,
          sources_answered: hit.answered,
        },
      });
      return {
        value: search.reuse.replay(hit),
        lookupId,
        credits: creditsOf(written),
        cached: true,
        answeredAt: hit.answeredAt,
        reusedFrom,
      };
    }
    let answer: Answer<T>;
    try {
      answer = await search.ask({ lookupId, reused: hit });
    } catch (error) {
      await auditRefusal(db, search, 'failure', {
        cache_of: hit.id,
        reason: 'search_failed',
        refunded: 0,
      }).catch(() => {});
      throw error;
    }
    if (!answer.ok) {
      await auditRefusal(db, search, answer.noRecord ? 'no_record' : 'failure', {
        cache_of: hit.id,
        ...answer.details,
        refunded: 0,
      });
      throw answer.error(await balanceOf(search.user.id));
    }
    const answeredAt = now();
    const written = await write({
      ...row,
      at: answeredAt,
      noRecord: answer.noRecord === true,
      answered: answer.answered,
      errors: answer.errors,
      sandbox: answer.sandbox,
      details: {
        ...queryDetails(search),
        cached: true,
        cache_of: hit.id,
        sandbox: answer.sandbox,
        sources_answered: answer.answered,
        ...answer.details,
      },
    });
    return {
      value: answer.value,
      lookupId,
      credits: creditsOf(written),
      cached: true,
      answeredAt,
      reusedFrom,
    };
  }

  const creditsOf = (written: Awaited<ReturnType<typeof write>>): number => {
    if (!written.written || written.credits === null) throw new Error('a repeated search was not written');
    return written.credits;
  };

  /** One paid search of any kind; the kind's refusals come back as the errors its `ask` chose. */
  async function runSearch<T>(search: PaidSearch<T>): Promise<Searched<T>> {
    const resumed =
      search.lookupId && !search.lookupIdIsNew ? await pendingCharge(search.lookupId, search.user.id) : false;
    const hit = resumed ? undefined : await reusable(search);
    if (hit) {
      const repeated = await repeat(search, hit);
      await file(search, repeated.lookupId);
      return repeated;
    }

    const charged = resumed
      ? { lookupId: search.lookupId!, credits: await balanceOf(search.user.id) }
      : await chargeWithinCap(search, () =>
          charge({
            ...(search.lookupId ? { id: search.lookupId } : {}),
            userId: search.user.id,
            cost: search.cost,
            kind: search.kind,
            query: search.query,
            queryTyped: typedOf(search),
            ip: search.client.ip,
            deviceId: search.client.deviceId ?? null,
            caseReference: search.caseReference.value,
            apiKeyId: search.client.apiKey?.id ?? null,
            at: now(),
          }),
        );
    if (!charged) {
      const balance = await balanceOf(search.user.id);
      await auditRefusal(db, search, 'denied', {
        reason: 'insufficient_credits',
        balance,
        price: search.cost,
      });
      throw insufficientCredits(balance);
    }
    const { lookupId } = charged;

    let answer: Answer<T>;
    try {
      await file(search, lookupId);
      answer = await search.ask({ lookupId, reused: null });
    } catch (error) {
      // The search itself failed: give the charge back before reporting it.
      await refund(search, lookupId, search.failedReason ?? 'Search failed', undefined, {
        reason: 'search_failed',
      }).catch(() => {});
      throw error;
    }
    if (!answer.ok) {
      const credits = await refund(
        search,
        lookupId,
        answer.refund,
        answer.sourceErrors,
        answer.details,
        answer.noRecord === true,
      );
      throw answer.error(credits);
    }
    // A lookup the recovery sweep already refunded stays refunded (recovery.ts): nothing is written.
    // Its completion time is when its sources answered, the time its answer and reports state.
    const answeredAt = now();
    await write({
      mode: 'settle',
      id: lookupId,
      noRecord: answer.noRecord === true,
      answered: answer.answered,
      errors: answer.errors,
      result: answer.result,
      sandbox: answer.sandbox,
      at: answeredAt,
      actorEmail: search.user.email,
      action: actionOf(search),
      target: targetOf(search),
      details: {
        ...queryDetails(search),
        cached: false,
        sandbox: answer.sandbox,
        sources_answered: answer.answered,
        ...(search.fresh ? { fresh: true } : {}),
        ...answer.details,
      },
    });
    return {
      value: answer.value,
      lookupId,
      credits: charged.credits,
      cached: false,
      answeredAt,
      reusedFrom: null,
    };
  }

  return {
    /**
     * Checks a search's raw case reference (length, and presence when the deployment requires one)
     * and finds (or opens) the user's case of that reference, before anything is charged; a 422 (or a
     * 409 for a closed case) otherwise.
     */
    async caseReference(raw: unknown, user: UserRow): Promise<CaseReference> {
      const value = await requireCaseReference(db, raw);
      const { legalBasisRequired } = await readDeploymentSettings(db, deps.settings);
      const filed = await deps.cases.forSearch(user, value, { legalBasisRequired });
      return { value: filed?.reference ?? value, case: filed, checked: true };
    },

    /** The raw case reference checked (length, presence when required), no case looked up or opened. */
    checkReference(raw: unknown): Promise<string | null> {
      return requireCaseReference(db, raw);
    },

    /** The interactive searches in flight, which background work gives way to. */
    foreground,

    /** Runs one paid search of any kind; the kind's refusals come back as the errors its `ask` chose. */
    run<T>(search: PaidSearch<T>): Promise<Searched<T>> {
      return search.background ? runSearch(search) : foreground.track(() => runSearch(search));
    },
  };
}

export type Searches = ReturnType<typeof createSearches>;
