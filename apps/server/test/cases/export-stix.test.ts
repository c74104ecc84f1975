/**
 * The case's STIX 2.1 export (modules/cases/exports/stix.ts): the rich case's bundle is valid against
 * the official JSON schemas and the rules they cannot check (test/support/stix-validator.ts), says the
 * case's entities, accounts, searches and notes, and planted errors fail the validator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseExportInput } from '../../src/modules/cases/exports/input.ts';
import { renderStix, TLP_AMBER } from '../../src/modules/cases/exports/stix.ts';
import { scoId, uuidV5 } from '../../src/modules/cases/exports/stix-ids.ts';
import {
  FOOTPRINT_STIX_EXTENSION_ID,
  foundAccounts,
} from '../../src/modules/cases/exports/stix-observables.ts';
import { type RichCase, richCaseApp } from '../support/rich-case.ts';
import { schemaErrors, stixErrors, typesBundleJsonOmits } from '../support/stix-validator.ts';

type StixObject = Record<string, unknown> & { type: string; id: string };
type Bundle = { type: string; id: string; objects: StixObject[] };

let rich: RichCase;
let input: CaseExportInput;
let bundle: Bundle;

beforeAll(async () => {
  rich = await richCaseApp();
  input = await rich.exportInput();
  bundle = JSON.parse(renderStix(input));
});
afterAll(async () => {
  await rich?.t.close();
});

const ofType = (type: string) => bundle.objects.filter((object) => object.type === type);
const find = (type: string, test: (object: StixObject) => boolean) => ofType(type).find(test);
/** A deep copy of the bundle with one change. */
const planted = (change: (copy: Bundle) => void): Bundle => {
  const copy = structuredClone(bundle);
  change(copy);
  return copy;
};

describe('the STIX 2.1 export of a case', () => {
  it('is valid against the official schemas and the rules they cannot check', () => {
    expect(bundle.type).toBe('bundle');
    expect(bundle.id).toMatch(/^bundle--[0-9a-f-]{36}$/);
    expect(stixErrors(bundle, FOOTPRINT_STIX_EXTENSION_ID)).toEqual([]);
  });

  it('is valid for every export of the case: a second one, and one after another note', async () => {
    const again = JSON.parse(renderStix(await rich.exportInput()));
    expect(stixErrors(again, FOOTPRINT_STIX_EXTENSION_ID)).toEqual([]);
    const note = await rich.post(`/api/cases/${rich.caseId}/notes`, { body: 'Second note: CDR received.' });
    expect(note.statusCode).toBe(201);
    const later = JSON.parse(renderStix(await rich.exportInput()));
    expect(stixErrors(later, FOOTPRINT_STIX_EXTENSION_ID)).toEqual([]);
    // The same case names the same report each time; the new note is in the later one.
    const reportOf = (b: Bundle) => b.objects.find((object) => object.type === 'report')?.id;
    expect(reportOf(again)).toBe(reportOf(bundle));
    expect(reportOf(later)).toBe(reportOf(bundle));
    expect(later.objects.filter((object: StixObject) => object.type === 'note')).toHaveLength(3);
  });

  it('is valid for a bare case (no legal basis, notes or searches) and for one whose results were purged', () => {
    const bare = structuredClone(input);
    bare.detail = { ...bare.detail, legal_basis: null, notes: [], items: [], entities: [], members: [] };
    bare.searches = [];
    const bareBundle = JSON.parse(renderStix(bare));
    expect(stixErrors(bareBundle, FOOTPRINT_STIX_EXTENSION_ID)).toEqual([]);
    expect(bareBundle.objects.map((object: StixObject) => object.type).sort()).toEqual([
      'extension-definition',
      'identity',
      'identity',
      'marking-definition',
      'report',
    ]);
    const purged = structuredClone(input);
    purged.searches = purged.searches.map((search) => ({ ...search, result: null, purged: true }));
    const purgedBundle = JSON.parse(renderStix(purged));
    expect(stixErrors(purgedBundle, FOOTPRINT_STIX_EXTENSION_ID)).toEqual([]);
    // The case's entities still say what each search found; only the accounts' profiles need the result.
    expect(purgedBundle.objects.some((object: StixObject) => object.type === 'email-addr')).toBe(true);
    expect(purgedBundle.objects.some((object: StixObject) => object.type === 'url')).toBe(false);
  });

  it("reads a vendor account search's accounts too, an address that is not http(s) giving no url", () => {
    const result = {
      payloads: {
        pseudonymData: {
          search_id: 'synthetic-1',
          complete: true,
          accounts: [
            {
              site: 'GitHub',
              username: 'rohand90',
              url: 'https://github.com/rohand90',
              found_at: '2026-10-01T06:30:00.000Z',
            },
            {
              site: 'Odd Site',
              username: null,
              url: 'javascript:alert(1)',
              found_at: '2026-10-01T06:30:00.000Z',
            },
          ],
        },
      },
    };
    const [github, odd] = foundAccounts(result, 'rohand90');
    expect(github?.account).toMatchObject({
      type: 'user-account',
      user_id: 'rohand90',
      account_type: 'github',
    });
    expect(github?.profile).toMatchObject({ type: 'url', value: 'https://github.com/rohand90' });
    expect(odd?.account).toMatchObject({ user_id: 'rohand90', account_type: 'odd-site' });
    expect(odd?.profile).toBeNull();
  });

  it('computes SCO ids as the spec does (UUIDv5 of the canonical JSON of the id-contributing properties)', () => {
    // Computed apart from this code: Python's uuid.uuid5(UUID('00abedb4-…'), '{"value":"rich.demo@example.test"}').
    expect(uuidV5('00abedb4-aa42-466c-9c01-fed23315a9b7', '{"value":"rich.demo@example.test"}')).toBe(
      '325fa350-b0b1-5675-a871-d721fd67d7bd',
    );
    expect(scoId('email-addr', { value: 'rich.demo@example.test' })).toBe(
      'email-addr--325fa350-b0b1-5675-a871-d721fd67d7bd',
    );
    expect(find('email-addr', (o) => o.value === 'rich.demo@example.test')?.id).toBe(
      'email-addr--325fa350-b0b1-5675-a871-d721fd67d7bd',
    );
  });

  it("holds the case as a report, its people, its entities, the username's accounts and its notes", () => {
    const report = ofType('report')[0]!;
    expect(report).toMatchObject({
      name: 'FIR 214/2026: Extortion calls',
      published: stixTimeOf(input.generated.at),
    });
    const others = bundle.objects.filter((object) => object.id !== report.id && object.id !== TLP_AMBER.id);
    expect(new Set(report.object_refs as string[])).toEqual(new Set(others.map((object) => object.id)));
    expect(find('identity', (o) => o.name === 'Asha Rao')).toMatchObject({ identity_class: 'individual' });
    expect(find('identity', (o) => o.identity_class === 'system')?.id).toBe(report.created_by_ref);

    for (const email of ['rich.demo@example.test', 'rohan.deshmukh90@example.com'])
      expect(find('email-addr', (o) => o.value === email)).toBeDefined();
    expect(find('domain-name', (o) => o.value === 'example.test')).toBeDefined();
    expect(find('phone-number', (o) => o.value === '+919876543210')).toBeDefined();
    expect(
      find('indian-identifier', (o) => o.identifier_type === 'pan' && o.value === 'BQZPD4821K'),
    ).toBeDefined();
    expect(find('indian-identifier', (o) => o.identifier_type === 'upi')).toBeDefined();
    expect(find('indian-identifier', (o) => o.identifier_type === 'vehicle_rc')).toBeDefined();
    for (const username of ['rohand90', 'the_rohan17'])
      expect(
        find('user-account', (o) => o.user_id === username && o.account_type === undefined),
      ).toBeDefined();

    // An account rohand90's site check found, its profile address, and the relationship between them.
    const airliners = find('user-account', (o) => o.user_id === 'rohand90' && o.account_type === 'airliners');
    const profile = find('url', (o) => o.value === 'https://www.airliners.net/user/rohand90/profile/photos');
    expect(airliners && profile).toBeTruthy();
    expect(
      find('relationship', (o) => o.source_ref === airliners?.id && o.target_ref === profile?.id)
        ?.relationship_type,
    ).toBe('has-profile');

    // Each search is observed-data by its searcher; the e-mail's search says where it found the address.
    expect(ofType('observed-data')).toHaveLength(input.detail.items.length);
    const emailSearch = input.detail.items.find((item) => item.kind === 'email')!;
    const observed = find('observed-data', (o) => JSON.stringify(o).includes(emailSearch.lookup_id))!;
    const address = find('email-addr', (o) => o.value === 'rich.demo@example.test')!;
    expect(observed.object_refs).toContain(address.id);
    const extension = (
      observed.extensions as Record<string, { found: Array<{ object_ref: string; sources?: string[] }> }>
    )[FOOTPRINT_STIX_EXTENSION_ID]!;
    expect(extension.found.find((entry) => entry.object_ref === address.id)?.sources?.length).toBeGreaterThan(
      0,
    );

    const contents = ofType('note').map((note) => note.content);
    expect(contents).toContain('Caller used the number twice on 3 March.\nAsked the operator for the CDR.');
    expect(
      contents.some((content) => String(content).startsWith('FIR 214/2026, Kothrud police station')),
    ).toBe(true);
    for (const object of bundle.objects.filter(
      (o) => o.type !== 'marking-definition' && o.type !== 'extension-definition',
    ))
      if (object.type !== 'identity' || object.identity_class !== 'system')
        expect(object.object_marking_refs, object.id).toEqual([TLP_AMBER.id]);
  });

  it('carries no password and no stored result', () => {
    const text = renderStix(input);
    expect(text).not.toMatch(/password|credential|payloads|sha256/i);
    expect(text).not.toContain('"evidence"');
  });

  it('fails the validator with a planted error', () => {
    const errorsOf = (b: Bundle) => stixErrors(b, FOOTPRINT_STIX_EXTENSION_ID);
    const emailIndex = bundle.objects.findIndex((object) => object.type === 'email-addr');
    // A bad id: the schemas refuse it, and so do the rules.
    const badId = planted((copy) => {
      copy.objects[emailIndex]!.id = 'email-addr--not-a-uuid';
    });
    expect(errorsOf(badId).join('\n')).toMatch(/email-addr--not-a-uuid: not an RFC 4122 UUID/);
    expect(schemaErrors(badId).join('\n')).toMatch(/must match pattern/);
    // A dangling reference: beyond the schemas, caught by the rules.
    const dangling = planted((copy) => {
      const note = copy.objects.find((object) => object.type === 'note')!;
      note.object_refs = ['report--6f1c2a9e-4b7d-4c1e-9a3f-2d5b8c7e1a04'];
    });
    expect(errorsOf(dangling).join('\n')).toMatch(
      /report--6f1c2a9e-4b7d-4c1e-9a3f-2d5b8c7e1a04 is not in the bundle/,
    );
    expect(schemaErrors(dangling)).toEqual([]);
    // modified before created.
    const backwards = planted((copy) => {
      const report = copy.objects.find((object) => object.type === 'report')!;
      report.modified = '2000-01-01T00:00:00.000Z';
    });
    expect(errorsOf(backwards).join('\n')).toMatch(/modified .* is before created/);
    // An SCO whose id is a UUID but not the one its value gives.
    const wrongV5 = planted((copy) => {
      copy.objects[emailIndex]!.value = 'someone.else@example.test';
    });
    expect(errorsOf(wrongV5).join('\n')).toMatch(/not the UUIDv5 of its id-contributing properties/);
    // A timestamp to the second: the schemas want milliseconds.
    const seconds = planted((copy) => {
      const note = copy.objects.find((object) => object.type === 'note')!;
      note.created = '2026-01-01T00:00:00Z';
    });
    expect(errorsOf(seconds).length).toBeGreaterThan(0);
    // created_by_ref naming an object that is not an identity.
    const wrongType = planted((copy) => {
      const report = copy.objects.find((object) => object.type === 'report')!;
      report.created_by_ref = copy.objects.find((object) => object.type === 'note')!.id;
    });
    expect(errorsOf(wrongType).join('\n')).toMatch(/created_by_ref points to a note/);
    // A note without its content: note.json refuses it (notes are checked against their own schema).
    const empty = planted((copy) => {
      delete copy.objects.find((object) => object.type === 'note')!.content;
    });
    expect(errorsOf(empty).join('\n')).toMatch(/note--.*sdos\/note\.json.*content/);
  });

  it('checks against its own schema each object the vendored bundle.json cannot (it omits note and others)', () => {
    // bundle.json sends an unlisted type to its custom-object branch, oneOf the SDO and SCO cores, which a
    // note matches both of: the validator checks the envelope without them and each against its schema.
    expect(typesBundleJsonOmits()).toEqual([
      'extension-definition',
      'grouping',
      'incident',
      'location',
      'note',
      'opinion',
    ]);
    expect(ofType('note').length).toBeGreaterThan(0);
    expect(ofType('extension-definition')).toHaveLength(1);
  });
});

const stixTimeOf = (at: string) => new Date(at).toISOString();
