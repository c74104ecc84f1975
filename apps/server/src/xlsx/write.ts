/**
 * A streaming XLSX writer: each sheet's XML is made row by row as the zip (yazl) takes it, so a sheet
 * of any length holds one row in memory. Cells are numbers or inline strings (text, never a formula),
 * the first row bold. What Excel, LibreOffice and our reader (read.ts) open: content types, the
 * package and workbook relationships, a workbook, a style sheet and the worksheets.
 *
 * Written here, over yazl, because the maintained writers build the whole workbook first
 * (write-excel-file, SheetJS) and exceljs's streaming writer is what brought the unmaintained archiver
 * subtree in.
 */
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

export type SheetCell = string | number;

export interface SheetSource {
  name: string;
  /** The first row, written bold. */
  header: ReadonlyArray<SheetCell>;
  rows: Iterable<ReadonlyArray<SheetCell>> | AsyncIterable<ReadonlyArray<SheetCell>>;
}

/** Most characters a spreadsheet cell holds. */
export const MAX_CELL = 32_767;

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * Text XML can hold: the control characters XML 1.0 forbids, lone surrogates and U+FFFE/U+FFFF are
 * dropped; & < > " escaped; cut to the cell limit.
 */
export function xmlText(value: string): string {
  const clean = value.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is what this is for.
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '',
  );
  const cut = clean.length > MAX_CELL ? clean.slice(0, MAX_CELL) : clean;
  return cut.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/** Column letters of an index from 0: 0 → A, 26 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function rowXml(line: number, cells: ReadonlyArray<SheetCell>, style: number): string {
  const s = style ? ` s="${style}"` : '';
  let xml = `<row r="${line}">`;
  cells.forEach((cell, i) => {
    const ref = `${columnName(i)}${line}`;
    if (typeof cell === 'number' && Number.isFinite(cell)) xml += `<c r="${ref}"${s}><v>${cell}</v></c>`;
    else {
      const text = xmlText(typeof cell === 'number' ? '' : cell);
      if (text === '') return;
      xml += `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
    }
  });
  return `${xml}</row>`;
}

async function* sheetXml(sheet: SheetSource): AsyncGenerator<string> {
  yield `${XML}<worksheet xmlns="${NS}" xmlns:r="${REL_NS}"><sheetData>${rowXml(1, sheet.header, 1)}`;
  let line = 1;
  let batch = '';
  for await (const row of sheet.rows) {
    batch += rowXml(++line, row, 0);
    if (batch.length >= 64 * 1024) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}</sheetData></worksheet>`;
}

const STYLES =
  `${XML}<styleSheet xmlns="${NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** A sheet name Excel accepts: no []:*?/\ characters, at most 31 characters, unique in the workbook. */
export function sheetNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base =
      name
        .replace(/[[\]:*?/\\]/g, ' ')
        .slice(0, 28)
        .trim() || 'Sheet';
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${base} ${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** The workbook as a stream of zip bytes; a sheet's rows are read only when its part is written. */
export function xlsxStream(sheets: readonly SheetSource[]): Readable {
  const zip = new ZipFile();
  // A sheet whose rows fail (a database read) fails the file.
  zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
  const names = sheetNames(sheets.map((sheet) => sheet.name));
  const file = (path: string, text: string) => zip.addBuffer(Buffer.from(text), path);
  file(
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      names
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '</Types>',
  );
  file(
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_TYPE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  file(
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets>${names
      .map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`,
  );
  file(
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PKG_REL_NS}">${names
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL_TYPE}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join(
        '',
      )}<Relationship Id="rId${names.length + 1}" Type="${REL_TYPE}/styles" Target="styles.xml"/></Relationships>`,
  );
  file('xl/styles.xml', STYLES);
  sheets.forEach((sheet, i) => {
    zip.addReadStream(Readable.from(sheetXml(sheet)), `xl/worksheets/sheet${i + 1}.xml`);
  });
  zip.end();
  return zip.outputStream as Readable;
}

/** The workbook whole, for the small files made in memory. */
export async function xlsxBuffer(sheets: readonly SheetSource[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxStream(sheets)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
