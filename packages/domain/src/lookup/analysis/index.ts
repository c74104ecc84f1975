/**
 * The analysis of a phone or e-mail lookup (docs/capabilities.md, 'Merged profile and analysis'): what
 * the answer says about its subject, weighed. Built on the merged profile (profile.ts), it folds each
 * attribute's values into merged values (equal after normalisation: normalize.ts), each with every
 * source that gave it, its confidence (confidence.ts) and provenance (provenance.ts); marks the
 * attribute corroborated, conflicting or single-source (cluster.ts); and adds an exposure summary, a
 * timeline and lawful next steps. The results page, the lookup PDF and the AI report all show this one
 * analysis. Pure, no I/O, deterministic: the same answer always gives the same analysis.
 *
 * Upstream answers are untrusted: every read tolerates missing or wrongly typed fields, lists and
 * strings are capped, and nothing here throws on junk input.
 */
import { mergeEmailProfile, mergePhoneProfile, phoneHighlights } from '../profile.ts';
import type { EmailLookupData, PhoneLookupResponse } from '../sources.ts';
import { profileAttributes } from './attributes.ts';
import { breachesOf, exposureOf, registeredSites } from './exposure.ts';
import { isoDay } from './normalize.ts';
import { at, list, parseHlr, text } from './read.ts';
import {
  commonSteps,
  conflictSteps,
  EMAIL_SOURCE_LABELS,
  failedSources,
  find,
  hasFindings,
  identitySteps,
  listOf,
  PHONE_SOURCE_LABELS,
  Steps,
} from './steps.ts';
import { educationEvents, sortTimeline } from './timeline.ts';
import type { AnswerMeta, ProfileAnalysis, TimelineEvent } from './types.ts';

export { CORE_ATTRIBUTES, isSingleValued } from './attributes.ts';
export { analyzeAttribute, MAX_VALUES_PER_ATTRIBUTE } from './cluster.ts';
export * from './confidence.ts';
export * from './counts.ts';
export * from './normalize.ts';
export { provenanceLines, provenanceName, provenanceOf, provenanceText } from './provenance.ts';
export { EMAIL_SOURCE_LABELS, MAX_NEXT_STEPS, PHONE_SOURCE_LABELS } from './steps.ts';
export * from './types.ts';

// ---------- phone ----------

export function analyzePhoneLookup(
  response: Partial<PhoneLookupResponse>,
  meta: AnswerMeta = { sourceStatus: at(response, 'source_status'), answeredAt: at(response, 'answered_at') },
): ProfileAnalysis {
  const profile = mergePhoneProfile(response, { origins: true });
  const highlights = phoneHighlights(response);
  const attributes = profileAttributes(profile, meta);
  const exposure = exposureOf(profile, [], 0);

  const hlr = parseHlr(at(response, 'hlrData'));
  const events: TimelineEvent[] = [];
  for (const address of list(at(response, 'sKData', 'data', 'details', 'address_info'))) {
    const date = isoDay(at(address, 'reported_date'));
    const line = text(at(address, 'address'));
    if (!date || !line) continue;
    const type = text(at(address, 'type'));
    events.push({ date, event: `Address reported${type ? ` (${type})` : ''}: ${line}`, source: 'Gov' });
  }
  const lastSeen = isoDay(at(hlr, 'timestamp'));
  const network = text(at(hlr, 'ported_network_name')) ?? text(at(hlr, 'original_network_name'));
  if (lastSeen)
    events.push({
      date: lastSeen,
      event: `Number last seen on the network${network ? ` (${network})` : ''}`,
      source: 'ISP Response',
    });
  const timeline = sortTimeline(events);

  const steps = new Steps();
  conflictSteps(steps, attributes);
  // The searched number is the one the network and WhatsApp answered for.
  const phones = find(attributes, 'Phone')?.values ?? [];
  const number =
    phones.find((v) => v.sources.includes('ISP Response') || v.sources.includes('WhatsApp'))?.value ??
    phones[0]?.value;
  const currentCarrier =
    profile.carriers.find((c) => c.key === 'Ported')?.value ??
    profile.carriers.find((c) => c.source === 'ISP Response')?.value ??
    find(attributes, 'Carrier')?.values[0]?.value;
  const invalid = text(at(hlr, 'connectivity_status'))?.toUpperCase() === 'INVALID';
  if (number && invalid)
    steps.add(2, `The network reports ${number} as invalid: confirm the number was recorded correctly`);
  else if (number && hasFindings({ attributes, exposure, timeline }))
    steps.add(
      2,
      `Request subscriber details (CAF) from ${currentCarrier ?? 'the serving operator'} for ${number} under the applicable legal process`,
    );
  identitySteps(steps, attributes);
  const vehicles = find(attributes, 'Vehicles')?.values.map((v) => v.value) ?? [];
  if (vehicles.length === 1)
    steps.add(4, `Review the vehicle registered to the number (RC details and challans): ${vehicles[0]}`);
  else if (vehicles.length > 1)
    steps.add(
      4,
      `Review the ${vehicles.length} vehicles registered to the number (RC details and challans): ${listOf(vehicles)}`,
    );
  const latestAddress = [...timeline].reverse().find((e) => e.event.startsWith('Address reported'));
  if (latestAddress)
    steps.add(
      5,
      `Confirm the most recently reported address through a field verification (${latestAddress.event.replace(/^Address reported(?: \([^)]*\))?: /, '')}, reported ${latestAddress.date})`,
    );
  if (highlights.markedAsSpam)
    steps.add(5, 'The number is marked as spam by caller-ID users: check complaint records filed against it');
  const emails = find(attributes, 'E-mail')?.values ?? [];
  if (emails[0])
    steps.add(
      6,
      `Run an e-mail lookup on ${emails[0].value}, linked to the number by ${listOf(emails[0].sources)}`,
    );
  commonSteps(steps, attributes, exposure);
  const failed = failedSources(at(response, 'errors'), PHONE_SOURCE_LABELS);
  if (failed.length > 0) steps.add(8, `No answer from ${listOf(failed, 6)}: retry the lookup later`);
  if (!hasFindings({ attributes, exposure, timeline }))
    steps.add(
      9,
      'Little was found for this number: retry later, or search other identifiers (e-mail, username) in the Leak Data Finder',
    );

  return { attributes, exposure, timeline, nextSteps: steps.list() };
}

// ---------- e-mail ----------

/** `meta`: the e-mail answer keeps `source_status` and `answered_at` beside `data`, not in it. */
export function analyzeEmailLookup(data: Partial<EmailLookupData>, meta: AnswerMeta = {}): ProfileAnalysis {
  const profile = mergeEmailProfile(data, { origins: true });
  const attributes = profileAttributes(profile, meta);
  const breaches = breachesOf(at(data, 'hibpData'));
  const exposure = exposureOf(profile, breaches, registeredSites(at(data, 'holeheData')));

  const emailData = at(data, 'emailData');
  const events: TimelineEvent[] = [];
  for (const breach of breaches)
    if (breach.date)
      events.push({ date: breach.date, event: `Appeared in breach ${breach.name}`, source: 'Breach Data' });
  events.push(...educationEvents(profile));
  const updated = isoDay(at(emailData, 'PROFILE_CONTAINER', 'profile', 'sourceIds', 'lastUpdated'));
  if (updated)
    events.push({
      date: updated,
      event: 'Account-provider profile last updated',
      source: 'Account Provider',
    });
  let reviews = 0;
  for (const review of list(at(emailData, 'maps_result', 'reviews'))) {
    const date = isoDay(at(review, 'published_at'));
    const place = text(at(review, 'place_name'));
    const address = text(at(review, 'address'));
    if (!date || !(place || address)) continue;
    reviews += 1;
    const where =
      place && address && !address.startsWith(place) ? `${place}, ${address}` : (address ?? place);
    events.push({ date, event: `Posted a map review: ${where}`, source: 'Account Provider' });
  }
  const timeline = sortTimeline(events);

  const steps = new Steps();
  conflictSteps(steps, attributes);
  const address =
    text(at(list(at(emailData, 'PROFILE_CONTAINER', 'profile', 'emails'))[0], 'value')) ??
    find(attributes, 'E-mail')?.values[0]?.value;
  const withPasswords = breaches
    .filter((b) => b.dataClasses.some((c) => /password/i.test(c)))
    .map((b) => b.name);
  if (withPasswords.length > 0)
    steps.add(
      2,
      `Check breach${withPasswords.length > 1 ? 'es' : ''} ${listOf(withPasswords)} exposed passwords: accounts on this address may have been taken over, so corroborate any activity before attributing it (never use leaked credentials)`,
    );
  if (address && hasFindings({ attributes, exposure, timeline }))
    steps.add(
      2,
      `Request subscriber details and access (IP) logs for ${address} from its e-mail provider under the applicable legal process`,
    );
  for (const breach of breaches.filter((b) => b.sensitive).slice(0, 2))
    steps.add(3, `Breach ${breach.name} is flagged sensitive: keep its details on a need-to-know basis`);
  const phone = find(attributes, 'Phone')?.values[0];
  if (phone)
    steps.add(3, `Run a phone lookup on ${phone.value}, linked to this address by ${listOf(phone.sources)}`);
  identitySteps(steps, attributes);
  const current = profile.experience.find((x) => x.company && x.endYear === undefined);
  if (current?.company)
    steps.add(4, `Confirm current employment at ${current.company} through an employment verification`);
  if (reviews > 0)
    steps.add(
      5,
      `Use the ${reviews} dated map review${reviews > 1 ? 's' : ''} to corroborate the subject's area of activity, not as proof of residence`,
    );
  commonSteps(steps, attributes, exposure);
  const failed = failedSources(at(data, 'errors'), EMAIL_SOURCE_LABELS);
  if (failed.length > 0) steps.add(8, `No answer from ${listOf(failed, 6)}: retry the lookup later`);
  if (!hasFindings({ attributes, exposure, timeline }))
    steps.add(
      9,
      'Little was found for this address: check it for typos, then retry later or search the Leak Data Finder by name or username',
    );

  return { attributes, exposure, timeline, nextSteps: steps.list() };
}
