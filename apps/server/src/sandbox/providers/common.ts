/**
 * Shared pieces of the generators: the per-query context, the "does this source know this query?"
 * decision, the KYC vendor envelope, name variants and documentation-range IP addresses.
 */
import type { KycEnvelope } from '@footprint/domain';
import { SourceNotFoundError } from '../../providers/types.ts';
import { createRng, hashFraction, type Rng } from '../random.ts';
import { CALLER_ID_VARIANTS } from '../words.ts';
import type { DemoMode } from './demo.ts';
import type { Persona } from './persona.ts';

export interface GenContext {
  source: string;
  /** The normalized query value. */
  value: string;
  rng: Rng;
  persona: Persona;
  demo: DemoMode;
}

export function context(source: string, value: string, persona: Persona, demo: DemoMode): GenContext {
  return { source, value, rng: createRng(`${source}:${value}`), persona, demo };
}

/**
 * A source's "no record", to throw. Several sources of most lookups answer it and nobody reads its
 * stack, whose capture stood out in a CPU profile of the phone sources: it is made without one.
 */
export function noRecord(message?: string): SourceNotFoundError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new SourceNotFoundError(message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Sources that answer for the sparse demo phone. */
const SPARSE_ANSWERS = new Set(['hlrData', 'wpData']);

/**
 * Whether this source has nothing for the query. Outside the demos the chance is `base`, shifted by
 * the persona's footprint (a low-footprint persona is missing from more sources at once), and drawn
 * from a hash of source and query so it never depends on the rest of the generation.
 */
export function isNotFound(ctx: GenContext, base: number): boolean {
  switch (ctx.demo) {
    case 'rich':
      return false;
    case 'sparse':
      return !SPARSE_ANSWERS.has(ctx.source);
    case 'empty':
      return true;
    default: {
      const p = Math.min(0.9, Math.max(0.02, base + (0.5 - ctx.persona.footprint) * 0.3));
      return hashFraction(`not-found:${ctx.source}:${ctx.value}`) < p;
    }
  }
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A KYC vendor request id, e.g. 'prefill_by_mobile_kqxv…'. */
export function clientId(rng: Rng, prefix: string): string {
  return `${prefix}_${rng.letters(20, ALNUM)}`;
}

export function alnum(rng: Rng, count: number): string {
  return rng.letters(count, ALNUM);
}

/** A successful KYC vendor envelope. */
export function kycOk<T extends object>(rng: Rng, prefix: string, data: T): KycEnvelope<T> {
  return {
    data: { client_id: clientId(rng, prefix), ...data },
    status_code: 200,
    success: true,
    message: '',
    message_code: 'success',
  };
}

/** The KYC vendor's "no record" answer: HTTP 422 with a null `data`. */
export function kycNotFound<T>(): KycEnvelope<T> {
  return {
    data: null,
    status_code: 422,
    success: false,
    message: 'No records found',
    message_code: 'not_found',
  };
}

/** A plausible misspelling, as user-contributed directories carry them. */
export function misspell(rng: Rng, name: string): string {
  const rules: Array<[RegExp, string]> = [
    [/sh/i, 's'],
    [/u/, 'oo'],
    [/ee/, 'i'],
    [/v/, 'w'],
    [/a$/, 'aa'],
    [/kh/, 'k'],
    [/i/, 'ee'],
  ];
  for (const [pattern, replacement] of rng.shuffle(rules)) {
    if (pattern.test(name)) return name.replace(pattern, replacement);
  }
  return name;
}

/** A caller-id style contact name for the persona: nickname, reordered, suffixed or misspelt. */
export function callerIdName(rng: Rng, p: Persona): string {
  const template = rng.pick(CALLER_ID_VARIANTS);
  const name = template
    .replace('{f}', p.firstName)
    .replace('{l}', p.lastName)
    .replace('{L1}', p.lastName[0] ?? '')
    .replace('{F}', p.firstName.toUpperCase());
  return rng.chance(0.2) ? misspell(rng, name) : name;
}

/** An IPv4 address in the documentation ranges only (RFC 5737: 192.0.2.0/24, 198.51.100.0/24). */
export function documentationIp(rng: Rng): string {
  return `${rng.pick(['192.0.2', '198.51.100'])}.${rng.int(1, 254)}`;
}

/** '+91 98765 43210' style, '+919876543210' or bare '9876543210', as different sources print it. */
export function formatMobile(rng: Rng, national: string, dial = '91'): string {
  return rng.pick([`+${dial}${national}`, national, `+${dial} ${national.slice(0, 5)} ${national.slice(5)}`]);
}

export function titleCase(s: string): string {
  return s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}
