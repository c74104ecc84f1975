/**
 * What the report worker draws. A job carries everything the PDF shows, already read and merged on the
 * main thread (the worker does no I/O): structured-clone friendly plain data only.
 */
import type {
  AccountSearchAnswer,
  Breach,
  DetailKind,
  ExtraRecord,
  MergedProfile,
  PhoneHighlights,
  ProfileAnalysis,
  SiteCheckAnswer,
  SourceStatus,
} from '@footprint/domain';

/** The analysis behind the AI report, computed from the merged profile (@footprint/domain, lookup/analysis). */
export type { ProfileAnalysis };

export interface ReportAccount {
  name: string;
  email: string;
}

/** The paid lookup whose stored answer a free repeat reused: the report shows that answer. */
export interface ReportReuse {
  lookupId: string;
  /** ISO date-time when its sources answered. */
  answeredAt: string;
  caseReference: string | null;
}

interface ReportJobBase {
  reportId: string;
  lookupId: string;
  /** ISO date-time. */
  generatedAt: string;
  /** ISO date-time of the lookup (for a reuse, of the repeat). */
  searchedAt: string;
  /**
   * ISO date-time when the sources answered what the report shows: for a reuse, the time of the lookup
   * it replays. Absent: `searchedAt` (a search answered at once, as the credit report).
   */
  answeredAt?: string;
  /** Set when the lookup reused an earlier one's answer. */
  reusedFrom?: ReportReuse | null;
  account: ReportAccount;
  /** The legal basis of the lookup's case ('FIR 214/2026: ...'), printed on the cover; null: none. */
  legalBasis?: string | null;
  /** Whether a value shown came from a sandbox provider: every page then says so. */
  sandbox: boolean;
}

export interface LookupReportJob extends ReportJobBase {
  template: 'lookup';
  kind: 'tel' | 'email';
  /** The searched value as displayed, e.g. '+91 9876543210' or the address. */
  query: string;
  caseReference?: string | null;
  profile: MergedProfile;
  /**
   * The analysis of the answer: its merged values, each once with its sources and provenance (the
   * 'Merged profile' section). Absent from jobs made before it was printed.
   */
  analysis?: ProfileAnalysis;
  /** Phone lookups only. */
  highlights?: PhoneHighlights;
  breaches: Breach[];
  registeredSites: string[];
  /** From extraRecords(). */
  extraRecords: ExtraRecord[];
  /** Source key → what went wrong. */
  sourceErrors: Record<string, string>;
  /** Every source of the lookup: what became of it and who answers it (the 'Sources' section). */
  sourceStatus: Record<string, SourceStatus>;
  /** The statuses were rebuilt from a result stored before they were kept: the report says so. */
  sourceStatusDerived?: boolean;
}

export interface AiReportWriter {
  kind: 'llm' | 'deterministic';
  model?: string;
  note?: string;
}

export interface AiReportJob extends ReportJobBase {
  template: 'ai';
  kind: 'tel' | 'email';
  query: string;
  caseReference?: string | null;
  writer: AiReportWriter;
  /** Paragraphs separated by blank lines. */
  narrative: string;
  analysis: ProfileAnalysis;
}

export interface DetailReportJob extends ReportJobBase {
  template: 'detail';
  caseReference?: string | null;
  type: DetailKind;
  /** The RC number or UPI id. */
  id: string;
  /** The vendor's `data` object. */
  record: Record<string, unknown>;
}

/**
 * The report of a username lookup: the site check's answer as stored (the ids of the sites that said
 * no left out: only their count is printed), or why there is none.
 */
export interface UsernameReportJob extends ReportJobBase {
  template: 'username';
  caseReference?: string | null;
  /** The name as it was checked (no leading '@'). */
  query: string;
  answer: Omit<SiteCheckAnswer, 'not_found'> | null;
  /** What the site check's source said when it gave no answer (its error), else null. */
  failure: string | null;
  /**
   * A vendor's account search (`pseudonymData`), when it reported accounts: them, and the vendor they
   * are attributed to (its name, or the source's when the vendor is not recorded). Absent: none.
   */
  accountSearch?: { vendor: string; answer: AccountSearchAnswer } | null;
}

/** The credit report of Corporate Intelligence: the bureau record the vendor returned. */
export interface CreditReportJob extends ReportJobBase {
  template: 'credit';
  caseReference?: string | null;
  /** What the requester gave: PAN, name, mobile and gender. */
  subject: { pan: string; name: string; mobile: string; gender: string };
  /** The vendor's `data` object (credit_score, credit_report{...}). */
  record: Record<string, unknown>;
}

/** The summary PDF of a case's evidence bundle: the case as GET /api/cases/{id} answers it. */
export interface CaseSummaryJob {
  template: 'case';
  reportId: string;
  /** ISO date-time. */
  generatedAt: string;
  /** Who asked for the bundle. */
  account: ReportAccount;
  /** Whether a search of the case was answered by a sandbox source: every page then says so. */
  sandbox: boolean;
  case: {
    id: string;
    title: string;
    reference: string;
    status: string;
    /** legalBasisLine() of the case's legal basis, or null. */
    legalBasis: string | null;
    owner: { name: string; email: string };
    createdAt: string;
  };
  members: Array<{ name: string; email: string; addedAt: string }>;
  notes: Array<{ author: { name: string; email: string }; body: string; createdAt: string }>;
  searches: Array<{ lookupId: string; label: string; createdAt: string; status: string; kept: boolean }>;
  /** Entities grouped by type label ('Phone', 'E-mail'), in display order. */
  entities: Array<{
    type: string;
    items: Array<{ value: string; sources: string[]; searches: number; corroborated: boolean }>;
  }>;
  timeline: Array<{ at: string; label: string; source: string }>;
}

export type ReportJob =
  | LookupReportJob
  | AiReportJob
  | DetailReportJob
  | UsernameReportJob
  | CreditReportJob
  | CaseSummaryJob;
