/**
 * A STIX 2.1 bundle validator for the tests: the official JSON schemas (OASIS cti-stix2-json-schemas,
 * vendored unchanged in data/standards/stix2, BSD-3-Clause) with Ajv, and in code the rules their
 * README says the schemas cannot check, plus the identifier and timestamp rules of the spec (§2.9, §3.2).
 *
 * The schemas declare draft 2020-12 (Ajv2020). Two things of theirs Ajv needs told: `idn-hostname`
 * (domain-name's value) is not among ajv-formats' formats, so it is added here (the name in ASCII, as
 * labels of letters, digits and inner hyphens); and their `definitions` sit beside `$defs` in places,
 * which strict mode would refuse, so strict mode is off (every keyword they use is still applied);
 * and their patterns escape '-' outside a class ('\\-?$'), which ECMAScript allows but not with the
 * 'u' flag Ajv adds by default, so patterns are compiled without it (unicodeRegExp: false).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { domainToASCII } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { scoId } from '../../src/modules/cases/exports/stix-ids.ts';
import { FOOTPRINT_STIX_EXTENSION_JSON_SCHEMA } from '../../src/modules/cases/exports/stix-observables.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const SCHEMAS = new URL('../../../../data/standards/stix2/schemas/', import.meta.url);
const BASE = 'http://raw.githubusercontent.com/oasis-open/cti-stix2-json-schemas/stix2.1/schemas/';

type StixObject = Record<string, unknown> & { type: string; id: string };

const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function loadAjv(): { ajv: Ajv2020; schemaOf: Map<string, string> } {
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  ajv.addFormat('idn-hostname', (value: string) => HOSTNAME.test(domainToASCII(value)));
  const schemaOf = new Map<string, string>();
  for (const folder of ['common', 'sdos', 'sros', 'observables']) {
    for (const file of readdirSync(new URL(`${folder}/`, SCHEMAS))) {
      const schema = JSON.parse(readFileSync(new URL(`${folder}/${file}`, SCHEMAS), 'utf8'));
      if (schema.$schema !== 'https://json-schema.org/draft/2020-12/schema')
        throw new Error(`${folder}/${file} declares ${schema.$schema}, not draft 2020-12`);
      ajv.addSchema(schema);
      schemaOf.set(file.replace(/\.json$/, ''), schema.$id);
    }
  }
  ajv.addSchema({ ...FOOTPRINT_STIX_EXTENSION_JSON_SCHEMA, $id: 'footprint-extension' });
  return { ajv, schemaOf };
}

let loaded: ReturnType<typeof loadAjv> | undefined;
const validators = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  loaded ??= loadAjv();
  const known = validators.get(ref);
  if (known) return known;
  const validate = loaded.ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema ${ref}`);
  validators.set(ref, validate);
  return validate;
}

const explain = (what: string, validate: ValidateFunction) =>
  (validate.errors ?? []).slice(0, 8).map((error) => `${what}: ${error.instancePath} ${error.message}`);

/** The schema an object of `type` is checked against: its own, or the observable core for a new SCO. */
function schemasFor(type: string): string[] {
  loaded ??= loadAjv();
  const own = loaded.schemaOf.get(type);
  if (own) return [own];
  if (type === 'phone-number' || type === 'indian-identifier')
    return [`${BASE}common/cyber-observable-core.json`, `footprint-extension#/$defs/${type}`];
  return [`${BASE}common/core.json`];
}

/**
 * The types that have an official schema but are missing from bundle.json's list of objects (note,
 * grouping, location, opinion, incident, extension-definition in the vendored version). bundle.json
 * sends such an object to its branch for custom objects, `oneOf` the SDO core and the observable core,
 * and an object with `created` and `modified` matches both, so bundle.json refuses every note, however
 * valid. Those objects are checked against their own schema only (as every object is, below).
 */
export function typesBundleJsonOmits(): string[] {
  const bundleSchema = readFileSync(new URL('common/bundle.json', SCHEMAS), 'utf8');
  const listed = new Set(
    [...bundleSchema.matchAll(/"\$ref": "\.\.\/\w+\/([a-z0-9-]+)\.json"/g)].map((m) => m[1]),
  );
  const objectSchemas = ['sdos', 'sros', 'observables'].flatMap((folder) =>
    readdirSync(new URL(`${folder}/`, SCHEMAS)).map((file) => file.replace(/\.json$/, '')),
  );
  const types = [...objectSchemas, 'marking-definition', 'language-content', 'extension-definition'];
  return types.filter((type) => !listed.has(type)).sort();
}

/** Every error the official schemas find in the bundle and in each of its objects. */
export function schemaErrors(bundle: unknown): string[] {
  const errors: string[] = [];
  const whole = validator(`${BASE}common/bundle.json`);
  const omitted = new Set(typesBundleJsonOmits());
  const objects = (bundle as { objects?: StixObject[] }).objects ?? [];
  const envelope = { ...(bundle as object), objects: objects.filter((object) => !omitted.has(object.type)) };
  if (!whole(envelope)) errors.push(...explain('bundle', whole));
  for (const object of objects) {
    const { id, type } = object;
    for (const ref of schemasFor(String(type))) {
      const validate = validator(ref);
      if (!validate(object)) errors.push(...explain(`${id} (${ref.replace(BASE, '')})`, validate));
    }
  }
  return errors;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([1-5])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SCO_TYPES = new Set([
  'artifact',
  'autonomous-system',
  'directory',
  'domain-name',
  'email-addr',
  'email-message',
  'file',
  'ipv4-addr',
  'ipv6-addr',
  'mac-addr',
  'mutex',
  'network-traffic',
  'process',
  'software',
  'url',
  'user-account',
  'windows-registry-key',
  'x509-certificate',
]);
/** The spec's id-contributing properties of the observables Footprint writes, and of its extension's. */
const ID_CONTRIBUTING: Record<string, readonly string[]> = {
  'email-addr': ['value'],
  'domain-name': ['value'],
  url: ['value'],
  'user-account': ['account_type', 'user_id', 'account_login'],
  'phone-number': ['value'],
  'indian-identifier': ['identifier_type', 'value'],
};
/** Properties every observable may have that are not its own (a custom one needs one besides these). */
const COMMON_SCO = new Set([
  'type',
  'id',
  'spec_version',
  'object_marking_refs',
  'granular_markings',
  'defanged',
  'extensions',
]);
/** What a reference must point to, by property (beyond "an object of this bundle"). */
const REF_TYPES: Record<string, (type: string) => boolean> = {
  created_by_ref: (type) => type === 'identity',
  object_marking_refs: (type) => type === 'marking-definition',
  belongs_to_ref: (type) => type === 'user-account',
  resolves_to_refs: (type) => ['ipv4-addr', 'ipv6-addr', 'domain-name'].includes(type),
  source_ref: (type) =>
    !['relationship', 'sighting', 'marking-definition', 'language-content'].includes(type),
  target_ref: (type) =>
    !['relationship', 'sighting', 'marking-definition', 'language-content'].includes(type),
  object_ref: (type) => SCO_TYPES.has(type) || type === 'phone-number' || type === 'indian-identifier',
};

/** Every reference an object holds, with the property it is in (nested in extensions too). */
function references(value: unknown, key = ''): Array<[string, string]> {
  if (typeof value === 'string') return /_refs?$/.test(key) ? [[key, value]] : [];
  if (Array.isArray(value)) return value.flatMap((item) => references(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([inner, item]) => references(item, inner));
}

/** A granular marking's selector names a property or item the object has. */
function selects(object: unknown, selector: string): boolean {
  let at: unknown = object;
  for (const step of selector.split('.')) {
    if (typeof at !== 'object' || at === null || !(step in at)) return false;
    at = (at as Record<string, unknown>)[step];
  }
  return true;
}

/**
 * The rules the schemas' README lists as beyond them, and the spec's on ids and timestamps: ids
 * `<type>--<RFC 4122 UUID>`, unique; SCO ids the UUIDv5 of their id-contributing properties;
 * timestamps valid, to the millisecond, modified ≥ created; every reference to an object of the
 * bundle of the right type; no marking on itself; granular selectors that select; custom observables
 * and extensions with a property of their own; extensions named by a definition of the bundle.
 */
export function ruleErrors(bundle: { objects: StixObject[] }): string[] {
  const errors: string[] = [];
  const byId = new Map<string, StixObject>();
  for (const object of bundle.objects) {
    if (byId.has(object.id)) errors.push(`${object.id}: id used twice`);
    byId.set(object.id, object);
  }
  for (const object of bundle.objects) {
    const { id, type } = object;
    const [prefix, uuid = ''] = String(id).split(/--(.*)/s);
    if (prefix !== type) errors.push(`${id}: the id does not start with its type ${type}`);
    if (!UUID.test(uuid)) errors.push(`${id}: not an RFC 4122 UUID`);
    const contributing = ID_CONTRIBUTING[type];
    if (contributing) {
      const expected = scoId(
        type,
        Object.fromEntries(contributing.map((key) => [key, object[key] as string])),
      );
      if (expected !== id)
        errors.push(`${id}: not the UUIDv5 of its id-contributing properties (${expected})`);
    }
    for (const key of ['created', 'modified', 'published', 'first_observed', 'last_observed']) {
      const at = object[key];
      if (at === undefined) continue;
      if (typeof at !== 'string' || !TIMESTAMP_MS.test(at) || Number.isNaN(Date.parse(at)))
        errors.push(`${id}: ${key} ${String(at)} is not a timestamp to the millisecond`);
    }
    if (
      typeof object.modified === 'string' &&
      typeof object.created === 'string' &&
      object.modified < object.created
    )
      errors.push(`${id}: modified ${object.modified} is before created ${object.created}`);
    if (typeof object.last_observed === 'string' && String(object.first_observed) > object.last_observed)
      errors.push(`${id}: last_observed is before first_observed`);
    for (const [key, ref] of references(object)) {
      const target = byId.get(ref);
      if (!target) errors.push(`${id}: ${key} ${ref} is not in the bundle`);
      else if (REF_TYPES[key] && !REF_TYPES[key](target.type))
        errors.push(`${id}: ${key} points to a ${target.type}`);
      if (type === 'marking-definition' && ref === id)
        errors.push(`${id}: a marking definition marks itself`);
    }
    for (const marking of (object.granular_markings as Array<{ selectors: string[] }> | undefined) ?? [])
      for (const selector of marking.selectors)
        if (!selects(object, selector)) errors.push(`${id}: granular selector ${selector} selects nothing`);
    const extensions = (object.extensions as Record<string, Record<string, unknown>> | undefined) ?? {};
    for (const [name, extension] of Object.entries(extensions)) {
      if (name.startsWith('extension-definition--') && byId.get(name)?.type !== 'extension-definition')
        errors.push(`${id}: extension ${name} is not defined in the bundle`);
      // A new type's entry only says it is one (its properties are the object's); any other adds some.
      const adds = extension.extension_type !== 'new-sco' && extension.extension_type !== 'new-sdo';
      if (adds && Object.keys(extension).every((key) => key === 'extension_type'))
        errors.push(`${id}: extension ${name} has no property of its own`);
    }
    const isCustomSco = Object.values(extensions).some((extension) => extension.extension_type === 'new-sco');
    if (isCustomSco && Object.keys(object).every((key) => COMMON_SCO.has(key)))
      errors.push(`${id}: a custom observable with no property of its own`);
  }
  return errors;
}

/** Extension content checked against the extension's own schema (the property extension of observed-data). */
export function extensionErrors(bundle: { objects: StixObject[] }, extensionId: string): string[] {
  const validate = validator('footprint-extension#/$defs/observed-data-extension');
  const errors: string[] = [];
  for (const object of bundle.objects) {
    const extension = (object.extensions as Record<string, Record<string, unknown>> | undefined)?.[
      extensionId
    ];
    if (extension?.extension_type !== 'property-extension') continue;
    if (!validate(extension)) errors.push(...explain(`${object.id} extension`, validate));
  }
  return errors;
}

/** Everything wrong with a bundle: the schemas', the rules', the extension's. */
export function stixErrors(bundle: unknown, extensionId: string): string[] {
  const typed = bundle as { objects: StixObject[] };
  return [...schemaErrors(bundle), ...ruleErrors(typed), ...extensionErrors(typed, extensionId)];
}
