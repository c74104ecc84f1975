/**
 * Detail and intel records in PDFs: the curated field order (the RC starts with its owner, whatever the
 * key order of the answer) and lists of records drawn as tables (a header row, a row per record).
 * PDFs are read back with poppler's pdftotext.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { layoutRecord } from '@footprint/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { drawRecordTable } from '../../src/modules/reports/render/detail.ts';
import { finishDocument, openDocument } from '../../src/modules/reports/render/frame.ts';
import { renderReport } from '../../src/modules/reports/render/index.ts';
import type { DetailReportJob } from '../../src/modules/reports/render/types.ts';
import { challanDetails, DEMO, rcDetails } from '../../src/sandbox/index.ts';
import { INTEL_DEMO, intelPayload } from '../../src/sandbox/providers/intel.ts';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'footprint-record-layout-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ids = {
  reportId: '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5',
  lookupId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
  generatedAt: '2026-10-01T06:30:00.000Z',
};

let counter = 0;
async function textOf(pdf: Buffer): Promise<string> {
  const file = join(work, `record-${++counter}.pdf`);
  writeFileSync(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-'], { maxBuffer: 20 * 1024 * 1024 });
  return stdout;
}

function detailJob(type: DetailReportJob['type'], id: string, record: unknown): DetailReportJob {
  return {
    template: 'detail',
    ...ids,
    searchedAt: '2026-10-01T06:29:00.000Z',
    account: { name: 'Meera Iyer', email: 'meera@example.test' },
    sandbox: true,
    type,
    id,
    record: record as Record<string, unknown>,
  };
}

const reversed = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).reverse());
const lineIndex = (text: string, part: string) => text.split('\n').findIndex((line) => line.includes(part));

describe('RC PDF order', () => {
  it('lists the owner first and the colour after the vehicle, for any key order of the answer', async () => {
    const record = rcDetails(DEMO.rcWithChallans).data as Record<string, unknown>;
    const fresh = await textOf(await renderReport(detailJob('rc', DEMO.rcWithChallans, record)));
    const cached = await textOf(await renderReport(detailJob('rc', DEMO.rcWithChallans, reversed(record))));
    const owner = lineIndex(fresh, 'Owner Name');
    expect(owner).toBeGreaterThan(0);
    expect(lineIndex(fresh, 'RC Number')).toBeGreaterThan(owner);
    expect(lineIndex(fresh, 'Color')).toBeGreaterThan(lineIndex(fresh, 'Maker Model'));
    // The first row under the record's header is the owner.
    const rows = fresh.split('\n').slice(lineIndex(fresh, 'FIELD') + 1);
    expect(rows.find((line) => line.trim() !== '')).toContain('Owner Name');
    // Dates and yes/no values through the domain's formatter.
    expect(fresh).toMatch(/Registration Date\s+\d{2} [A-Z][a-z]{2} \d{4}/);
    expect(fresh).toMatch(/Financed\s+Yes/);
    // A re-serialised (cached) answer prints the same rows in the same order.
    const body = (text: string) => text.slice(text.indexOf('Owner Name'), text.indexOf('About this report'));
    expect(body(cached)).toBe(body(fresh));
  });

  it('draws challans as one table: a header row and a row per challan, amounts in rupees', async () => {
    const record = challanDetails(DEMO.rcWithChallans).data as Record<string, unknown>;
    const challans = record.challan_details as Array<Record<string, unknown>>;
    const text = await textOf(await renderReport(detailJob('challan', DEMO.rcWithChallans, record)));
    const header = text.split('\n').find((line) => line.includes('CHALLAN NUMBER'));
    expect(header).toBeDefined();
    expect(header).toMatch(/CHALLAN NUMBER.*CHALLAN DATE.*AMOUNT.*DETAILS/);
    expect(text).toContain('Offense Details: ');
    for (const challan of challans) expect(text).toContain(String(challan.challan_number));
    expect(text).not.toContain('Challan 1 of');
    expect(text).toMatch(/₹\d/);
  });
});

describe('GST filings in a PDF', () => {
  it('draw as a table: the header once, then one row per filing', async () => {
    const answer = intelPayload('corporate:corporate_gstin', {
      id_number: INTEL_DEMO.gstin,
      year: '2024',
      filing_status: true,
      hsn_info: false,
      filing_frequency: false,
      address: false,
    }) as { data: Record<string, unknown> };
    const layout = layoutRecord(answer.data, 'corporate:corporate_gstin');
    const filings = layout.tables.find((table) => table.path === 'filing_status');
    expect(filings).toBeDefined();
    expect(filings!.rows.length).toBeGreaterThan(4);

    const { writer, bytes } = openDocument({
      title: 'GST filings',
      subject: 'GST filings',
      ...ids,
      sandbox: true,
      keywords: ['corporate_gstin'],
    });
    drawRecordTable(writer, filings!);
    finishDocument(writer, { title: 'GST filings', reportId: ids.reportId, sandbox: true });
    const text = await textOf(await bytes);
    const lines = text.split('\n');
    const headers = lines.filter((line) => /FY\s+TAXP\s+RTNTYPE\s+STATUS\s+DOF/.test(line));
    expect(headers.length).toBeGreaterThanOrEqual(1);
    const rows = lines.filter((line) => /\d{4}-\d{4}\s+\w+\s+GSTR(1|3B)\s+(Filed|Not Filed)/.test(line));
    expect(rows).toHaveLength(filings!.rows.length);
    // Filing days through the domain's formatter.
    expect(rows[0]).toMatch(/\d{2} [A-Z][a-z]{2} \d{4}/);
  });
});
