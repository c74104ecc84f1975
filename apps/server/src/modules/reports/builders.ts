/**
 * The tasks the report threads are given, built on the request thread from a stored lookup: plain
 * data only (the worker gets no database handle).
 */
import {
  type AnswerSourceStatus,
  type DetailKind,
  isAccountSearchAnswer,
  isSiteCheckAnswer,
  type ProfileKind,
  SOURCE_LONG_LABELS,
  type SourceStatus,
  showsSyntheticData,
  sourceStatusOf,
} from '@footprint/domain';
import type { LookupReportSource } from './job.ts';
import type { ReportAccount, ReportJob, UsernameReportJob } from './render/types.ts';
import { answeredAtOf, type Found } from './stored.ts';

/** '+91 9876543210' for a stored '919876543210'; an e-mail as it is. */
export const displayQuery = (kind: ProfileKind, query: string) =>
  kind === 'tel' && query.length > 10 ? `+${query.slice(0, -10)} ${query.slice(-10)}` : query;

/** The statuses of a stored lookup's sources, as recorded or rebuilt from an old result. */
export const statusesOf = (kind: ProfileKind | DetailKind | 'username', found: Found) =>
  sourceStatusOf(kind, { ...found.result, sandbox: found.row.sandbox });

/** What the answer says about its sources, for the provenance of each merged value. */
export const metaOf = (found: Found, sources: AnswerSourceStatus) => ({
  sourceStatus: sources.status,
  answeredAt: answeredAtOf(found.original ?? found.row),
});

/**
 * What every report of a stored lookup starts with. It is marked sandbox only when some value it
 * shows is synthetic (a sandbox source answered with a payload), as the results page is. The time
 * its sources answered is the lookup's completion; for a reuse, the completion of the lookup whose
 * answer it replays, which is named with its case reference. The render time is only 'generated'.
 */
export function commonOf(
  account: ReportAccount,
  found: Found,
  sources: AnswerSourceStatus,
  generatedAt: Date,
  reportId: string,
) {
  const { row, original } = found;
  const answeredAt = answeredAtOf(original ?? row);
  return {
    reportId,
    lookupId: row.id,
    generatedAt: generatedAt.toISOString(),
    searchedAt: row.createdAt.toISOString(),
    answeredAt,
    reusedFrom: original
      ? { lookupId: original.id, answeredAt, caseReference: original.caseReference }
      : null,
    account: { name: account.name, email: account.email },
    caseReference: row.caseReference,
    legalBasis: found.legalBasis,
    sandbox: showsSyntheticData(sources.status, row.sandbox),
  };
}

/** The lookup report's task: the facts and the stored answer, which the worker merges (job.ts). */
export function lookupJob(
  account: ReportAccount,
  kind: ProfileKind,
  found: Found,
  generatedAt: Date,
  reportId: string,
): LookupReportSource {
  const sources = statusesOf(kind, found);
  return {
    template: 'lookup-source',
    ...commonOf(account, found, sources, generatedAt, reportId),
    kind,
    query: displayQuery(kind, found.row.query),
    result: { payloads: found.result.payloads, errors: found.result.errors },
    sourceErrors: found.result.errors,
    sourceStatus: sources.status,
    sourceStatusDerived: sources.derived,
  };
}

/** A detail kind's report job: the vendor's record of the stored answer. */
export function detailJob(
  account: ReportAccount,
  type: DetailKind,
  id: string,
  found: Found,
  generatedAt: Date,
  reportId: string,
): ReportJob {
  const envelope = found.result.payloads[type] as { data?: unknown } | undefined;
  const record =
    envelope && typeof envelope.data === 'object' && envelope.data !== null
      ? (envelope.data as Record<string, unknown>)
      : {};
  return {
    template: 'detail',
    ...commonOf(account, found, statusesOf(type, found), generatedAt, reportId),
    type,
    id,
    record,
  };
}

/** The site check's source key in a username lookup's stored result. */
const SITE_CHECK_SOURCE = 'sitesData';

/**
 * A username report's job: the site check's stored answer, less the ids of the sites that said no (the
 * report prints only their count), or the source's error when it gave no answer.
 */
export function usernameJob(
  account: ReportAccount,
  found: Found,
  generatedAt: Date,
  reportId: string,
): ReportJob {
  const payload = found.result.payloads[SITE_CHECK_SOURCE];
  const sources = statusesOf('username', found);
  const common = commonOf(account, found, sources, generatedAt, reportId);
  const accountSearch = accountSearchOf(found, sources.status);
  if (!isSiteCheckAnswer(payload)) {
    const failure = found.result.errors[SITE_CHECK_SOURCE] ?? null;
    return { template: 'username', ...common, query: found.row.query, answer: null, failure, accountSearch };
  }
  const { not_found: _saidNo, ...answer } = payload;
  return { template: 'username', ...common, query: found.row.query, answer, failure: null, accountSearch };
}

/** The vendor's account search's source key in a username lookup's stored result. */
const ACCOUNT_SEARCH_SOURCE = 'pseudonymData';

/** The accounts a vendor's account search reported, attributed to the vendor; null when none. */
function accountSearchOf(
  found: Found,
  status: Readonly<Record<string, SourceStatus>>,
): UsernameReportJob['accountSearch'] {
  const payload = found.result.payloads[ACCOUNT_SEARCH_SOURCE];
  if (!isAccountSearchAnswer(payload) || payload.accounts.length === 0) return null;
  const vendor =
    status[ACCOUNT_SEARCH_SOURCE]?.vendor ?? SOURCE_LONG_LABELS[ACCOUNT_SEARCH_SOURCE] ?? 'Account search';
  return { vendor, answer: payload };
}
