/**
 * The shared nodes of the CASE/UCO export (case-uco.ts): the graph being drawn (each node once), the
 * people who acted, the tools (Footprint and each source that answered), the legal bases as
 * authorizations, the artefacts with their hashes, and UCO relationships for what the ontology has no
 * property for (who issued an authorization, which authorization a search ran under).
 */
import {
  isStoredLookupResult,
  LEGAL_BASIS_LABELS,
  type LegalBasisKind,
  type ProviderKind,
  sourceModeText,
  sourceName,
  sourceStatusOf,
} from '@footprint/domain';
import { dateTime, hexBinary, integer, kbId, type Node, type Ref, ref } from './case-uco-terms.ts';

/** The graph being drawn: each node once, in the order first added. */
export class CaseUcoGraph {
  private readonly nodes = new Map<string, Node>();

  add(node: Node): Ref {
    if (!this.nodes.has(node['@id'])) this.nodes.set(node['@id'], node);
    return ref(node['@id']);
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  list(): Node[] {
    return [...this.nodes.values()];
  }
}

/** Facets and hashes characterise an object; every other node is one (uco-core:UcoObject). */
export const isUcoObject = (node: Node): boolean =>
  ![node['@type']].flat().some((type) => type.endsWith('Facet') || type === 'uco-types:Hash');

/** A directed UCO relationship ('Issued_By', 'Authorized_By'): for links the ontology has no property for. */
export function relate(graph: CaseUcoGraph, source: string, target: string, kind: string): void {
  graph.add({
    '@id': kbId('relationship', `${kind}:${source}:${target}`),
    '@type': 'uco-core:Relationship',
    'uco-core:source': [ref(source)],
    'uco-core:target': ref(target),
    'uco-core:kindOfRelationship': kind,
    'uco-core:isDirectional': true,
  });
}

export interface Someone {
  id: string | null;
  name?: string | null;
  email: string | null;
}

/** Footprint itself: the instrument every search ran through, and the performer of its own acts. */
export const footprintTool = (graph: CaseUcoGraph): Ref =>
  graph.add({
    '@id': kbId('tool', 'footprint'),
    '@type': 'uco-tool:Tool',
    'uco-core:name': 'Footprint',
    'uco-tool:toolType': 'Investigative lookup platform',
  });

/** A Footprint user as a person (named as the case names them), or Footprint for a row no one acted in. */
export function personRef(graph: CaseUcoGraph, someone: Someone, names: Map<string, string>): Ref {
  const key = someone.id ?? (someone.email ? `email:${someone.email.toLowerCase()}` : null);
  if (!key) return footprintTool(graph);
  const name = (someone.id && names.get(someone.id)) || someone.name || someone.email || someone.id!;
  return graph.add({
    '@id': kbId('person', key),
    '@type': 'uco-identity:Person',
    'uco-core:name': name,
    ...(someone.email ? { 'uco-core:description': `Footprint user ${someone.email}` } : {}),
  });
}

interface AnsweredSource {
  key: string;
  name: string;
  /** Who answered it: 'Sandbox (synthetic data)', 'Live: <vendor>', 'Leak index (local)'. */
  mode: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The sources that answered a search: a lookup's sources in state ok (as recorded, or rebuilt from an
 * older answer), a leak search's origins in state ok, else what its audit row says answered.
 */
export function answeredSources(
  kind: string,
  result: unknown,
  audited: unknown,
  sandbox: boolean,
): AnsweredSource[] {
  if (isStoredLookupResult(result)) {
    const { status } = sourceStatusOf(kind as ProviderKind, { ...result, sandbox });
    return Object.entries(status)
      .filter(([, line]) => line.status === 'ok')
      .map(([key, line]) => ({ key, name: sourceName(key), mode: sourceModeText(line) }));
  }
  const origins = isRecord(result) ? result.origin_status : undefined;
  if (Array.isArray(origins))
    return origins
      .filter((origin) => isRecord(origin) && origin.status === 'ok' && typeof origin.name === 'string')
      .map((origin) => ({
        key: `leak:${origin.name}`,
        name: String(origin.name),
        mode: `Leak index (${String(origin.kind ?? 'local')})`,
      }));
  if (!Array.isArray(audited)) return [];
  return audited
    .filter((key): key is string => typeof key === 'string')
    .map((key) => ({ key, name: sourceName(key), mode: 'As its audit row records' }));
}

/** A source as the tool a search used (one per source and mode: sandbox and live answers differ). */
export const sourceTool = (graph: CaseUcoGraph, source: AnsweredSource): Ref =>
  graph.add({
    '@id': kbId('tool', `source:${source.key}:${source.mode}`),
    '@type': 'uco-tool:Tool',
    'uco-core:name': source.name,
    'uco-core:description': source.mode,
    'uco-tool:toolType': 'Lookup source',
  });

/** A legal basis as an audit row or the case states it. */
export interface Basis {
  kind: string;
  /** legalBasisLine: 'FIR 214/2026, Kothrud police station, BNS 308(2): tracing the caller'. */
  line: string;
  fields?: Record<string, unknown> | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The identifiers its kind's facts name: the FIR's number and year, a notice's reference, … */
function identifiersOf(basis: Basis): string[] {
  const f = basis.fields ?? {};
  const ids =
    basis.kind === 'fir'
      ? [f.fir_number !== undefined && f.year !== undefined ? `${f.fir_number}/${f.year}` : null]
      : basis.kind === 'ncrp_complaint'
        ? [text(f.acknowledgement_number)]
        : [text(f.reference), text(f.number)];
  return ids.filter((id): id is string => id !== null);
}

/** Who issued it (an FIR's police station, a notice's authority) or conducts it (an enquiry's officer). */
function issuerOf(graph: CaseUcoGraph, basis: Basis): { id: string; relation: string } | null {
  const f = basis.fields ?? {};
  const station = text(f.police_station);
  const authority = basis.kind === 'fir' && station ? `${station} police station` : text(f.authority);
  if (authority) {
    const org = graph.add({
      '@id': kbId('organization', `authority:${authority}`),
      '@type': 'uco-identity:Organization',
      'uco-core:name': authority,
    });
    return { id: org['@id'], relation: 'Issued_By' };
  }
  const officer = basis.kind === 'preliminary_enquiry' ? text(f.officer) : null;
  if (!officer) return null;
  const person = graph.add({
    '@id': kbId('person', `officer:${officer}`),
    '@type': 'uco-identity:Person',
    'uco-core:name': officer,
  });
  return { id: person['@id'], relation: 'Conducted_By' };
}

/** A legal basis as a CASE authorization: its kind, identifiers, date (a notice's) and issuer. */
export function authorizationRef(graph: CaseUcoGraph, basis: Basis): Ref {
  const id = kbId('authorization', basis.line);
  if (graph.has(id)) return ref(id);
  const label = LEGAL_BASIS_LABELS[basis.kind as LegalBasisKind] ?? basis.kind;
  const date = text(basis.fields?.date);
  const node = graph.add({
    '@id': id,
    '@type': 'case-investigation:Authorization',
    'uco-core:name': basis.line.split(': ')[0] ?? basis.line,
    'uco-core:description': basis.line,
    'case-investigation:authorizationType': label,
    'case-investigation:authorizationIdentifier': identifiersOf(basis),
    // A notice's date is a day in India: its start, in India's time.
    ...(date && /^\d{4}-\d{2}-\d{2}$/.test(date)
      ? { 'uco-core:startTime': dateTime(`${date}T00:00:00+05:30`) }
      : {}),
  });
  const issuer = issuerOf(graph, basis);
  if (issuer) relate(graph, id, issuer.id, issuer.relation);
  return node;
}

/** Bytes held as evidence (a stored result, a page as received): their size and SHA-256. */
export function artefactRef(
  graph: CaseUcoGraph,
  key: string,
  described: { name: string; description: string; mimeType?: string },
  digest: { sha256: string; bytes: number },
): Ref {
  const facet = kbId('content-data-facet', key);
  const hash = kbId('hash', key);
  graph.add({
    '@id': hash,
    '@type': 'uco-types:Hash',
    'uco-types:hashMethod': 'SHA256',
    'uco-types:hashValue': hexBinary(digest.sha256),
  });
  graph.add({
    '@id': facet,
    '@type': 'uco-observable:ContentDataFacet',
    'uco-observable:sizeInBytes': integer(digest.bytes),
    'uco-observable:hash': [ref(hash)],
    ...(described.mimeType ? { 'uco-observable:mimeType': described.mimeType } : {}),
  });
  return graph.add({
    '@id': kbId('content-data', key),
    '@type': 'uco-observable:ContentData',
    'uco-core:name': described.name,
    'uco-core:description': described.description,
    'uco-core:hasFacet': [ref(facet)],
  });
}
