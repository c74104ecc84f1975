/** Lawful next steps: what an investigator could do with the findings, most important first. */
import { EMAIL_SOURCES, PHONE_SOURCES, SOURCE_LONG_LABELS } from '../../catalogue/sources.ts';
import { IDENTITY_PROOF_LABELS } from '../profile-types.ts';
import { CORE_ATTRIBUTES } from './attributes.ts';
import { dict, MAX_LIST } from './read.ts';
import type { AnalysisAttribute, ExposureSummary, ProfileAnalysis } from './types.ts';

export const MAX_NEXT_STEPS = 10;

export class Steps {
  private readonly items: Array<{ priority: number; text: string; order: number }> = [];
  add(priority: number, step: string | undefined) {
    if (step) this.items.push({ priority, text: step, order: this.items.length });
  }
  /** At most MAX_NEXT_STEPS, most important first; never empty. */
  list(): string[] {
    this.add(
      99,
      this.items.length === 0
        ? 'Corroborate these findings with an independent source before relying on them'
        : undefined,
    );
    const seen = new Set<string>();
    return [...this.items]
      .sort((a, b) => a.priority - b.priority || a.order - b.order)
      .filter(({ text: t }) => {
        const key = t.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, MAX_NEXT_STEPS)
      .map(({ text: t }) => t);
  }
}

/** 'A', 'A and B', 'A, B and C', 'A, B, C and 2 more'. */
export function listOf(items: string[], max = 4): string {
  const shown = items.slice(0, max);
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const plural = (items: unknown[]) => (items.length === 1 ? '' : 's');

export const find = (attributes: AnalysisAttribute[], name: string) =>
  attributes.find((a) => a.attribute === name);

export function conflictSteps(steps: Steps, attributes: AnalysisAttribute[]) {
  for (const attribute of attributes) {
    if (attribute.status !== 'conflicting') continue;
    const [a, b] = attribute.values;
    if (!a || !b) continue;
    const between =
      listOf(a.sources) === listOf(b.sources)
        ? `within ${listOf(a.sources)} records`
        : `between ${listOf(a.sources, 2)} and ${listOf(b.sources, 2)} records`;
    const pair = `(${a.value} vs ${b.value})`;
    switch (attribute.attribute) {
      case 'Name':
        steps.add(
          1,
          `Names conflict ${between} ${pair}: confirm identity in person before attributing the data`,
        );
        break;
      case 'Date of birth':
        steps.add(1, `Dates of birth conflict ${between} ${pair}: check against an identity document`);
        break;
      case 'Gender':
        steps.add(
          1,
          `Gender conflicts ${between} ${pair}: confirm identity in person before relying on either`,
        );
        break;
      default:
        steps.add(
          1,
          `Two different ${attribute.attribute} values ${pair} were reported: verify both through an official channel`,
        );
    }
  }
}

export function identitySteps(steps: Steps, attributes: AnalysisAttribute[]) {
  const pan = find(attributes, IDENTITY_PROOF_LABELS.pan_number!);
  if (pan?.values[0])
    steps.add(3, `Verify PAN ${pan.values[0].value} through an official channel before relying on it`);
  const others = attributes
    .filter((a) => a.attribute !== IDENTITY_PROOF_LABELS.pan_number && !CORE_ATTRIBUTES.has(a.attribute))
    .map((a) => a.attribute);
  if (others.length > 0)
    steps.add(
      3,
      `Verify the ${pan ? 'other ' : ''}identity document${plural(others)} on record (${listOf(others, 6)}) through official channels`,
    );
}

export function commonSteps(steps: Steps, attributes: AnalysisAttribute[], exposure: ExposureSummary) {
  const bank = find(attributes, 'Bank account')?.values[0];
  if (bank)
    steps.add(
      4,
      `Request account-holder KYC and statements for bank account ${bank.value} from the bank under the applicable legal process`,
    );
  const upi = find(attributes, 'UPI')?.values.map((v) => v.value) ?? [];
  if (upi.length > 0)
    steps.add(5, `Look up the UPI details of ${listOf(upi, 3)} to confirm the account holder's name`);

  const name = find(attributes, 'Name');
  if (name?.status === 'single-source' && name.values[0])
    steps.add(
      6,
      `The name ${name.values[0].value} rests on ${listOf(name.values[0].sources)} alone: corroborate it before relying on it`,
    );

  const usernames = find(attributes, 'Usernames')?.values.map((v) => v.value) ?? [];
  if (usernames.length > 0)
    steps.add(
      7,
      `Search the username${plural(usernames)} ${listOf(usernames, 3)} in the Leak Data Finder and on public platforms`,
    );
  const profiles = exposure.publicProfiles.filter((p) => p.url).map((p) => p.platform);
  if (profiles.length > 0)
    steps.add(
      7,
      `Preserve the public profile${plural(profiles)} (${listOf(profiles, 4)}) with dated captures before ${profiles.length > 1 ? 'they change' : 'it changes'}`,
    );
}

const FAILURE = /did not answer|failed to answer|unavailable|timed? ?out|unreachable|error/i;

export function failedSources(errors: unknown, labels: Readonly<Record<string, string>>): string[] {
  const failed: string[] = [];
  for (const [source, message] of Object.entries(dict(errors) ?? {}).slice(0, MAX_LIST)) {
    // A source that answered "not found" has nothing to retry; an unknown key names no source.
    if ((typeof message === 'string' && !FAILURE.test(message)) || !Object.hasOwn(labels, source)) continue;
    const label = labels[source]!;
    if (!failed.includes(label)) failed.push(label);
  }
  return failed;
}

/** Readable names of a lookup's source keys, as a document names them (the catalogue's long labels). */
const sourceNamesOf = (keys: readonly string[]): Readonly<Record<string, string>> =>
  Object.fromEntries(keys.map((key) => [key, SOURCE_LONG_LABELS[key]!]));

/** Readable names of the phone lookup's source keys (the keys of PhoneLookupResponse and its `errors`). */
export const PHONE_SOURCE_LABELS = sourceNamesOf(PHONE_SOURCES);

/** Readable names of the e-mail lookup's source keys (the keys of EmailLookupData and its `errors`). */
export const EMAIL_SOURCE_LABELS = sourceNamesOf(EMAIL_SOURCES);

export const hasFindings = (analysis: Omit<ProfileAnalysis, 'nextSteps'>) =>
  analysis.attributes.length > 0 ||
  analysis.exposure.breaches > 0 ||
  analysis.exposure.registeredSites > 0 ||
  analysis.exposure.publicProfiles.length > 0;
