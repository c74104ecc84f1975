/**
 * The deterministic narrative writer: the AI report's prose when no LLM is configured or the LLM fails
 * (docs/capabilities.md, Reports). Plain English an investigator could read aloud, built only from the analysis and
 * the lookup's bookkeeping: every name, value, number and source it mentions is in its input, and
 * the same input always gives the same text.
 */
import {
  type AnalysisAttribute,
  type AnalysisValue,
  EMAIL_SOURCE_LABELS,
  PHONE_SOURCE_LABELS,
  type ProfileAnalysis,
} from '@footprint/domain';

export interface NarrativeInput {
  kind: 'tel' | 'email';
  /** The searched phone number or e-mail address. */
  query: string;
  analysis: ProfileAnalysis;
  /** How many sources answered the lookup (including those that answered "not found"). */
  sourcesAnswered: number;
  /** Sources that failed to answer: source keys ('tcData') or labels ('Caller ID'). */
  sourcesFailed: string[];
}

/** Confidence words, tied to the numbers the analysis computes (analysis.ts documents the formula). */
export function confidenceWord(confidence: number): 'high' | 'fair' | 'moderate' | 'low' {
  if (confidence >= 0.9) return 'high';
  if (confidence >= 0.75) return 'fair';
  if (confidence >= 0.5) return 'moderate';
  return 'low';
}

const MAX_LINE = 300;

/** Untrusted strings reach a PDF: no control or bidi characters, bounded length. */
function clean(value: unknown, max = MAX_LINE): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const s = String(value)
    .slice(0, max * 4)
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '0.00');

/** 'A', 'A and B', 'A, B and C', 'A, B, C and 2 more'. */
function listOf(items: string[], max = 4, more = 'more'): string {
  const shown = items.slice(0, max);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} ${more}`;
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const sourcesOf = (value: AnalysisValue) =>
  listOf(
    value.sources.map((s) => clean(s)),
    3,
    value.sources.length - 3 === 1 ? 'other source' : 'other sources',
  );

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const sentence = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

/** How an attribute is named inside a sentence. */
function attributeWord(attribute: string): string {
  switch (attribute) {
    case 'Phone':
      return 'phone number';
    case 'E-mail':
      return 'e-mail address';
    case 'Usernames':
      return 'username';
    case 'Address/Location':
      return 'address or location';
    case 'Date of birth':
      return 'date of birth';
    case 'Gender':
      return 'gender';
    case 'Occupation/Employer':
      return 'occupation';
    case 'Bank account':
      return 'bank account';
    case 'UPI':
      return 'UPI id';
    case 'Vehicles':
      return 'vehicle registration';
    case 'Carrier':
      return 'carrier';
    default:
      return clean(attribute, 60);
  }
}

function queryShown(kind: NarrativeInput['kind'], query: string): string {
  const q = clean(query, 200);
  return kind === 'tel' && /^\d{11,15}$/.test(q) ? `+${q}` : q || 'the query';
}

function failedNames(failed: string[]): string[] {
  const names = failed.map((key) => {
    if (Object.hasOwn(PHONE_SOURCE_LABELS, key)) return PHONE_SOURCE_LABELS[key]!;
    if (Object.hasOwn(EMAIL_SOURCE_LABELS, key)) return EMAIL_SOURCE_LABELS[key]!;
    return clean(key, 60);
  });
  return [...new Set(names.filter(Boolean))];
}

function overview(input: NarrativeInput, thing: string): string {
  const lookup = input.kind === 'tel' ? 'a phone-number lookup' : 'an e-mail address lookup';
  const answered = Math.max(0, Math.floor(Number(input.sourcesAnswered) || 0));
  const failed = failedNames(Array.isArray(input.sourcesFailed) ? input.sourcesFailed : []);
  let text = `This report covers ${lookup} for ${queryShown(input.kind, input.query)}. `;
  text +=
    answered === 0 ? 'No source answered the lookup' : `${plural(answered, 'source')} answered the lookup`;
  text +=
    failed.length > 0
      ? `; ${failed.length === 1 ? 'one' : failed.length} did not (${listOf(failed, 6)}), so the picture of this ${thing} may be incomplete.`
      : '.';
  return text;
}

function identity(name: AnalysisAttribute | undefined, thing: string): string {
  const [top, second] = name?.values ?? [];
  if (!name || !top) return `No source named the person behind this ${thing}.`;
  const who = clean(top.value);
  switch (name.status) {
    case 'corroborated': {
      let text = `The data suggests, with ${confidenceWord(top.confidence)} confidence (${fmt(top.confidence)}), that this ${thing} is associated with ${who}: ${sourcesOf(top)} agree on this name.`;
      if (second)
        text += ` A weaker alternative, ${clean(second.value)} (${sourcesOf(second)}, confidence ${fmt(second.confidence)}), also appears.`;
      return text;
    }
    case 'conflicting': {
      const rival = second
        ? ` and ${clean(second.value)} by ${sourcesOf(second)} (confidence ${fmt(second.confidence)})`
        : '';
      return `The sources disagree about who is behind this ${thing}. ${who} is named by ${sourcesOf(top)} (confidence ${fmt(top.confidence)})${rival}; until this is resolved, no single identity should be attributed to it.`;
    }
    default:
      return `Only ${sourcesOf(top)} names the person behind this ${thing}, as ${who} (${confidenceWord(top.confidence)} confidence, ${fmt(top.confidence)}); treat this as unconfirmed until another source agrees.`;
  }
}

function describeValue(attribute: AnalysisAttribute, value: AnalysisValue): string {
  return `${attributeWord(attribute.attribute)} ${clean(value.value)} (${fmt(value.confidence)})`;
}

function corroboration(attributes: AnalysisAttribute[]): string {
  const others = attributes.filter((a) => a.attribute !== 'Name');
  const parts: string[] = [];

  const corroborated = others.filter((a) => a.status === 'corroborated');
  if (corroborated.length > 0) {
    const items = corroborated.map((a) => {
      const extra = a.values.slice(1).filter((v) => v.sources.length >= 2).length;
      return `${describeValue(a, a.values[0]!)}${extra > 0 ? ` with ${plural(extra, 'further corroborated value')}` : ''}`;
    });
    parts.push(`Two or more sources agree on the ${listOf(items, 6, 'more attributes')}.`);
  }

  const conflicting = others.filter((a) => a.status === 'conflicting' && a.values.length >= 2);
  if (conflicting.length > 0) {
    const items = conflicting.map((a) => {
      const [x, y] = a.values as [AnalysisValue, AnalysisValue];
      return `${attributeWord(a.attribute)} (${clean(x.value)} from ${sourcesOf(x)}, against ${clean(y.value)} from ${sourcesOf(y)})`;
    });
    parts.push(
      `The sources conflict on the ${listOf(items, 4, 'more attributes')}; treat these with caution until they are resolved.`,
    );
  }

  const single = others.filter((a) => a.status === 'single-source');
  if (single.length > 0) {
    const items = single.map((a) => `${describeValue(a, a.values[0]!)} from ${sourcesOf(a.values[0]!)}`);
    parts.push(`Resting on a single source, and so unconfirmed: the ${listOf(items, 5, 'more attributes')}.`);
  }
  return parts.join(' ');
}

function exposure(input: NarrativeInput, thing: string): string {
  const { exposure: e } = input.analysis;
  const parts: string[] = [];
  if (e.breaches > 0) {
    const sensitive = e.sensitiveBreaches > 0 ? ` (${e.sensitiveBreaches} flagged sensitive)` : '';
    const names = e.breachNames.map((n) => clean(n, 80)).filter(Boolean);
    const named = names.length > 0 ? `, including ${listOf(names, 4)}` : '';
    parts.push(
      `The ${thing} appears in ${plural(e.breaches, 'known data breach', 'known data breaches')}${sensitive}${named}.`,
    );
    const classes = e.dataClasses.map((c) => clean(c, 60)).filter(Boolean);
    if (classes.length > 0) parts.push(`The exposed data includes ${listOf(classes, 8, 'other kinds')}.`);
  }
  if (e.registeredSites > 0)
    parts.push(`It is registered on ${plural(e.registeredSites, 'site')} checked by the lookup.`);
  const profiles = e.publicProfiles.map((p) => clean(p.platform, 60)).filter(Boolean);
  if (profiles.length > 0)
    parts.push(
      `${profiles.length === 1 ? 'A public profile was' : 'Public profiles were'} found on ${listOf(profiles, 6)}.`,
    );
  if (parts.length === 0)
    return input.kind === 'email'
      ? `No breach, site registration or public profile was found for this ${thing}.`
      : `No public profile linked to this ${thing} was found.`;
  return parts.join(' ');
}

function timeline(analysis: ProfileAnalysis): string | undefined {
  const events = analysis.timeline;
  if (events.length === 0) return undefined;
  const entry = (e: ProfileAnalysis['timeline'][number]) =>
    `"${clean(e.event)}" (${clean(e.date, 10)}, ${clean(e.source, 60)})`;
  if (events.length <= 3) return `Dated records: ${events.map(entry).join('; ')}.`;
  const first = events[0]!;
  const last = events[events.length - 1]!;
  return `The ${events.length} dated records run from ${clean(first.date, 10)} to ${clean(last.date, 10)}. The earliest reads ${entry(first)}; the most recent reads ${entry(last)}.`;
}

function nextSteps(analysis: ProfileAnalysis): string | undefined {
  const steps = analysis.nextSteps.map((s) => clean(s, 400).replace(/[.;]+$/, '')).filter(Boolean);
  if (steps.length === 0) return undefined;
  const shown = steps.slice(0, 5);
  const numbered = shown.map((s, i) => `(${i + 1}) ${s}`).join('; ');
  const rest = steps.length - shown.length;
  return `Suggested next steps, most important first: ${numbered}.${rest > 0 ? ` The full report lists ${plural(rest, 'further step')}.` : ''}`;
}

const CAVEAT =
  'These findings combine official, commercial and open sources of uneven reliability. The confidence figures reflect how many independent sources agree and how reliable they are; they are not proof, and each finding should be verified before it is relied on.';

/** 3–6 paragraphs separated by blank lines. Deterministic: the same input gives the same text. */
export function writeNarrative(input: NarrativeInput): string {
  const thing = input.kind === 'tel' ? 'number' : 'e-mail address';
  const { analysis } = input;
  const attributes = analysis.attributes;
  const e = analysis.exposure;
  const foundNothing =
    attributes.length === 0 && e.breaches === 0 && e.registeredSites === 0 && e.publicProfiles.length === 0;

  const paragraphs: Array<string | undefined> = [];
  if (foundNothing) {
    paragraphs.push(overview(input, thing));
    paragraphs.push(
      `Little was found. No source returned a name, contact detail, address or identity document for this ${thing}, and no breach, site registration or public profile was found, so this report makes no statement about who is behind it.`,
    );
    paragraphs.push(timeline(analysis));
    paragraphs.push(
      nextSteps(analysis) ??
        'Retry the lookup later, or search other identifiers, before drawing any conclusion.',
    );
  } else {
    const name = attributes.find((a) => a.attribute === 'Name');
    paragraphs.push(`${overview(input, thing)} ${identity(name, thing)}`);
    paragraphs.push(corroboration(attributes) || undefined);
    paragraphs.push(exposure(input, thing));
    paragraphs.push(timeline(analysis));
    paragraphs.push(nextSteps(analysis));
    paragraphs.push(CAVEAT);
  }
  return paragraphs
    .filter((p): p is string => Boolean(p))
    .map(sentence)
    .join('\n\n');
}
