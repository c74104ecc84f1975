// The limits of an uploaded list, without a server: each hostile file is refused with its own answer
// before more than the limit is inflated, and the XLSX writer's files read back.
import { messages } from '@footprint/domain';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.ts';
import { BULK_XLSX_LIMITS, entriesOfFile } from '../../src/modules/bulk/parse.ts';
import { readAllSheets, readWorkbook } from '../../src/xlsx/read.ts';
import { MAX_CELL, xlsxBuffer, xlsxStream } from '../../src/xlsx/write.ts';
import {
  hostile,
  part,
  repeatedPart,
  SHEET_HEAD,
  SHEET_TAIL,
  STRINGS_HEAD,
  workbookOf,
  workbookParts,
  zipOf,
} from '../support/xlsx.ts';

const MB = BULK_XLSX_LIMITS.maxUnpackedBytes / 1024 / 1024;

/** The refusal a file gets: its code and message. */
async function refusalOf(file: Buffer) {
  try {
    await entriesOfFile(file);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the file was accepted');
}

const rowsOfValues = (values: string[]) =>
  values
    .map((value, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${value}</t></is></c></row>`)
    .join('');

describe('an uploaded workbook within its limits', () => {
  it('reads a plain workbook: the first sheet, the column headed email, its lines', async () => {
    const file = workbookOf(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
        '<row r="3"><c r="A3"><v>7</v></c><c r="B3" t="s"><v>2</v></c></row>',
      '<si><t>id</t></si><si><t>E-mail</t></si><si><t>a@example.test</t></si>',
    );
    expect(await entriesOfFile(file)).toEqual([{ line: 3, value: 'a@example.test' }]);
  });

  it('refuses a workbook of more zip entries than the limit, before reading any', async () => {
    const names = Array.from({ length: BULK_XLSX_LIMITS.maxEntries }, (_, i) => `extra/${i}`);
    expect(await refusalOf(zipOf(workbookParts(), names))).toEqual({
      code: 'file_too_large',
      message: messages.bulkJobs.workbookTooManyParts(BULK_XLSX_LIMITS.maxEntries),
    });
  });

  it('refuses a sheet that inflates past the limit (a megabyte that would be a gigabyte) in well under a second', async () => {
    const bomb = hostile.bomb();
    const started = performance.now();
    expect(await refusalOf(bomb)).toEqual({
      code: 'file_too_large',
      message: messages.bulkJobs.workbookTooLarge(MB),
    });
    // Refused by its declared size before a byte is inflated: no time at all, even on a busy machine.
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('counts the inflated bytes of all the parts read: two parts under the limit, together over it, the second not inflated', async () => {
    const half = Math.ceil(BULK_XLSX_LIMITS.maxUnpackedBytes / 2 / 1024);
    const file = zipOf([
      ...workbookParts(),
      repeatedPart(
        'xl/sharedStrings.xml',
        STRINGS_HEAD,
        `<si><t>${'s'.repeat(1008)}</t></si>`,
        half,
        '</sst>',
      ),
      repeatedPart(
        'xl/worksheets/sheet1.xml',
        SHEET_HEAD,
        `<row><c t="s"><v>0</v></c></row>${' '.repeat(992)}`,
        half,
        SHEET_TAIL,
      ),
    ]);
    expect(await refusalOf(file)).toEqual({
      code: 'file_too_large',
      message: messages.bulkJobs.workbookTooLarge(MB),
    });
  });

  it('trusts no declared size: a part that inflates past what its header says is refused', async () => {
    const honest = part(
      'xl/worksheets/sheet1.xml',
      SHEET_HEAD + rowsOfValues(['a@example.test']).repeat(50) + SHEET_TAIL,
    );
    const lying = { ...honest, size: 200 };
    const file = zipOf([...workbookParts(), part('xl/sharedStrings.xml', `${STRINGS_HEAD}</sst>`), lying]);
    expect(await refusalOf(file)).toEqual({
      code: 'unreadable_file',
      message: messages.bulkJobs.unreadableFile,
    });
  });

  it('refuses a cell over 32,767 characters, inline or shared', async () => {
    const long = 'x'.repeat(MAX_CELL + 1);
    const cellTooLong = { code: 'unreadable_file', message: messages.bulkJobs.cellTooLong(MAX_CELL) };
    expect(await refusalOf(workbookOf(rowsOfValues([long])))).toEqual(cellTooLong);
    expect(
      await refusalOf(workbookOf('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', `<si><t>${long}</t></si>`)),
    ).toEqual(cellTooLong);
    // A cell at the limit is read.
    expect(await entriesOfFile(workbookOf(rowsOfValues(['y'.repeat(MAX_CELL)])))).toHaveLength(1);
  });

  it('stops reading at the 10,001st value (too_many_rows): what follows is never parsed', async () => {
    const tooMany = { code: 'too_many_rows', message: messages.bulkJobs.tooManyRows(10_000) };
    expect(await refusalOf(hostile.millionRows())).toEqual(tooMany);
    // 20,000 good rows, then broken XML: read to its end, the file would be unreadable.
    const row = '<row><c t="inlineStr"><is><t>9876543210</t></is></c></row>';
    const file = zipOf([
      ...workbookParts(),
      part('xl/sharedStrings.xml', `${STRINGS_HEAD}</sst>`),
      part('xl/worksheets/sheet1.xml', `${SHEET_HEAD}${row.repeat(20_000)}<row><<</c>${SHEET_TAIL}`),
    ]);
    expect(await refusalOf(file)).toEqual(tooMany);
    expect(
      await refusalOf(
        zipOf([
          ...workbookParts(),
          part('xl/worksheets/sheet1.xml', `${SHEET_HEAD}${row}<row><<</c>${SHEET_TAIL}`),
        ]),
      ),
    ).toEqual({
      code: 'unreadable_file',
      message: messages.bulkJobs.unreadableFile,
    });
  });

  it('refuses what is not a workbook: broken XML, a DOCTYPE, no sheet', async () => {
    const unreadable = { code: 'unreadable_file', message: messages.bulkJobs.unreadableFile };
    expect(await refusalOf(workbookOf('<row><c><v>1</c></row>'))).toEqual(unreadable);
    expect(
      await refusalOf(
        zipOf([
          ...workbookParts().slice(0, 2),
          part('xl/workbook.xml', '<!DOCTYPE x [<!ENTITY a "aaaa">]><workbook><sheets/></workbook>'),
        ]),
      ),
    ).toEqual(unreadable);
    expect(await refusalOf(zipOf(workbookParts().slice(0, 2)))).toEqual(unreadable);
  });
});

describe('an uploaded CSV within its limits', () => {
  const csv = (text: string) => Buffer.from(text);
  it('refuses a field over 32,767 characters and more than 10,000 values', async () => {
    expect(await refusalOf(csv(`email\n${'a'.repeat(MAX_CELL + 1)}\n`))).toEqual({
      code: 'unreadable_file',
      message: messages.bulkJobs.cellTooLong(MAX_CELL),
    });
    const lines = Array.from({ length: 10_001 }, (_, i) => `${9000000000 + i}`).join('\n');
    expect((await refusalOf(csv(lines))).code).toBe('too_many_rows');
    expect(await entriesOfFile(csv(`phone\n9876543210\n\n+91 98765 43211\n`))).toEqual([
      { line: 2, value: '9876543210' },
      { line: 4, value: '+91 98765 43211' },
    ]);
  });
});

describe('the XLSX writer', () => {
  it('streams rows into a workbook the reader reads back: text as text, numbers, XML-unsafe characters dropped', async () => {
    async function* rows() {
      for (let i = 1; i <= 3; i++) yield [i, `=cmd()|<b>&"${i}"\u0001`, i + 0.5];
    }
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxStream([
      { name: 'About', header: ['key', 'value'], rows: [['a', 'b']] },
      { name: 'Rows: all/some', header: ['n', 'text', 'x'], rows: rows() },
    ]))
      chunks.push(chunk as Buffer);
    const sheets = await readAllSheets(Buffer.concat(chunks), BULK_XLSX_LIMITS);
    expect(sheets.map((s) => s.name)).toEqual(['About', 'Rows  all some']);
    expect(sheets[1]!.rows).toEqual([
      ['n', 'text', 'x'],
      ['1', '=cmd()|<b>&"1"', '1.5'],
      ['2', '=cmd()|<b>&"2"', '2.5'],
      ['3', '=cmd()|<b>&"3"', '3.5'],
    ]);
  });

  it('cuts a cell to 32,767 characters and names repeated sheets apart', async () => {
    const file = await xlsxBuffer([
      { name: 'Same', header: ['x'], rows: [['z'.repeat(MAX_CELL + 10)]] },
      { name: 'Same', header: ['y'], rows: [] },
    ]);
    const names: string[] = [];
    let cell = '';
    await readWorkbook(file, BULK_XLSX_LIMITS, (sheet) => {
      names.push(sheet.name);
      return (row) => {
        if (row.line === 2) cell = row.cells[0]!;
      };
    });
    expect(names).toEqual(['Same', 'Same 2']);
    expect(cell).toHaveLength(MAX_CELL);
  });
});
