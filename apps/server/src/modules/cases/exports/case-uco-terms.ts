/**
 * The pieces of the CASE/UCO 1.4 export (case-uco.ts): its JSON-LD context, typed literals, the
 * deterministic node ids, and the observables a case's entities become. Only classes and properties
 * the UCO 1.4.0 and CASE 1.4.0 ontologies define (data/standards/case-uco/).
 */
import { createHash } from 'node:crypto';
import { ENTITY_LABELS, type EntityType } from '@footprint/domain';

export const CASE_UCO_CONTEXT = {
  kb: 'urn:footprint:kb:',
  'case-investigation': 'https://ontology.caseontology.org/case/investigation/',
  'uco-action': 'https://ontology.unifiedcyberontology.org/uco/action/',
  'uco-core': 'https://ontology.unifiedcyberontology.org/uco/core/',
  'uco-identity': 'https://ontology.unifiedcyberontology.org/uco/identity/',
  'uco-location': 'https://ontology.unifiedcyberontology.org/uco/location/',
  'uco-observable': 'https://ontology.unifiedcyberontology.org/uco/observable/',
  'uco-tool': 'https://ontology.unifiedcyberontology.org/uco/tool/',
  'uco-types': 'https://ontology.unifiedcyberontology.org/uco/types/',
  'uco-vocabulary': 'https://ontology.unifiedcyberontology.org/uco/vocabulary/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
} as const;

export type Node = { '@id': string; '@type': string | string[] } & Record<string, unknown>;
export type Ref = { '@id': string };

export const ref = (id: string): Ref => ({ '@id': id });
export const dateTime = (iso: string) => ({ '@type': 'xsd:dateTime', '@value': new Date(iso).toISOString() });
export const integer = (n: number) => ({ '@type': 'xsd:integer', '@value': String(Math.trunc(n)) });
export const hexBinary = (hex: string) => ({ '@type': 'xsd:hexBinary', '@value': hex.toLowerCase() });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The namespace of Footprint's name-based (version 5) UUIDs. */
const NAMESPACE = Buffer.from('3f1d7c2a9b5e4f0c8a6d2e1b7c9f4a30', 'hex');

/** A version 5 UUID of `name`: the same name gives the same id in every export. */
export function nameUuid(name: string): string {
  const h = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A node's IRI in the deployment's namespace: 'kb:<kind>-<uuid>', ending with a UUID as UCO advises
 * (core:UcoThing-identifier-regex-shape). A Footprint id that is a UUID is used as it is (lookups,
 * cases, users, notes); anything else is named by a version 5 UUID of it.
 */
export const kbId = (kind: string, key: string): string =>
  `kb:${kind}-${UUID.test(key) ? key.toLowerCase() : nameUuid(`${kind}:${key}`)}`;

/** An entity's observable: its class and the facet that holds its value. */
interface EntityClass {
  type: string;
  slug: string;
  facet?: { type: string; property: string; extra?: Record<string, unknown> };
}

const OBSERVABLE = 'uco-observable:ObservableObject';
const ENTITY_CLASSES: Record<EntityType, EntityClass> = {
  phone: {
    type: 'uco-observable:PhoneAccount',
    slug: 'phone-account',
    facet: { type: 'uco-observable:PhoneAccountFacet', property: 'uco-observable:phoneNumber' },
  },
  email: {
    type: 'uco-observable:EmailAddress',
    slug: 'email-address',
    facet: { type: 'uco-observable:EmailAddressFacet', property: 'uco-observable:addressValue' },
  },
  username: {
    type: 'uco-observable:DigitalAccount',
    slug: 'digital-account',
    facet: { type: 'uco-observable:DigitalAccountFacet', property: 'uco-observable:accountLogin' },
  },
  upi: {
    type: 'uco-observable:DigitalAccount',
    slug: 'upi-account',
    facet: { type: 'uco-observable:AccountFacet', property: 'uco-observable:accountIdentifier' },
  },
  bank_account: {
    type: 'uco-observable:Account',
    slug: 'bank-account',
    facet: { type: 'uco-observable:AccountFacet', property: 'uco-observable:accountIdentifier' },
  },
  domain: {
    type: 'uco-observable:DomainName',
    slug: 'domain-name',
    facet: { type: 'uco-observable:DomainNameFacet', property: 'uco-observable:value' },
  },
  name: { type: 'uco-identity:Person', slug: 'named-person' },
  employer: { type: 'uco-identity:Organization', slug: 'organization' },
  address: { type: 'uco-location:Location', slug: 'location' },
  pan: { type: OBSERVABLE, slug: 'pan' },
  ifsc: { type: OBSERVABLE, slug: 'ifsc' },
  vehicle_rc: { type: OBSERVABLE, slug: 'vehicle-registration' },
};

export const entityId = (type: string, value: string): string =>
  kbId(ENTITY_CLASSES[type as EntityType]?.slug ?? 'observable', `${type}:${value}`);

/** An entity (a value a search found, or the value it asked about) as its UCO node and facet. */
export function entityNodes(type: string, value: string, description: string): Node[] {
  const known = ENTITY_CLASSES[type as EntityType];
  const id = entityId(type, value);
  const label = ENTITY_LABELS[type as EntityType] ?? type;
  const node: Node = {
    '@id': id,
    '@type': known?.type ?? OBSERVABLE,
    'uco-core:name': value,
    'uco-core:description': `${label}. ${description}`,
  };
  if (!known?.facet) return [node];
  const facetId = kbId(`${known.slug}-facet`, `${type}:${value}`);
  node['uco-core:hasFacet'] = [ref(facetId)];
  return [node, { '@id': facetId, '@type': known.facet.type, [known.facet.property]: value }];
}
