/**
 * The case as CASE/UCO 1.4 JSON-LD (https://caseontology.org): the case is a CASE investigation;
 * each search an investigative action with its performer (the officer who ran it), its instruments
 * (Footprint and each source that answered), its object (the phone, e-mail or username asked about),
 * its results (the entities it found, the accounts a username check found, its stored result as an
 * artefact with its SHA-256 and a provenance record) and the authorization it ran under (the legal
 * basis its audit row records, else the case's); each captured web page is an investigative action
 * too, its files and signed manifest artefacts with their hashes under a provenance record; notes are
 * annotations; the case's audit rows are the
 * chain of custody, each an action with its performer and time. Node ids are deterministic
 * (kb:<kind>-<uuid>: Footprint's own UUIDs, else version 5 UUIDs of what they name), so two exports of
 * one case name the same things alike. Checked against the UCO and CASE SHACL shapes, and Footprint's
 * own (case-uco-shapes.ttl), in test/cases/export-case-uco.test.ts.
 */
import { createHash } from 'node:crypto';
import {
  CAPTURE_ARTEFACTS,
  type CaseDetail,
  declarationOf,
  type EntityType,
  isAccountSearchAnswer,
  isSiteCheckAnswer,
  isStoredLookupResult,
  legalBasisLine,
  normalizeEntity,
  searchLabel,
  siteIdOfName,
} from '@footprint/domain';
import {
  answeredSources,
  artefactRef,
  authorizationRef,
  type Basis,
  CaseUcoGraph,
  footprintTool,
  isUcoObject,
  personRef,
  relate,
  sourceTool,
} from './case-uco-parts.ts';
import { CASE_UCO_CONTEXT, dateTime, entityId, entityNodes, kbId, type Ref, ref } from './case-uco-terms.ts';
import type { CaseExportInput, CustodyEvent, ExportedCapture, ExportedSearch } from './input.ts';

/** The stored result's bytes as the evidence bundle writes them (results/*.json): their hash matches. */
export const storedResultBytes = (result: unknown): Buffer =>
  Buffer.from(`${JSON.stringify(result, null, 2)}\n`, 'utf8');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const SEARCH_STATUS: Record<string, string> = {
  pending: 'Pending',
  complete: 'Success',
  no_record: 'Complete/Finish',
  refunded: 'Fail',
};
const AUDIT_OUTCOME: Record<string, string> = {
  success: 'Success',
  no_record: 'Complete/Finish',
  failure: 'Fail',
  denied: 'Fail',
};

interface Drawing {
  graph: CaseUcoGraph;
  input: CaseExportInput;
  investigation: string;
  /** Footprint user id → the name the case shows. */
  names: Map<string, string>;
  caseBasis: Basis | null;
}

/** The entity the search asked about, when its kind asks about one (tel → phone, rc → vehicle_rc). */
function queriedEntity(item: CaseDetail['items'][number]): { type: string; value: string } | null {
  const own: Record<string, EntityType> = { tel: 'phone', email: 'email', username: 'username' };
  const type = own[item.kind] ?? (declarationOf(item.kind)?.pivot?.entities[0] as EntityType | undefined);
  const value = type ? normalizeEntity(type, item.query) : null;
  return type && value ? { type, value } : null;
}

/** One account on a site: an application account with its login, the site an application. */
function accountRef(d: Drawing, site: { id: string; name: string }, login: string, description: string): Ref {
  const key = `${site.id}:${login}`;
  const app = d.graph.add({
    '@id': kbId('application', site.id),
    '@type': 'uco-observable:Application',
    'uco-core:name': site.name,
  });
  const loginFacet = kbId('digital-account-facet', key);
  const onApp = kbId('application-account-facet', key);
  d.graph.add({
    '@id': loginFacet,
    '@type': 'uco-observable:DigitalAccountFacet',
    'uco-observable:accountLogin': login,
  });
  d.graph.add({
    '@id': onApp,
    '@type': 'uco-observable:ApplicationAccountFacet',
    'uco-observable:application': app,
  });
  return d.graph.add({
    '@id': kbId('application-account', key),
    '@type': 'uco-observable:ApplicationAccount',
    'uco-core:name': `${login} on ${site.name}`,
    'uco-core:description': description,
    'uco-core:hasFacet': [ref(loginFacet), ref(onApp)],
  });
}

/**
 * The accounts a username search found: each site the site check found the name on (with its page's
 * hash), then each account a vendor's account search reported (the vendor's word, no page of ours).
 */
function siteAccounts(d: Drawing, lookupId: string, query: string, result: unknown): Ref[] {
  const found: Ref[] = [];
  const payloads = isStoredLookupResult(result) ? result.payloads : {};
  const answer = payloads.sitesData;
  for (const site of isSiteCheckAnswer(answer) ? answer.sites.filter((line) => line.state === 'found') : []) {
    const username = (answer as { username: string }).username;
    found.push(accountRef(d, { id: site.site, name: site.name }, username, `Profile page ${site.url}`));
    const evidence = site.evidence;
    if (evidence && /^[0-9a-f]{64}$/i.test(evidence.sha256))
      found.push(
        artefactRef(
          d.graph,
          `site-page:${lookupId}:${site.site}`,
          {
            name: `Profile page of ${username} on ${site.name}, as received`,
            description: `${evidence.final_url}: HTTP ${evidence.status} at ${evidence.checked_at}; the hash covers the ${evidence.bytes} bytes read.`,
          },
          { sha256: evidence.sha256, bytes: evidence.bytes },
        ),
      );
  }
  const vendor = payloads.pseudonymData;
  for (const account of isAccountSearchAnswer(vendor) ? vendor.accounts : []) {
    const where = account.url ? `Profile ${account.url}` : 'No profile address given';
    found.push(
      accountRef(
        d,
        { id: siteIdOfName(account.site) || 'unknown', name: account.site },
        account.username ?? query,
        `${where}; reported by the account search vendor at ${account.found_at}.`,
      ),
    );
  }
  return found;
}

/** The legal basis a search ran under: the one its audit row records, else the case's. */
function basisOf(d: Drawing, audit: CustodyEvent | undefined): Basis | null {
  const details = audit?.details ?? {};
  if (typeof details.legal_basis === 'string' && typeof details.legal_basis_kind === 'string')
    return {
      kind: details.legal_basis_kind,
      line: details.legal_basis,
      fields: (details.legal_basis_fields as Record<string, unknown> | undefined) ?? undefined,
    };
  return d.caseBasis;
}

/** One search: its investigative action, what it asked about and found, its artefact and provenance. */
function drawSearch(d: Drawing, search: ExportedSearch, n: number): void {
  const { item, result, purged } = search;
  const { graph, input } = d;
  const id = kbId('investigative-action', item.lookup_id);
  const audit = input.custody.find((event) => event.details.lookup_id === item.lookup_id);
  const sources = answeredSources(item.kind, result, audit?.details.sources_answered, item.sandbox);
  const asked = queriedEntity(item);
  if (asked && !graph.has(entityId(asked.type, asked.value)))
    for (const node of entityNodes(asked.type, asked.value, 'Asked about by a search of the case.'))
      graph.add(node);
  const found = input.detail.entities
    .filter((entity) => entity.items.includes(item.lookup_id))
    .map((entity) => ref(entityId(entity.type, entity.value)));
  found.push(...siteAccounts(d, item.lookup_id, item.query, result));
  const results = [...found];
  if (result !== null) {
    const bytes = storedResultBytes(result);
    const label = searchLabel(item);
    const artefact = artefactRef(
      graph,
      `stored-result:${item.lookup_id}`,
      {
        name: `Stored result of the ${label}`,
        description:
          'The answer Footprint stored for this search, as JSON (two-space indent, final newline): the bytes of its results/ file in the case evidence bundle.',
        mimeType: 'application/json',
      },
      { sha256: sha256(bytes), bytes: bytes.length },
    );
    // The search's number in the case, as the evidence bundle numbers its files ('001-tel-…').
    const exhibit = `${input.detail.reference}-${String(n).padStart(3, '0')}`;
    const record = graph.add({
      '@id': kbId('provenance-record', item.lookup_id),
      '@type': 'case-investigation:ProvenanceRecord',
      'uco-core:name': `Exhibit ${exhibit}`,
      'uco-core:description': `What the ${label} returned, held by Footprint under case ${input.detail.reference}.`,
      'case-investigation:exhibitNumber': exhibit,
      'uco-core:object': [artefact, ...found],
    });
    results.push(artefact, record);
  }
  const argument = kbId('action-argument-facet', item.lookup_id);
  graph.add({
    '@id': argument,
    '@type': 'uco-action:ActionArgumentFacet',
    'uco-action:argumentName': 'query',
    'uco-action:value': item.query_typed || item.query,
  });
  graph.add({
    '@id': id,
    '@type': 'case-investigation:InvestigativeAction',
    'uco-core:name': searchLabel(item),
    'uco-core:description': `Footprint ${item.kind} search, ${item.status}${item.sandbox ? ', sandbox (synthetic data)' : ''}${purged ? '; its stored result was purged under the retention policy' : ''}.`,
    'uco-core:hasFacet': [ref(argument)],
    'uco-action:actionStatus': SEARCH_STATUS[item.status] ?? 'Unknown',
    'uco-action:startTime': dateTime(item.created_at),
    'uco-action:performer': personRef(graph, item.user, d.names),
    'uco-action:instrument': [footprintTool(graph), ...sources.map((source) => sourceTool(graph, source))],
    ...(asked ? { 'uco-action:object': [ref(entityId(asked.type, asked.value))] } : {}),
    ...(results.length ? { 'uco-action:result': results } : {}),
  });
  const basis = basisOf(d, audit);
  if (basis) relate(graph, id, authorizationRef(graph, basis)['@id'], 'Authorized_By');
}

/** The server's Chromium: the instrument of every capture. */
const browserTool = (graph: CaseUcoGraph): Ref =>
  graph.add({
    '@id': kbId('tool', 'footprint-capture-browser'),
    '@type': 'uco-tool:Tool',
    'uco-core:name': 'Footprint capture (Chromium)',
    'uco-tool:toolType': 'Web page capture',
  });

/**
 * One captured web page: an investigative action by whoever asked for it, with Footprint and its
 * browser as instruments, the address as its object, and each file as an artefact with its SHA-256
 * under one provenance record (the capture's exhibit); its manifest is an artefact too, since its
 * signature is what vouches for the rest. A removed capture still lists what it held, and says so.
 */
function drawCapture(d: Drawing, capture: ExportedCapture, n: number): void {
  const { graph, input } = d;
  const id = kbId('investigative-action', capture.id);
  const url = graph.add({
    '@id': kbId('url', capture.url),
    '@type': 'uco-observable:URL',
    'uco-core:name': capture.url,
    'uco-core:hasFacet': [
      graph.add({
        '@id': kbId('url-facet', capture.url),
        '@type': 'uco-observable:URLFacet',
        'uco-observable:fullValue': capture.url,
      }),
    ],
  });
  const exhibit = `${input.detail.reference}-C${String(n).padStart(3, '0')}`;
  const removed = capture.removal
    ? ` Its files were removed on ${capture.removal.at} by ${capture.removal.by.name || capture.removal.by.email}: ${capture.removal.reason}`
    : '';
  const artefacts = capture.files.map((file) =>
    artefactRef(
      graph,
      `capture:${capture.id}:${file.name}`,
      {
        name: `${file.name} of the capture of ${capture.url}`,
        description: `${CAPTURE_ARTEFACTS[file.name].label}, captured at ${capture.captured_at}.${removed}`,
        mimeType: file.media_type,
      },
      { sha256: file.sha256, bytes: file.bytes },
    ),
  );
  const manifest = artefactRef(
    graph,
    `capture:${capture.id}:manifest.json`,
    {
      name: `manifest.json of the capture of ${capture.url}`,
      description: "The capture's manifest, signed with the server's Ed25519 capture key (manifest.sig).",
      mimeType: 'application/json',
    },
    { sha256: capture.manifest_sha256!, bytes: capture.manifest_bytes },
  );
  const record = graph.add({
    '@id': kbId('provenance-record', capture.id),
    '@type': 'case-investigation:ProvenanceRecord',
    'uco-core:name': `Exhibit ${exhibit}`,
    'uco-core:description': `The page ${capture.final_url ?? capture.url} as captured under case ${input.detail.reference}.${removed}`,
    'case-investigation:exhibitNumber': exhibit,
    'uco-core:object': [manifest, ...artefacts],
  });
  graph.add({
    '@id': id,
    '@type': 'case-investigation:InvestigativeAction',
    'uco-core:name': `Capture of ${capture.url}`,
    'uco-core:description': `Web page captured: final address ${capture.final_url}, HTTP ${capture.http_status ?? 'none'}, "${capture.title ?? ''}".${removed}`,
    'uco-action:actionStatus': 'Success',
    'uco-action:startTime': dateTime(capture.requested_at),
    ...(capture.captured_at ? { 'uco-action:endTime': dateTime(capture.captured_at) } : {}),
    'uco-action:performer': personRef(graph, capture.requested_by, d.names),
    'uco-action:instrument': [footprintTool(graph), browserTool(graph)],
    'uco-action:object': [url],
    'uco-action:result': [manifest, ...artefacts, record],
  });
  if (d.caseBasis) relate(graph, id, authorizationRef(graph, d.caseBasis)['@id'], 'Authorized_By');
}

/** One audit row of the chain of custody: who did what to the case, when, and to which of its parts. */
function drawCustody(d: Drawing, event: CustodyEvent): void {
  const lookupId = event.details.lookup_id;
  const noteId = event.details.note_id;
  const captureId = event.details.capture_id;
  const objects = [ref(d.investigation)];
  if (typeof captureId === 'string' && d.graph.has(kbId('investigative-action', captureId)))
    objects.push(ref(kbId('investigative-action', captureId)));
  if (typeof lookupId === 'string' && d.graph.has(kbId('investigative-action', lookupId)))
    objects.push(ref(kbId('investigative-action', lookupId)));
  if (typeof noteId === 'string' && d.graph.has(kbId('annotation', noteId)))
    objects.push(ref(kbId('annotation', noteId)));
  d.graph.add({
    '@id': kbId('investigative-action', `audit:${event.id}`),
    '@type': 'case-investigation:InvestigativeAction',
    'uco-core:name': `Audit row ${event.id}: ${event.action}`,
    'uco-core:description': JSON.stringify({
      action: event.action,
      outcome: event.outcome,
      target: event.target,
      details: event.details,
    }),
    'uco-core:tag': ['chain of custody'],
    'uco-action:actionStatus': AUDIT_OUTCOME[event.outcome] ?? 'Unknown',
    'uco-action:startTime': dateTime(event.at),
    'uco-action:performer': personRef(d.graph, event.actor, d.names),
    'uco-action:object': objects,
  });
}

/** The people the case names, by id (owner, members, searchers, note authors, the exporter). */
function namesOf(input: CaseExportInput): Map<string, string> {
  const { detail } = input;
  const people = [
    detail.owner,
    ...detail.members,
    ...detail.items.map((item) => item.user),
    ...detail.notes.map((note) => note.author),
    ...input.captures.map((capture) => capture.requested_by),
    input.generated.by,
  ];
  return new Map(people.map((person) => [person.id, person.name || person.email]));
}

export function renderCaseUco(input: CaseExportInput): string {
  const { detail } = input;
  const graph = new CaseUcoGraph();
  const d: Drawing = {
    graph,
    input,
    investigation: kbId('investigation', detail.id),
    names: namesOf(input),
    caseBasis: detail.legal_basis
      ? {
          kind: detail.legal_basis.kind,
          line: legalBasisLine(detail.legal_basis),
          fields: detail.legal_basis.fields,
        }
      : null,
  };
  for (const entity of detail.entities) {
    const corroborated = entity.corroborated ? ' Corroborated (two sources or two searches).' : '';
    const said = `Given by: ${entity.sources.join(', ') || 'no named source'}.${corroborated}`;
    for (const node of entityNodes(entity.type, entity.value, said)) graph.add(node);
  }
  for (const note of detail.notes)
    graph.add({
      '@id': kbId('annotation', note.id),
      '@type': 'uco-core:Annotation',
      'uco-core:name': `Note by ${note.author.name || note.author.email}`,
      'uco-core:statement': note.body,
      'uco-core:object': [ref(d.investigation)],
      'uco-core:createdBy': personRef(graph, note.author, d.names),
      'uco-core:objectCreatedTime': dateTime(note.created_at),
    });
  for (const [index, search] of input.searches.entries()) drawSearch(d, search, index + 1);
  for (const [index, capture] of input.captures.entries()) drawCapture(d, capture, index + 1);
  for (const event of input.custody) drawCustody(d, event);
  if (d.caseBasis) authorizationRef(graph, d.caseBasis);
  const exporter = personRef(graph, input.generated.by, d.names);
  const members = graph.list().filter(isUcoObject);
  const authorizations = members.filter((node) => node['@type'] === 'case-investigation:Authorization');
  const investigation = {
    '@id': d.investigation,
    '@type': 'case-investigation:Investigation',
    'uco-core:name': detail.title,
    'uco-core:description': `Footprint case ${detail.reference}, exported by ${input.generated.by.name || input.generated.by.email} at ${input.generated.at} with ${input.generated.generator}.`,
    'case-investigation:investigationForm': 'case',
    'case-investigation:investigationStatus': detail.status,
    'case-investigation:focus': detail.legal_basis?.purpose || detail.title,
    'case-investigation:relevantAuthorization': authorizations.map((node) => ref(node['@id'])),
    'uco-core:startTime': dateTime(detail.created_at),
    'uco-core:createdBy': exporter,
    'uco-core:object': members.map((node) => ref(node['@id'])),
  };
  return `${JSON.stringify({ '@context': CASE_UCO_CONTEXT, '@graph': [investigation, ...graph.list()] }, null, 2)}\n`;
}
