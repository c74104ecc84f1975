// The case graph exports, read back by outside parsers: GraphML by graphology-graphml (the GraphML
// reader of the graphology library, not ours), the i2 CSV by csv-parse; each node and link says what
// the case page says. The endpoint: audited with the file's hash, 404 for another's case, a clear 4xx
// for a format it does not know.
import { createHash } from 'node:crypto';
import { CASE_EXPORT_FORMATS, ENTITY_LABELS } from '@footprint/domain';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import Graph from 'graphology';
import { parse as parseGraphml } from 'graphology-graphml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGraphml } from '../../src/modules/cases/exports/graphml.ts';
import { I2_COLUMNS } from '../../src/modules/cases/exports/i2.ts';
import type { CaseExportInput } from '../../src/modules/cases/exports/input.ts';
import { createUser, newDeviceId, signIn } from '../support/app.ts';
import { type RichCase, richCaseApp } from '../support/rich-case.ts';

let c: RichCase;
let input: CaseExportInput;
beforeAll(async () => {
  c = await richCaseApp('GRAPH-1');
  input = await c.exportInput();
}, 120_000);
afterAll(() => c?.t.close());

const readGraph = (xml: string) => parseGraphml(Graph, xml);

describe('GET /api/cases/{id}/export/graphml', () => {
  it('is the case, its searches and their entities as a graph an outside GraphML reader takes', async () => {
    const res = await c.get(`/api/cases/${c.caseId}/export/graphml`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/graphml+xml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="case-graph-1.graphml"');

    const graph = readGraph(res.body);
    const { detail } = input;
    expect(graph.order).toBe(1 + detail.items.length + detail.entities.length);
    expect(graph.type).toBe('directed');
    // The case files each search; each search found the entities the case page says it found.
    expect(graph.outDegree(`case:${c.caseId}`)).toBe(detail.items.length);
    for (const item of detail.items) {
      expect(graph.getNodeAttribute(`search:${item.lookup_id}`, 'type')).toBe(item.kind);
      expect(graph.hasEdge(`case:${c.caseId}`, `search:${item.lookup_id}`)).toBe(true);
    }
    const email = detail.entities.find((e) => e.type === 'email' && e.value === 'rich.demo@example.test');
    expect(email).toBeDefined();
    const node = `entity:email:${email!.value}`;
    expect(graph.getNodeAttributes(node)).toMatchObject({
      kind: 'entity',
      label: email!.value,
      type: 'email',
      type_label: ENTITY_LABELS.email,
      corroborated: email!.corroborated,
    });
    expect(typeof graph.getNodeAttribute(node, 'corroborated')).toBe('boolean');
    expect(graph.getNodeAttribute(node, 'sources')).not.toBe('');
    for (const lookupId of email!.items) expect(graph.hasEdge(`search:${lookupId}`, node)).toBe(true);
    // The usernames of the case are in it, found by the username search among others.
    const username = detail.items.find((i) => i.kind === 'username')!;
    expect(graph.outDegree(`search:${username.lookup_id}`)).toBeGreaterThan(0);

    // Audited with the hash of the very bytes sent.
    const rows = await c.t.db.execute(
      sql`select details from audit_events where action = 'case.export' and target = ${c.caseId}`,
    );
    const [row] = (rows as unknown as { rows: Array<{ details: Record<string, unknown> }> }).rows;
    expect(row?.details).toMatchObject({
      format: 'graphml',
      file_name: 'case-graph-1.graphml',
      sha256: createHash('sha256').update(res.rawPayload).digest('hex'),
      bytes: res.rawPayload.length,
    });
  });

  it('escapes what the values hold, and a planted error fails the outside reader', () => {
    const hostile: CaseExportInput = {
      ...input,
      detail: {
        ...input.detail,
        title: 'Case <"&\'> \u0001',
        entities: [
          ...input.detail.entities,
          {
            type: 'name',
            value: '</data><node id="x"/>&amp;',
            sources: ['osintData'],
            items: [],
            corroborated: false,
            other_cases: [],
          },
        ],
      },
    };
    const graph = readGraph(renderGraphml(hostile));
    expect(graph.getNodeAttribute(`case:${c.caseId}`, 'label')).toBe('Case <"&\'> ');
    expect(graph.hasNode('entity:name:</data><node id="x"/>&amp;')).toBe(true);
    // An edge to a node the file does not hold: the reader refuses the file.
    const broken = renderGraphml(input).replace(/<node id="case:[^"]+">/, '<node id="case:gone">');
    expect(() => readGraph(broken)).toThrow();
  });
});

describe('GET /api/cases/{id}/export/i2', () => {
  it('is one row per link of the same graph, in the columns the import specification maps', async () => {
    const res = await c.get(`/api/cases/${c.caseId}/export/i2`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.body, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual([...I2_COLUMNS]);
    const graph = readGraph(renderGraphml(input));
    expect(rows.length).toBe(graph.size);
    for (const row of rows) {
      expect(
        graph.hasEdge(row.from_identity!, row.to_identity!),
        `${row.from_identity} → ${row.to_identity}`,
      ).toBe(true);
      // A cell that a spreadsheet would read as a formula ('+91…') is neutralised with a leading quote.
      expect(row.to_label!.replace(/^'(?=[=+\-@])/, '')).toBe(
        graph.getNodeAttribute(row.to_identity!, 'label'),
      );
    }
    const found = rows.filter((row) => row.link_type === 'Found');
    expect(found.some((row) => row.to_type === 'E-mail' && row.to_label === 'rich.demo@example.test')).toBe(
      true,
    );
    expect(rows.filter((row) => row.link_type === 'Filed search').length).toBe(input.detail.items.length);
  });
});

describe('the export endpoint', () => {
  it('answers a format it does not know with a 4xx naming the formats, and another user 404', async () => {
    const unknown = await c.get(`/api/cases/${c.caseId}/export/pdf`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain(CASE_EXPORT_FORMATS.join(', '));

    const deviceId = newDeviceId();
    const other = await createUser(c.t.db, { appMode: 'live', trustedDevice: deviceId });
    const { token } = await signIn(c.t, other.email, other.password, deviceId);
    for (const format of CASE_EXPORT_FORMATS) {
      const res = await c.t.app.inject({
        method: 'GET',
        url: `/api/cases/${c.caseId}/export/${format}`,
        headers: { authorization: `Bearer ${token}`, 'x-device-id': deviceId },
      });
      expect(res.statusCode, format).toBe(404);
    }
  });
});
