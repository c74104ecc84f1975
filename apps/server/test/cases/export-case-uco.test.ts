/**
 * The CASE/UCO 1.4 export (modules/cases/exports/case-uco.ts), judged by the UCO and CASE projects'
 * own SHACL shapes (data/standards/case-uco/, run with rdf-validate-shacl: support/case-uco-shacl.ts)
 * and Footprint's (case-uco-shapes.ttl). The validator is checked first on the CASE project's PASS and
 * XFAIL examples; then the rich case's export must conform, and planted errors must not.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Quad } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCaseUco, storedResultBytes } from '../../src/modules/cases/exports/case-uco.ts';
import type { CaseExportInput } from '../../src/modules/cases/exports/input.ts';
import {
  blankUcoThings,
  caseUcoValidator,
  jsonLdQuads,
  STANDARDS,
  shapesRequiring,
} from '../support/case-uco-shacl.ts';
import { type RichCase, richCaseApp } from '../support/rich-case.ts';

const INVESTIGATION = 'https://ontology.caseontology.org/case/investigation/';
const ACTION = 'https://ontology.unifiedcyberontology.org/uco/action/';
const shipped = caseUcoValidator({ footprint: false });
const withFootprint = caseUcoValidator({ footprint: true });

const example = (name: string) =>
  readFileSync(path.join(STANDARDS, 'case-1.4.0/tests/examples', name), 'utf8');

describe('the validator, on the CASE project’s own examples', () => {
  it('passes investigative_action_PASS and fails investigative_action_XFAIL where CASE says', async () => {
    const pass = await shipped(await jsonLdQuads(example('investigative_action_PASS.json')));
    expect(pass.all).toEqual([]);
    const xfail = await shipped(await jsonLdQuads(example('investigative_action_XFAIL.json')));
    expect(xfail.conforms).toBe(false);
    // The paths CASE's own report lists (investigative_action_XFAIL_validation.ttl): integers where
    // xsd:string is due.
    expect(new Set(xfail.violations.map((v) => v.path))).toEqual(
      new Set([`${INVESTIGATION}exhibitNumber`, `${INVESTIGATION}rootExhibitNumber`]),
    );
    expect(xfail.violations.every((v) => v.component === 'DatatypeConstraintComponent')).toBe(true);
  });
});

type GraphNode = Record<string, unknown> & { '@id': string; '@type': string | string[] };
const graphOf = (text: string) => (JSON.parse(text) as { '@graph': GraphNode[] })['@graph'];
const typed = (graph: GraphNode[], type: string) =>
  graph.filter((node) => [node['@type']].flat().includes(type));
const byId = (graph: GraphNode[], id: unknown) =>
  graph.find((node) => node['@id'] === (id as { '@id': string })['@id']);

describe('the CASE/UCO export of a rich case', () => {
  let rich: RichCase;
  let input: CaseExportInput;
  let text: string;
  let quads: Quad[];

  beforeAll(async () => {
    rich = await richCaseApp();
    input = await rich.exportInput();
    text = renderCaseUco(input);
    quads = await jsonLdQuads(text);
  });
  afterAll(() => rich.t.close());

  it('conforms to the UCO, CASE and Footprint shapes, with no finding of any severity', async () => {
    const outcome = await withFootprint(quads);
    expect(outcome.all).toEqual([]);
    // UCO's SHACL-SPARQL rules, which rdf-validate-shacl does not run: no UcoThing is a blank node,
    // and every node's IRI ends with a UUID (core:UcoThing-identifier-regex-shape).
    expect(blankUcoThings(quads)).toEqual([]);
    const ids = graphOf(text).map((node) => node['@id']);
    expect(
      ids.filter((id) => !/[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)),
    ).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    // Deterministic: the same case renders the same graph.
    expect(renderCaseUco(input)).toBe(text);
  });

  it('says each search as an investigative action: performer, instruments, object, results, authorization', () => {
    const graph = graphOf(text);
    const [investigation] = typed(graph, 'case-investigation:Investigation');
    expect(investigation!['uco-core:name']).toBe('Extortion calls');
    const searches = input.detail.items;
    expect(searches).toHaveLength(4);
    for (const item of searches) {
      const action = graph.find((node) => node['@id'] === `kb:investigative-action-${item.lookup_id}`)!;
      expect(action['@type']).toBe('case-investigation:InvestigativeAction');
      expect(byId(graph, action['uco-action:performer'])).toMatchObject({
        '@type': 'uco-identity:Person',
        'uco-core:name': 'Asha Rao',
      });
      expect(action['uco-action:startTime']).toEqual({ '@type': 'xsd:dateTime', '@value': item.created_at });
      const instruments = (action['uco-action:instrument'] as unknown[]).map(
        (r) => byId(graph, r)!['uco-core:name'],
      );
      expect(instruments[0]).toBe('Footprint');
      expect(instruments.length).toBeGreaterThan(1);
      // Its stored result, hashed as the evidence bundle writes it, in a provenance record.
      const results = (action['uco-action:result'] as unknown[]).map((r) => byId(graph, r)!);
      const artefact = results.find(
        (node) =>
          node['@type'] === 'uco-observable:ContentData' &&
          String(node['uco-core:name']).startsWith('Stored result'),
      )!;
      const facet = byId(graph, (artefact['uco-core:hasFacet'] as unknown[])[0])!;
      const hash = byId(graph, (facet['uco-observable:hash'] as unknown[])[0])!;
      const stored = input.searches.find((search) => search.item.lookup_id === item.lookup_id)!.result;
      const bytes = storedResultBytes(stored);
      expect(hash).toMatchObject({
        '@type': 'uco-types:Hash',
        'uco-types:hashMethod': 'SHA256',
        'uco-types:hashValue': {
          '@type': 'xsd:hexBinary',
          '@value': createHash('sha256').update(bytes).digest('hex'),
        },
      });
      expect(facet['uco-observable:sizeInBytes']).toEqual({
        '@type': 'xsd:integer',
        '@value': String(bytes.length),
      });
      const record = results.find((node) => node['@type'] === 'case-investigation:ProvenanceRecord')!;
      expect(record['uco-core:object']).toContainEqual({ '@id': artefact['@id'] });
      // The FIR it ran under.
      const authorized = typed(graph, 'uco-core:Relationship').find(
        (rel) => (rel['uco-core:source'] as Array<{ '@id': string }>)[0]!['@id'] === action['@id'],
      )!;
      expect(authorized['uco-core:kindOfRelationship']).toBe('Authorized_By');
      expect(byId(graph, authorized['uco-core:target'])).toMatchObject({
        '@type': 'case-investigation:Authorization',
        'case-investigation:authorizationType': 'FIR',
        'case-investigation:authorizationIdentifier': ['214/2026'],
      });
    }
    // What the phone search asked about, and what it found.
    const tel = graph.find((node) => node['@id'] === `kb:investigative-action-${searches[0]!.lookup_id}`)!;
    const asked = byId(graph, (tel['uco-action:object'] as unknown[])[0])!;
    expect(asked).toMatchObject({ '@type': 'uco-observable:PhoneAccount', 'uco-core:name': '+919876543210' });
    const instruments = (tel['uco-action:instrument'] as unknown[]).map((r) => byId(graph, r)!);
    expect(instruments.map((tool) => tool['uco-core:name'])).toContain('WhatsApp');
    expect(instruments.find((tool) => tool['uco-core:name'] === 'WhatsApp')!['uco-core:description']).toBe(
      'Sandbox (synthetic data)',
    );
    // The username check's accounts, each on its site.
    const accounts = typed(graph, 'uco-observable:ApplicationAccount');
    expect(accounts.length).toBeGreaterThan(10);
    expect(accounts.map((account) => account['uco-core:name'])).toContain('rohand90 on Roblox');
    const emails = typed(graph, 'uco-observable:EmailAddress').map((node) => node['uco-core:name']);
    expect(emails).toContain('rich.demo@example.test');
    // The Investigation holds every object, and its authorization.
    expect((investigation!['case-investigation:relevantAuthorization'] as unknown[]).length).toBe(1);
    expect(investigation!['uco-core:object']).toContainEqual({ '@id': tel['@id'] });
  });

  it('says the chain of custody: one action per audit row, with its performer and time', () => {
    const graph = graphOf(text);
    const custody = graph.filter((node) => String(node['uco-core:name']).startsWith('Audit row '));
    expect(custody.map((node) => node['uco-core:name'])).toEqual(
      input.custody.map((event) => `Audit row ${event.id}: ${event.action}`),
    );
    expect(custody.map((node) => node['uco-core:name'])).toContain(
      `Audit row ${input.custody[0]!.id}: case.create`,
    );
    for (const [i, node] of custody.entries()) {
      expect(node['uco-action:startTime']).toEqual({
        '@type': 'xsd:dateTime',
        '@value': input.custody[i]!.at,
      });
      expect(byId(graph, node['uco-action:performer'])!['uco-core:name']).toBe('Asha Rao');
    }
    const note = typed(graph, 'uco-core:Annotation')[0]!;
    expect(note['uco-core:statement']).toBe(input.detail.notes[0]!.body);
  });

  it('says a notice, a purged result and a row no one acted in, and still conforms', async () => {
    // The rich case as another case might be: under a notice, its leak search's result purged, a
    // system row in its trail (only the phone and leak searches, to keep the graph small).
    const [tel, , , leak] = input.searches;
    const notice = {
      kind: 'notice' as const,
      number: 'under Section 94 BNSS, SHO, Cyber Police Station, Pune, ref. CPS/94/2026/17 of 2026-11-20',
      purpose: 'tracing the caller',
      fields: {
        provision: 'Section 94 BNSS',
        authority: 'SHO, Cyber Police Station, Pune',
        reference: 'CPS/94/2026/17',
        date: '2026-11-20',
      },
    };
    const variant: CaseExportInput = {
      ...input,
      detail: { ...input.detail, legal_basis: notice },
      searches: [tel!, { ...leak!, result: null, purged: true }],
      custody: [
        ...input.custody.filter((event) => !event.action.startsWith('lookup.')),
        {
          ...input.custody[0]!,
          id: 999,
          action: 'case.hold.expire',
          actor: { id: null, email: null },
          details: {},
        },
      ],
    };
    const rendered = renderCaseUco(variant);
    const graph = graphOf(rendered);
    const authorization = typed(graph, 'case-investigation:Authorization')[0]!;
    expect(authorization).toMatchObject({
      'case-investigation:authorizationType': 'Notice or order',
      'case-investigation:authorizationIdentifier': ['CPS/94/2026/17'],
      'uco-core:startTime': { '@type': 'xsd:dateTime', '@value': '2026-11-19T18:30:00.000Z' },
    });
    const issued = typed(graph, 'uco-core:Relationship').find(
      (rel) => rel['uco-core:kindOfRelationship'] === 'Issued_By',
    )!;
    expect(byId(graph, issued['uco-core:target'])!['uco-core:name']).toBe('SHO, Cyber Police Station, Pune');
    const purged = graph.find((node) => node['@id'] === `kb:investigative-action-${leak!.item.lookup_id}`)!;
    expect(purged['uco-core:description']).toContain('purged');
    expect(typed(graph, 'case-investigation:ProvenanceRecord')).toHaveLength(1);
    const system = graph.find((node) => node['uco-core:name'] === 'Audit row 999: case.hold.expire')!;
    expect(byId(graph, system['uco-action:performer'])!['uco-core:name']).toBe('Footprint');
    const quadsOf = await jsonLdQuads(rendered);
    expect((await withFootprint(quadsOf)).all).toEqual([]);
    expect(blankUcoThings(quadsOf)).toEqual([]);
  });

  it("says the accounts a vendor's account search reported, on the same site node as the site check's", async () => {
    const username = input.searches.find((search) => search.item.kind === 'username')!;
    const stored = structuredClone(username.result) as {
      payloads: { sitesData: { sites: Array<{ state: string; name: string }> } } & Record<string, unknown>;
    };
    // A site the site check found the name on, which the vendor reports too.
    const both = stored.payloads.sitesData.sites.find((site) => site.state === 'found')!.name;
    stored.payloads.pseudonymData = {
      search_id: 'synthetic-1',
      complete: true,
      accounts: [
        {
          site: 'GitHub',
          username: 'rohand90',
          url: 'https://github.com/rohand90',
          found_at: '2026-10-01T06:30:00.000Z',
        },
        { site: 'Odd Site', username: null, url: null, found_at: '2026-10-01T06:31:00.000Z' },
        { site: both, username: 'rohand90', url: null, found_at: '2026-10-01T06:32:00.000Z' },
      ],
    };
    const rendered = renderCaseUco({ ...input, searches: [{ ...username, result: stored }] });
    const graph = graphOf(rendered);
    const accounts = typed(graph, 'uco-observable:ApplicationAccount');
    const github = accounts.find((node) => node['uco-core:name'] === 'rohand90 on GitHub')!;
    expect(github['uco-core:description']).toContain(
      'reported by the account search vendor at 2026-10-01T06:30:00.000Z',
    );
    expect(github['@id']).toMatch(/^kb:application-account-/);
    const odd = accounts.find((node) => node['uco-core:name'] === `${username.item.query} on Odd Site`)!;
    expect(odd['uco-core:description']).toContain('No profile address given');
    // Each is among the search's results.
    const action = graph.find(
      (node) => node['@id'] === `kb:investigative-action-${username.item.lookup_id}`,
    )!;
    const results = (action['uco-action:result'] as Array<{ '@id': string }>).map((r) => r['@id']);
    expect(results).toEqual(expect.arrayContaining([github['@id'], odd['@id']]));
    expect(typed(graph, 'uco-observable:Application').map((node) => node['uco-core:name'])).toContain(
      'Odd Site',
    );
    const quadsOf = await jsonLdQuads(rendered);
    expect((await withFootprint(quadsOf)).all).toEqual([]);
  });

  it('fails the shapes with planted errors: an action without a performer, a start time of the wrong datatype', async () => {
    // UCO 1.4 alone lets an action go without a performer (no sh:minCount on uco-action:performer):
    // Footprint's shape is what requires one.
    expect(shapesRequiring(`${ACTION}performer`, { footprint: false })).toEqual([]);
    expect(shapesRequiring(`${ACTION}performer`, { footprint: true })).toHaveLength(1);

    const planted = JSON.parse(text) as { '@graph': GraphNode[] };
    const [first, second] = input.detail.items;
    const action = (lookupId: string) =>
      planted['@graph'].find((n) => n['@id'] === `kb:investigative-action-${lookupId}`)!;
    delete action(first!.lookup_id)['uco-action:performer'];
    // A plain string where UCO's shape asks for an xsd:dateTime.
    action(second!.lookup_id)['uco-action:startTime'] = second!.created_at;
    const outcome = await withFootprint(await jsonLdQuads(planted));
    expect(outcome.conforms).toBe(false);
    const kb = 'urn:footprint:kb:investigative-action-';
    expect(outcome.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          focus: `${kb}${first!.lookup_id}`,
          path: `${ACTION}performer`,
          component: 'MinCountConstraintComponent',
        }),
        expect.objectContaining({
          focus: `${kb}${second!.lookup_id}`,
          path: `${ACTION}startTime`,
          component: 'DatatypeConstraintComponent',
        }),
      ]),
    );
    expect(outcome.violations).toHaveLength(2);
  });
});
