/**
 * STIX 2.1 identifiers and timestamps for the case's STIX export (stix.ts).
 *
 * - Cyber-observable objects (SCOs) get the spec's deterministic id (STIX 2.1 §2.9): a UUIDv5 in the
 *   namespace 00abedb4-aa42-466c-9c01-fed23315a9b7 of the canonical JSON (RFC 8785) of the type's
 *   id-contributing properties, so the same e-mail address has the same id in every bundle, anyone's.
 * - Every other object gets a UUIDv5 in Footprint's own namespace of what it stands for (the case's
 *   id, a note's id, a lookup's id), so a second export of the same case names the same report, notes
 *   and searches and a consumer updates them instead of keeping two copies. The spec says these SHOULD
 *   be UUIDv4 and allows others from a namespace that cannot collide (never the SCO namespace); the
 *   names are Footprint's own random UUIDs, so they cannot.
 */
import { createHash } from 'node:crypto';

/** The namespace STIX 2.1 §2.9 fixes for the UUIDv5 of a cyber-observable's id. */
export const STIX_SCO_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';
/** Footprint's namespace for the UUIDv5 of every other object of its bundles (a random UUID, fixed once). */
export const FOOTPRINT_STIX_NAMESPACE = '8a925748-1b45-4f24-8aee-712bd47b741a';

/** RFC 4122 §4.3: the name-based UUID (version 5, SHA-1) of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * RFC 8785 (JCS) of a flat object of strings and booleans: its keys sorted by code unit, serialised as
 * ECMAScript's JSON.stringify does (which JCS adopts for strings and literals).
 */
export function canonicalJson(properties: Readonly<Record<string, string | boolean>>): string {
  const keys = Object.keys(properties).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(properties[key])}`).join(',')}}`;
}

/** A cyber-observable's id from its id-contributing properties (absent ones left out, as the spec says). */
export const scoId = (type: string, contributing: Readonly<Record<string, string | boolean | undefined>>) =>
  `${type}--${uuidV5(
    STIX_SCO_NAMESPACE,
    canonicalJson(
      Object.fromEntries(Object.entries(contributing).filter(([, v]) => v !== undefined)) as Record<
        string,
        string | boolean
      >,
    ),
  )}`;

/** Any other object's id from what it stands for ('case:<id>', 'note:<id>'). */
export const footprintId = (type: string, name: string) =>
  `${type}--${uuidV5(FOOTPRINT_STIX_NAMESPACE, `${type}:${name}`)}`;

/** A STIX timestamp: UTC with exactly millisecond precision ('2026-03-03T10:15:00.000Z'). */
export const stixTime = (at: string | Date): string => new Date(at).toISOString();

/** The later of two STIX timestamps (both from stixTime, so they compare as strings). */
export const later = (a: string, b: string): string => (a > b ? a : b);
