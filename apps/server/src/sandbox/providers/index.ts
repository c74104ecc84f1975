/**
 * The sandbox providers: deterministic synthetic answers for every lookup source, with
 * optional injected latency and failures for exercising the runner, the UI's partial answers and the
 * circuit breakers.
 *
 * Deterministic: the payload and the latency depend only on source and query. The only random part is
 * failure injection (`failureRate`, drawn from `random` or Math.random).
 */
import {
  EMAIL_SOURCES,
  type EmailSource,
  kindsOfSource,
  PHONE_SOURCES,
  type PhoneSource,
  SOURCE_KEYS,
} from '@footprint/domain';
import { type Provider, type ProviderQuery, SourceFailedError } from '../../providers/types.ts';
import { hashFraction } from '../random.ts';
import { KIND_ANSWERS } from './details.ts';
import { emailSourcePayload } from './email.ts';
import { intelPayload, isIntelSource } from './intel.ts';
import { phoneSourcePayload } from './phone.ts';
import { sitesPayload } from './username.ts';

export { isReservedDomain, RESERVED_DOMAINS } from '../words.ts';
export { DEMO, DEMO_IDENTITIES, type DemoIdentity, emailPersona, phonePersona } from './demo.ts';
export { challanDetails, rcDetails, upiDetails } from './details.ts';
export { emailSourcePayload } from './email.ts';
export { INTEL_DEMO, INTEL_DEMO_IDENTITIES, INTEL_SOURCES, intelPayload } from './intel.ts';
export { type Persona, personaFor } from './persona.ts';
export { phoneSourcePayload } from './phone.ts';
export { sitesPayload, USERNAME_DEMO } from './username.ts';

export type LatencyRange = readonly [min: number, max: number];
export type LatencyFn = (source: string) => LatencyRange;
export type FailureRateFn = (source: string) => number;

export interface SandboxOptions {
  /** Latency range in ms per source (default [0, 0]). The draw within the range is per query, stable. */
  latencyMs?: LatencyFn;
  /** Probability in [0, 1] that a fetch fails with SourceFailedError (default 0). */
  failureRate?: FailureRateFn;
  /** Source of randomness for failure injection (default Math.random). */
  random?: () => number;
}

/**
 * Sources with no synthetic stand-in: a vendor answers them or nobody does. The account search of a
 * username lookup (`pseudonymData`) is one: the sandbox's site check already pictures the accounts a
 * name has, and a synthetic vendor repeating them would only add a second, invented voice.
 */
const NOT_SANDBOXED: ReadonlySet<string> = new Set(['pseudonymData']);

/**
 * Every source key the sandbox answers: the source catalogue but the few a vendor alone answers
 * ('osintData' serves both tel and email queries; each corporate and verification source is named by
 * its query kind, e.g. 'corporate:corporate_gstin').
 */
export const SANDBOX_SOURCES: readonly string[] = SOURCE_KEYS.filter((source) => !NOT_SANDBOXED.has(source));

const isPhoneSource = (s: string): s is PhoneSource => (PHONE_SOURCES as readonly string[]).includes(s);
const isEmailSource = (s: string): s is EmailSource => (EMAIL_SOURCES as readonly string[]).includes(s);

/**
 * The deterministic sandbox payload for one source and query, without latency or failure injection.
 * Throws SourceNotFoundError where that is the source's not-found convention.
 */
export function sandboxPayload(source: string, query: ProviderQuery): unknown {
  switch (query.kind) {
    case 'tel':
      if (isPhoneSource(source)) return phoneSourcePayload(source, query.value);
      break;
    case 'email':
      if (isEmailSource(source)) return emailSourcePayload(source, query.value);
      break;
    case 'username':
      if (source === 'sitesData') return sitesPayload(query.value);
      break;
    default:
      if (source !== query.kind) break;
      if (isIntelSource(source)) return intelPayload(source, query.params ?? {});
      if (Object.hasOwn(KIND_ANSWERS, source))
        return KIND_ANSWERS[source as keyof typeof KIND_ANSWERS](query);
  }
  throw new SourceFailedError(`Sandbox source ${source} does not answer ${query.kind} queries`);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One provider per source: ids 'sandbox:<source>', `sandbox: true`. */
export function createSandboxProviders(options: SandboxOptions = {}): Provider[] {
  const latencyOf = options.latencyMs ?? (() => [0, 0] as const);
  const failureOf = options.failureRate ?? (() => 0);
  const random = options.random ?? Math.random;

  return SANDBOX_SOURCES.map((source) => ({
    id: `sandbox:${source}`,
    source,
    kinds: kindsOfSource(source),
    sandbox: true,
    async fetch(query: ProviderQuery, signal: AbortSignal): Promise<unknown> {
      const [min, max] = latencyOf(source);
      const delay = Math.round(min + (max - min) * hashFraction(`latency:${source}:${query.value}`));
      await wait(delay, signal);
      signal.throwIfAborted();
      const rate = failureOf(source);
      if (rate > 0 && random() < rate) throw new SourceFailedError('Sandbox failure injected');
      return sandboxPayload(source, query);
    },
  }));
}

// ---------- SANDBOX_LATENCY / SANDBOX_FAILURES ----------

export class SandboxSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxSpecError';
  }
}

/** Upper bound on an injected latency: anything longer is surely a typo. */
const MAX_LATENCY_MS = 120_000;

const NUMBER = /^\d+(?:\.\d+)?$/;

function parseEntries<T>(
  spec: string,
  label: string,
  parseValue: (raw: string, entry: string) => T,
): Map<string, T> {
  const out = new Map<string, T>();
  for (const rawEntry of spec.split(',')) {
    const entry = rawEntry.trim();
    if (!entry) continue;
    const eq = entry.indexOf('=');
    if (eq < 0)
      throw new SandboxSpecError(`${label}: entry "${entry}" has no '=' (expected <source>=<value>)`);
    const source = entry.slice(0, eq).trim();
    const raw = entry.slice(eq + 1).trim();
    if (source !== '*' && !SANDBOX_SOURCES.includes(source)) {
      throw new SandboxSpecError(
        `${label}: unknown source "${source}" in "${entry}"; expected '*' or one of ${SANDBOX_SOURCES.join(', ')}`,
      );
    }
    if (out.has(source)) throw new SandboxSpecError(`${label}: source "${source}" is given twice`);
    out.set(source, parseValue(raw, entry));
  }
  return out;
}

function parseLatency(raw: string, entry: string): LatencyRange {
  const label = 'Sandbox latency spec';
  const parts = raw.split('-').map((s) => s.trim());
  if (parts.length > 2 || parts.some((p) => !NUMBER.test(p))) {
    throw new SandboxSpecError(
      `${label}: "${entry}" is not <source>=<ms> or <source>=<min>-<max> (e.g. hlrData=100-800)`,
    );
  }
  const [min, max = min] = parts.map(Number) as [number, number?];
  if (min > max) throw new SandboxSpecError(`${label}: "${entry}" has its minimum above its maximum`);
  if (max > MAX_LATENCY_MS) throw new SandboxSpecError(`${label}: "${entry}" exceeds ${MAX_LATENCY_MS} ms`);
  return [min, max];
}

function parseRate(raw: string, entry: string): number {
  const label = 'Sandbox failure spec';
  if (!NUMBER.test(raw))
    throw new SandboxSpecError(`${label}: "${entry}" is not <source>=<probability> (e.g. hlrData=0.5)`);
  const rate = Number(raw);
  if (rate > 1) throw new SandboxSpecError(`${label}: "${entry}" is above 1 (a probability from 0 to 1)`);
  return rate;
}

/**
 * Parses an environment spec: a comma-separated list of `<source>=<value>`, where `*` is the default
 * for sources not named (and sources matching neither get [0, 0] / 0).
 *   kind 'latency': value `<min>-<max>` or `<ms>`, e.g. "hlrData=100-800,*=0-50"
 *   kind 'failure': value a probability in [0, 1], e.g. "hlrData=0.5,*=0"
 * Throws SandboxSpecError naming the bad entry.
 */
export function parseSandboxSpec(spec: string, kind: 'latency'): LatencyFn;
export function parseSandboxSpec(spec: string, kind: 'failure'): FailureRateFn;
export function parseSandboxSpec(spec: string, kind: 'latency' | 'failure'): LatencyFn | FailureRateFn;
export function parseSandboxSpec(spec: string, kind: 'latency' | 'failure'): LatencyFn | FailureRateFn {
  if (kind === 'latency') {
    const table = parseEntries(spec, 'Sandbox latency spec', parseLatency);
    const fallback = table.get('*') ?? ([0, 0] as const);
    return (source: string) => table.get(source) ?? fallback;
  }
  const table = parseEntries(spec, 'Sandbox failure spec', parseRate);
  const fallback = table.get('*') ?? 0;
  return (source: string) => table.get(source) ?? fallback;
}

/** parseSandboxSpec(spec, 'latency'). */
export const parseLatencySpec = (spec: string): LatencyFn => parseSandboxSpec(spec, 'latency');
/** parseSandboxSpec(spec, 'failure'). */
export const parseFailureSpec = (spec: string): FailureRateFn => parseSandboxSpec(spec, 'failure');
