/**
 * The case as a STIX 2.1 bundle (docs/capabilities.md, "Case exports: STIX 2.1"):
 * - the case is a `report` (an attributed, dated product: `published` is when it was exported), its
 *   `object_refs` everything else but the TLP marking;
 * - the deployment is an `identity` (class system) that creates the report, the extension and every
 *   relationship; each person the case names (owner, members, searchers, note authors, the exporter)
 *   an `identity` of class individual;
 * - each search is an `observed-data` by the person who ran it, observed when it ran, its
 *   `object_refs` the observables its result holds; Footprint's property extension adds the search
 *   (kind, query, status, lookup id) and, per observable, the sources that gave it;
 * - the observables (stix-observables.ts); an account found on a site `has-profile` its profile `url`
 *   (a relationship);
 * - each note of the case a `note` on the report, and the legal basis a note of its own;
 * - everything marked TLP:AMBER (the spec's TLP 1.0 marking definition).
 * Passwords and the stored results never enter it: only the entities read from them and the profile
 * addresses of the accounts found.
 */
import { type CasePerson, entitiesOf, LEGAL_BASIS_LABELS, legalBasisLine } from '@footprint/domain';
import type { CaseExportInput, ExportedCapture, ExportedSearch } from './input.ts';
import { footprintId, later, stixTime } from './stix-ids.ts';
import {
  entityObservable,
  FOOTPRINT_STIX_EXTENSION_ID,
  FOOTPRINT_STIX_EXTENSION_SCHEMA,
  foundAccounts,
  profileUrl,
  type StixObject,
} from './stix-observables.ts';

/** TLP:AMBER as STIX 2.1 §7.2.1.4 defines it (its id and created are fixed by the spec). */
export const TLP_AMBER = {
  type: 'marking-definition',
  spec_version: '2.1',
  id: 'marking-definition--f88d31f6-486f-44da-b317-01333bde0b82',
  created: '2017-01-20T00:00:00.000Z',
  definition_type: 'tlp',
  name: 'TLP:AMBER',
  definition: { tlp: 'amber' },
} as const;

/** When this mapping was defined: the created time of the objects that do not change per case. */
const MAPPING_DEFINED = '2026-12-05T00:00:00.000Z';
const PRODUCER_ID = footprintId('identity', 'producer');

/** Collects the bundle's objects once each, in the order first added. */
class Objects {
  readonly byId = new Map<string, StixObject>();
  add(object: StixObject): string {
    if (!this.byId.has(object.id)) this.byId.set(object.id, object);
    return object.id;
  }
}

const marked = { object_marking_refs: [TLP_AMBER.id] };

function extensionDefinition(): StixObject {
  return {
    type: 'extension-definition',
    spec_version: '2.1',
    id: FOOTPRINT_STIX_EXTENSION_ID,
    created_by_ref: PRODUCER_ID,
    created: MAPPING_DEFINED,
    modified: MAPPING_DEFINED,
    name: 'Footprint case observables',
    description:
      'Two new cyber-observable types for what STIX 2.1 has no object for: phone-number (value: the number in E.164, "+919876543210") and indian-identifier (identifier_type: pan, upi, ifsc, bank_account or vehicle_rc; value: as Footprint normalises it). Their ids are UUIDv5 of value (phone-number) and of identifier_type and value (indian-identifier), as for the spec\'s own observables. As a property extension of observed-data, it says which Footprint search observed the objects: lookup_id, search_kind, query, status, sandbox, and found (per object_ref, the sources that gave it).',
    schema: FOOTPRINT_STIX_EXTENSION_SCHEMA,
    version: '1.0.0',
    extension_types: ['new-sco', 'property-extension'],
  };
}

/** The people the case names, with what they did on it. */
function people(input: CaseExportInput): Map<string, { person: CasePerson; roles: Set<string> }> {
  const found = new Map<string, { person: CasePerson; roles: Set<string> }>();
  const add = (person: CasePerson, role: string) => {
    const entry = found.get(person.id) ?? { person, roles: new Set<string>() };
    entry.roles.add(role);
    found.set(person.id, entry);
  };
  const { detail } = input;
  add(detail.owner, 'case owner');
  for (const member of detail.members) add(member, 'case member');
  for (const item of detail.items) add(item.user, 'searcher');
  for (const note of detail.notes) add(note.author, 'note author');
  for (const capture of input.captures) add(capture.requested_by, 'page capturer');
  add(input.generated.by, 'exporter');
  return found;
}

const personId = (caseId: string, personId: string) =>
  footprintId('identity', `case:${caseId}:user:${personId}`);

function identities(input: CaseExportInput, into: Objects, modified: string): void {
  into.add({
    type: 'identity',
    spec_version: '2.1',
    id: PRODUCER_ID,
    created: MAPPING_DEFINED,
    modified: MAPPING_DEFINED,
    name: 'Footprint',
    description: 'The Footprint deployment that produced this bundle.',
    identity_class: 'system',
  });
  const created = stixTime(input.detail.created_at);
  for (const { person, roles } of people(input).values()) {
    into.add({
      type: 'identity',
      spec_version: '2.1',
      id: personId(input.detail.id, person.id),
      created_by_ref: PRODUCER_ID,
      created,
      modified: later(created, modified),
      name: person.name,
      identity_class: 'individual',
      roles: [...roles],
      contact_information: person.email,
      ...marked,
    });
  }
}

/** The sources each entity of one search's result came from, by type and value. */
function sourcesOf(search: ExportedSearch): Map<string, string[]> {
  const sources = new Map<string, string[]>();
  if (search.result === null) return sources;
  for (const entity of entitiesOf(search.item.kind, search.result))
    sources.set(`${entity.type}\u0000${entity.value}`, entity.sources);
  return sources;
}

/** A search as observed-data, with the observables its result holds; null when it holds none. */
function observation(input: CaseExportInput, search: ExportedSearch, into: Objects): string | null {
  const { item } = search;
  const found = new Map<string, string[]>();
  const sources = sourcesOf(search);
  for (const entity of input.detail.entities) {
    if (!entity.items.includes(item.lookup_id)) continue;
    const observable = entityObservable(entity);
    if (!observable) continue;
    found.set(
      into.add({ ...observable, ...marked }),
      sources.get(`${entity.type}\u0000${entity.value}`) ?? [],
    );
  }
  const at = stixTime(item.created_at);
  if (item.kind === 'username' && search.result !== null) {
    for (const { account, profile, source } of foundAccounts(search.result, item.query)) {
      const accountId = into.add({ ...account, ...marked });
      found.set(accountId, [...new Set([...(found.get(accountId) ?? []), source])]);
      if (!profile) continue;
      const profileId = into.add({ ...profile, ...marked });
      found.set(profileId, [...new Set([...(found.get(profileId) ?? []), source])]);
      into.add({
        type: 'relationship',
        spec_version: '2.1',
        id: footprintId('relationship', `${accountId}:has-profile:${profileId}`),
        created_by_ref: PRODUCER_ID,
        created: at,
        modified: at,
        relationship_type: 'has-profile',
        source_ref: accountId,
        target_ref: profileId,
        ...marked,
      });
    }
  }
  if (found.size === 0) return null;
  return into.add({
    type: 'observed-data',
    spec_version: '2.1',
    id: footprintId('observed-data', `lookup:${item.lookup_id}`),
    created_by_ref: personId(input.detail.id, item.user.id),
    created: at,
    modified: at,
    first_observed: at,
    last_observed: at,
    number_observed: 1,
    object_refs: [...found.keys()],
    extensions: {
      [FOOTPRINT_STIX_EXTENSION_ID]: {
        extension_type: 'property-extension',
        lookup_id: item.lookup_id,
        search_kind: item.kind,
        query: item.query_typed || item.query,
        status: item.status,
        sandbox: item.sandbox,
        found: [...found].map(([object_ref, by]) =>
          by.length > 0 ? { object_ref, sources: by } : { object_ref },
        ),
      },
    },
    ...marked,
  });
}

/**
 * A captured web page as observed-data by whoever asked for it, when the page was captured: the address
 * asked for and the one it ended at. (Its files, hashes and signed manifest are in the CASE/UCO export
 * and the evidence bundle.)
 */
function captureObservation(input: CaseExportInput, capture: ExportedCapture, into: Objects): void {
  const refs = [capture.url, capture.final_url]
    .map((address) => profileUrl(address))
    .flatMap((url) => (url ? [into.add({ ...url, ...marked })] : []));
  if (refs.length === 0 || !capture.captured_at) return;
  const at = stixTime(capture.captured_at);
  into.add({
    type: 'observed-data',
    spec_version: '2.1',
    id: footprintId('observed-data', `capture:${capture.id}`),
    created_by_ref: personId(input.detail.id, capture.requested_by.id),
    created: at,
    modified: at,
    first_observed: at,
    last_observed: at,
    number_observed: 1,
    object_refs: [...new Set(refs)],
    ...marked,
  });
}

function notes(input: CaseExportInput, into: Objects, reportId: string, modified: string): void {
  const { detail } = input;
  if (detail.legal_basis) {
    const created = stixTime(detail.created_at);
    into.add({
      type: 'note',
      spec_version: '2.1',
      id: footprintId('note', `case:${detail.id}:legal-basis`),
      created_by_ref: PRODUCER_ID,
      created,
      modified: later(created, modified),
      abstract: `Legal basis: ${LEGAL_BASIS_LABELS[detail.legal_basis.kind] ?? detail.legal_basis.kind}`,
      content: legalBasisLine(detail.legal_basis),
      object_refs: [reportId],
      ...marked,
    });
  }
  for (const note of detail.notes) {
    const at = stixTime(note.created_at);
    into.add({
      type: 'note',
      spec_version: '2.1',
      id: footprintId('note', `case-note:${note.id}`),
      created_by_ref: personId(detail.id, note.author.id),
      created: at,
      modified: at,
      authors: [note.author.name],
      content: note.body,
      object_refs: [reportId],
      ...marked,
    });
  }
}

/** The case as a STIX 2.1 bundle, as JSON. */
export function renderStix(input: CaseExportInput): string {
  const { detail } = input;
  const exported = stixTime(input.generated.at);
  const reportId = footprintId('report', `case:${detail.id}`);
  const into = new Objects();
  into.add(TLP_AMBER);
  into.add(extensionDefinition());
  identities(input, into, exported);
  let observed = 0;
  for (const search of input.searches) if (observation(input, search, into)) observed += 1;
  for (const capture of input.captures) captureObservation(input, capture, into);
  notes(input, into, reportId, exported);
  const created = stixTime(detail.created_at);
  const basis = detail.legal_basis ? legalBasisLine(detail.legal_basis) : 'none recorded';
  const report: StixObject = {
    type: 'report',
    spec_version: '2.1',
    id: reportId,
    created_by_ref: PRODUCER_ID,
    created,
    modified: later(created, exported),
    name: `${detail.reference}: ${detail.title}`,
    description: [
      `Footprint case ${detail.reference} (${detail.status}), owned by ${detail.owner.name}.`,
      `Legal basis: ${basis}.`,
      `Searches: ${detail.items.length} (${observed} with observables); captured pages: ${input.captures.length}; notes: ${detail.notes.length}.`,
      `Exported by ${input.generated.by.name} with ${input.generated.generator}.`,
    ].join('\n'),
    report_types: ['observed-data'],
    published: exported,
    object_refs: [...into.byId.keys()].filter((id) => id !== TLP_AMBER.id),
    external_references: [
      { source_name: 'footprint', external_id: detail.reference, description: detail.id },
    ],
    ...marked,
  };
  const bundle = {
    type: 'bundle',
    id: footprintId('bundle', `case:${detail.id}:${exported}`),
    objects: [...into.byId.values(), report],
  };
  return `${JSON.stringify(bundle, null, 2)}\n`;
}
