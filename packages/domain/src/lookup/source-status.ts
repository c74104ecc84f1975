/**
 * What became of each source of one answer, in words: the results page's source panel and the lookup
 * PDF's 'Sources' section are both built here, so the two cannot say it differently. Answers stored
 * before `source_status` existed get statuses rebuilt from their payloads and errors.
 */
import type { ProviderKind } from '../catalogue/kinds.ts';
import {
  SOURCE_KEYS,
  SOURCE_LABELS,
  SOURCE_MODES,
  SOURCE_STATES,
  type SourceState,
  type SourceStatus,
  sourcesOfKind,
} from '../catalogue/sources.ts';
import { lookupTexts } from '../messages/lookup.ts';
import { isRecord } from '../records.ts';

const texts = lookupTexts.sources;

/** A state other than 'ok': the source gave no payload. */
export type MissingState = Exclude<SourceState, 'ok'>;

/** The words for a state ('Answered', 'Timed out'). */
export const sourceStateText = (state: SourceState): string => texts.states[state];

/**
 * The state of a source with its message, when the message says more than the state does:
 * 'Failed: Source temporarily unavailable.', but plain 'Timed out' for the standard timeout message.
 */
export function sourceStatusText(status: Pick<SourceStatus, 'status' | 'message'>): string {
  const state = sourceStateText(status.status);
  const message = status.message?.trim();
  if (!message || status.status === 'ok') return state;
  const standard: string | undefined = texts.stateMessages[status.status];
  return message === standard ? state : `${state}: ${message}`;
}

/** Who answers the source: 'Live: Have I Been Pwned', 'Sandbox (synthetic data)', 'No vendor configured'. */
export function sourceModeText(status: Pick<SourceStatus, 'mode' | 'vendor'>): string {
  const vendor = status.vendor?.trim();
  if (status.mode === 'live' && vendor) return texts.liveVendor(vendor);
  return texts.modes[status.mode];
}

/** The server's words for each failure: every failure it reports carries one of these. */
const FAILURE_MESSAGES = new Map<string, Exclude<MissingState, 'not_found' | 'not_configured'>>([
  [texts.stateMessages.failed, 'failed'],
  [texts.pausedMessage, 'failed'],
  [texts.stateMessages.timed_out, 'timed_out'],
  [texts.stateMessages.rate_limited, 'rate_limited'],
]);

/**
 * The state a stored error message stands for. The server words every failure with one of its
 * standard messages; any other message is the source's own answer that it has no record.
 */
export function stateOfMessage(message: string): Exclude<MissingState, 'not_configured'> {
  return FAILURE_MESSAGES.get(message.trim()) ?? 'not_found';
}

const isState = (value: unknown): value is SourceState =>
  (SOURCE_STATES as readonly unknown[]).includes(value);
const isMode = (value: unknown): value is SourceStatus['mode'] =>
  (SOURCE_MODES as readonly unknown[]).includes(value);

/**
 * An answer's `source_status` read defensively (navigation state and stored answers may come from
 * another build): malformed entries are dropped; `undefined` when there is no record of statuses.
 */
export function readSourceStatus(value: unknown): Record<string, SourceStatus> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, SourceStatus> = {};
  for (const [source, entry] of Object.entries(value)) {
    if (!isRecord(entry) || !isState(entry.status) || !isMode(entry.mode)) continue;
    out[source] = {
      status: entry.status,
      mode: entry.mode,
      ...(typeof entry.vendor === 'string' && entry.vendor ? { vendor: entry.vendor } : {}),
      ...(typeof entry.message === 'string' && entry.message ? { message: entry.message } : {}),
    };
  }
  return out;
}

/** What an answer stored before `source_status` existed still tells about its sources. */
export interface StoredAnswer {
  /** The answer's payloads, keyed by source (other keys are ignored). */
  payloads: Record<string, unknown>;
  /** Per source without a payload, its message. */
  errors: unknown;
  /** The old whole-answer flag: some source answered from the sandbox. */
  sandbox: boolean;
}

/**
 * Statuses rebuilt for an answer stored before they were kept: a payload is `ok`, an error the state its
 * message names (`stateOfMessage`), and a source with neither is left out. Which source was live is not
 * known: with the sandbox flag up every source counts as sandbox (the cautious reading), else as live.
 */
export function deriveSourceStatus(kind: ProviderKind, answer: StoredAnswer): Record<string, SourceStatus> {
  const mode = answer.sandbox ? 'sandbox' : 'live';
  const errors = isRecord(answer.errors) ? answer.errors : {};
  const out: Record<string, SourceStatus> = {};
  for (const source of sourcesOfKind(kind)) {
    const error = errors[source];
    if (Object.hasOwn(answer.payloads, source)) out[source] = { status: 'ok', mode };
    else if (typeof error === 'string')
      out[source] = { status: stateOfMessage(error), mode, ...(error.trim() ? { message: error } : {}) };
  }
  return out;
}

/** An answer's statuses, as recorded or rebuilt, and which of the two. */
export interface AnswerSourceStatus {
  status: Record<string, SourceStatus>;
  /** Rebuilt from an answer stored before statuses were kept (`deriveSourceStatus`). */
  derived: boolean;
}

/** The recorded statuses of an answer, or the ones rebuilt from its payloads and errors. */
export function sourceStatusOf(
  kind: ProviderKind,
  answer: StoredAnswer & { status?: unknown },
): AnswerSourceStatus {
  const recorded = readSourceStatus(answer.status);
  if (recorded) return { status: recorded, derived: false };
  return { status: deriveSourceStatus(kind, answer), derived: true };
}

/**
 * Whether an answer shows synthetic values: some sandbox source answered with a payload. Without
 * statuses (an old answer) the old whole-answer `sandbox` flag decides.
 */
export function showsSyntheticData(status: unknown, sandbox: unknown): boolean {
  const recorded = readSourceStatus(status);
  if (!recorded) return sandbox === true;
  return Object.values(recorded).some((entry) => entry.mode === 'sandbox' && entry.status === 'ok');
}

/** One line of the panel: a source, its state and who answers it, in words. */
export interface SourceLine {
  source: string;
  label: string;
  state: SourceState;
  /** 'Answered', 'Failed', ... */
  stateText: string;
  /** The state with its message when that says more (`sourceStatusText`). */
  statusText: string;
  /** The message beside the state, when it says more than the state does. */
  detail?: string;
  mode: SourceStatus['mode'];
  /** 'Live: vendor', 'Sandbox (synthetic data)', 'No vendor configured'. */
  modeText: string;
}

/** An answer's sources in words: each source's line, the counts and the one-line summary. */
export interface SourcePanel {
  lines: SourceLine[];
  total: number;
  /** Sources that answered with a payload. */
  answered: number;
  /** How many sources are in each state; states with none are absent. */
  counts: Partial<Record<SourceState, number>>;
  /** '9 of 11 sources answered · 2 not configured'. */
  summary: string;
  /** The statuses were rebuilt from an old answer: the page and the PDF say so. */
  derived: boolean;
}

/**
 * The order of the list: what went wrong first (an investigator must know the picture is partial),
 * then the sources that had no record, then those that answered.
 */
export const SOURCE_STATE_ORDER: readonly SourceState[] = [
  'failed',
  'timed_out',
  'rate_limited',
  'not_configured',
  'not_found',
  'ok',
];

const catalogueIndex = (source: string): number => {
  const index = SOURCE_KEYS.indexOf(source);
  return index === -1 ? SOURCE_KEYS.length : index;
};

/** The summary line: the answered count, then each other state's count in list order. */
export function sourceSummaryText(counts: Partial<Record<SourceState, number>>): string {
  const total = SOURCE_STATES.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
  const parts = SOURCE_STATE_ORDER.filter((state) => state !== 'ok' && (counts[state] ?? 0) > 0).map(
    (state) => texts.part(counts[state]!, sourceStateText(state)),
  );
  return [texts.answered(counts.ok ?? 0, total), ...parts].join(' · ');
}

/**
 * The panel of an answer's statuses. `labels` names the sources (the results page's short names by
 * default; the PDF passes the long ones); a key the catalogue does not know is shown as it is.
 */
export function sourcePanel(
  answer: AnswerSourceStatus,
  labels: Readonly<Record<string, string>> = SOURCE_LABELS,
): SourcePanel {
  const lines = Object.entries(answer.status)
    .map(([source, status]): SourceLine => {
      const statusText = sourceStatusText(status);
      const stateText = sourceStateText(status.status);
      return {
        source,
        label: labels[source] ?? source,
        state: status.status,
        stateText,
        statusText,
        ...(statusText === stateText ? {} : { detail: status.message!.trim() }),
        mode: status.mode,
        modeText: sourceModeText(status),
      };
    })
    .sort(
      (a, b) =>
        SOURCE_STATE_ORDER.indexOf(a.state) - SOURCE_STATE_ORDER.indexOf(b.state) ||
        catalogueIndex(a.source) - catalogueIndex(b.source) ||
        a.source.localeCompare(b.source),
    );
  const counts: Partial<Record<SourceState, number>> = {};
  for (const line of lines) counts[line.state] = (counts[line.state] ?? 0) + 1;
  return {
    lines,
    total: lines.length,
    answered: counts.ok ?? 0,
    counts,
    summary: sourceSummaryText(counts),
    derived: answer.derived,
  };
}
