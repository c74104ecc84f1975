/**
 * The cyber-observables of a case's STIX export (stix.ts): each entity of the case as the STIX 2.1
 * object that says it, and the accounts a username search found with their profile addresses.
 *
 * - e-mail: `email-addr`; domain: `domain-name`; username: `user-account` (`user_id`);
 * - an account a username search found on a site: `user-account` (`user_id`, `account_type` the site's
 *   catalogue id), and its profile address a `url`;
 * - phone: `phone-number` and the Indian identifiers (PAN, UPI id, IFSC, bank account, vehicle RC):
 *   `indian-identifier`, two new SCO types of Footprint's extension (FOOTPRINT_STIX_EXTENSION);
 * - names, addresses and employers are not observables in STIX: they stay out of the bundle.
 */
import { type CaseEntity, isAccountSearchAnswer, isRecord } from '@footprint/domain';
import { siteCheckOf } from '../../history/export-username.ts';
import { scoId } from './stix-ids.ts';

/** Footprint's STIX extension: the two new SCO types and the properties it adds to observed-data. */
export const FOOTPRINT_STIX_EXTENSION_ID = 'extension-definition--75daa375-3e23-457d-9bf7-9fab2814e094';

/** The identifier types of an `indian-identifier`, by the case entity type that holds them. */
export const INDIAN_IDENTIFIER_TYPES = {
  pan: 'pan',
  upi: 'upi',
  ifsc: 'ifsc',
  bank_account: 'bank_account',
  vehicle_rc: 'vehicle_rc',
} as const satisfies Record<string, string>;

/** The id-contributing properties of the extension's new SCO types (as the spec lists them for its own). */
export const FOOTPRINT_SCO_ID_PROPERTIES = {
  'phone-number': ['value'],
  'indian-identifier': ['identifier_type', 'value'],
} as const;

/**
 * The extension's normative definition (its extension-definition's `schema`, as text): a JSON schema
 * (2020-12) of each new SCO type and of the property extension of observed-data. The spec's common
 * properties (spec_version, object_marking_refs, …) are the cyber-observable core's, not repeated here.
 */
export const FOOTPRINT_STIX_EXTENSION_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Footprint case observables 1.0.0',
  $defs: {
    'phone-number': {
      type: 'object',
      properties: {
        type: { const: 'phone-number' },
        id: { type: 'string', pattern: '^phone-number--' },
        value: { type: 'string', pattern: '^\\+[0-9]{8,15}$', description: 'The number in E.164.' },
        extensions: { type: 'object', required: [FOOTPRINT_STIX_EXTENSION_ID] },
      },
      required: ['type', 'id', 'value', 'extensions'],
    },
    'indian-identifier': {
      type: 'object',
      properties: {
        type: { const: 'indian-identifier' },
        id: { type: 'string', pattern: '^indian-identifier--' },
        identifier_type: { enum: Object.values(INDIAN_IDENTIFIER_TYPES) },
        value: {
          type: 'string',
          minLength: 1,
          description: 'As Footprint normalises it (PAN, IFSC, RC upper case).',
        },
        extensions: { type: 'object', required: [FOOTPRINT_STIX_EXTENSION_ID] },
      },
      required: ['type', 'id', 'identifier_type', 'value', 'extensions'],
    },
    'observed-data-extension': {
      type: 'object',
      properties: {
        extension_type: { const: 'property-extension' },
        lookup_id: { type: 'string', format: 'uuid', description: "The search's id in Footprint." },
        search_kind: {
          type: 'string',
          description: "The search's kind ('tel', 'email', 'username', 'leak', …).",
        },
        query: { type: 'string', description: 'What was searched, as typed.' },
        status: { type: 'string' },
        sandbox: { type: 'boolean', description: "Answered by Footprint's sandbox (synthetic data)." },
        found: {
          type: 'array',
          description: 'Per observable of object_refs, the sources of the search that gave it.',
          items: {
            type: 'object',
            properties: {
              object_ref: { type: 'string' },
              sources: { type: 'array', items: { type: 'string' }, minItems: 1 },
            },
            required: ['object_ref'],
            additionalProperties: false,
          },
        },
      },
      required: ['extension_type', 'lookup_id', 'search_kind', 'found'],
      additionalProperties: false,
    },
  },
} as const;

export const FOOTPRINT_STIX_EXTENSION_SCHEMA = JSON.stringify(FOOTPRINT_STIX_EXTENSION_JSON_SCHEMA);

export type StixObject = Record<string, unknown> & { type: string; id: string };

const sco = (
  type: string,
  contributing: Record<string, string | undefined>,
  rest: Record<string, unknown> = {},
) => {
  const properties = Object.fromEntries(Object.entries(contributing).filter(([, v]) => v !== undefined));
  return { type, spec_version: '2.1', id: scoId(type, properties), ...properties, ...rest } as StixObject;
};

const newSco = (type: keyof typeof FOOTPRINT_SCO_ID_PROPERTIES, contributing: Record<string, string>) =>
  sco(type, contributing, { extensions: { [FOOTPRINT_STIX_EXTENSION_ID]: { extension_type: 'new-sco' } } });

/** An address STIX's email-addr takes: a local part and a domain of dotted labels, no spaces. */
const PLAIN_EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
const PLAIN_DOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** The observable a case entity is, or null for a name, an address or an employer. */
export function entityObservable(entity: Pick<CaseEntity, 'type' | 'value'>): StixObject | null {
  const { type, value } = entity;
  switch (type) {
    case 'email':
      return PLAIN_EMAIL.test(value) ? sco('email-addr', { value }) : null;
    case 'domain':
      return PLAIN_DOMAIN.test(value) ? sco('domain-name', { value }) : null;
    case 'username':
      return sco('user-account', { user_id: value });
    case 'phone':
      return newSco('phone-number', { value });
    default: {
      const identifierType = INDIAN_IDENTIFIER_TYPES[type as keyof typeof INDIAN_IDENTIFIER_TYPES];
      return identifierType ? newSco('indian-identifier', { identifier_type: identifierType, value }) : null;
    }
  }
}

/** One account a username search found: the account, its profile address and who said so. */
export interface FoundAccount {
  account: StixObject;
  profile: StixObject | null;
  source: string;
}

/** An http(s) address a url object takes, or null. */
export const profileUrl = (value: string | null | undefined): StixObject | null => {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? sco('url', { value: url.href }) : null;
  } catch {
    return null;
  }
};

/** A site's name as an account_type ('GitHub' → 'github'). */
const slug = (site: string) =>
  site
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'unknown';

/**
 * The accounts a username search's stored result holds: each site the site check found the name on,
 * then each account the vendor's account search reported (its source the vendor).
 */
export function foundAccounts(result: unknown, query: string): FoundAccount[] {
  const accounts: FoundAccount[] = [];
  const check = siteCheckOf(result);
  for (const site of check?.sites ?? []) {
    if (site.state !== 'found') continue;
    const account = sco('user-account', { user_id: check?.username ?? query, account_type: site.site });
    accounts.push({ account, profile: profileUrl(site.url), source: site.name });
  }
  const payloads = isRecord(result) && isRecord(result.payloads) ? result.payloads : {};
  const vendor = payloads.pseudonymData;
  if (isAccountSearchAnswer(vendor)) {
    for (const found of vendor.accounts) {
      const account = sco('user-account', {
        user_id: found.username ?? query,
        account_type: slug(found.site),
      });
      accounts.push({ account, profile: profileUrl(found.url), source: found.site });
    }
  }
  return accounts;
}
