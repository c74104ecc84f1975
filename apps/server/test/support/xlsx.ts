/**
 * Workbooks made by hand for tests: real zip archives (deflated with zlib) whose parts are written
 * here, so that a test can make what no spreadsheet program would: a sheet that inflates to a
 * gigabyte from a megabyte, a cell of 200 MB, 100,000 entries. Nothing is written to disk.
 */
import { crc32, deflateRawSync, constants as zlib } from 'node:zlib';

export interface ZipPart {
  name: string;
  /** The deflated bytes (raw deflate), the inflated size and the inflated bytes' CRC-32. */
  deflated: Buffer;
  size: number;
  crc: number;
}

/** A part deflated whole. */
export function part(name: string, text: string | Buffer): ZipPart {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text);
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * A part of `head`, then `body` `times` times, then `tail`, deflated without ever holding the inflated
 * text: `body` is deflated once with a full flush (which empties the window, so every copy deflates to
 * the same bytes) and the copies are repeated.
 */
export function repeatedPart(name: string, head: string, body: string, times: number, tail: string): ZipPart {
  const flush = (text: string) =>
    deflateRawSync(Buffer.from(text), { finishFlush: zlib.Z_FULL_FLUSH, level: 9 });
  const bodyBytes = Buffer.from(body);
  let crc = crc32(head);
  for (let i = 0; i < times; i++) crc = crc32(bodyBytes, crc);
  crc = crc32(tail, crc);
  const one = flush(body);
  const deflated = Buffer.concat([
    flush(head),
    Buffer.alloc(one.length * times),
    deflateRawSync(Buffer.from(tail)),
  ]);
  const start = flush(head).length;
  for (let i = 0; i < times; i++) one.copy(deflated, start + i * one.length);
  return {
    name,
    deflated,
    size: Buffer.byteLength(head) + bodyBytes.length * times + Buffer.byteLength(tail),
    crc,
  };
}

/**
 * A zip archive of the parts. `extraNames` adds central-directory entries that all point at the first
 * part's data (how 100,000 entries fit in a few megabytes); past 65,535 entries the zip64 end record
 * holds the count.
 */
export function zipOf(parts: ZipPart[], extraNames: string[] = []): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const offsets: number[] = [];
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt32LE(p.crc >>> 0, 14);
    header.writeUInt32LE(p.deflated.length, 18);
    header.writeUInt32LE(p.size, 22);
    header.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    locals.push(header, name, p.deflated);
    offset += 30 + name.length + p.deflated.length;
  }
  const record = (p: ZipPart, name: Buffer, at: number) => {
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(p.crc >>> 0, 16);
    entry.writeUInt32LE(p.deflated.length, 20);
    entry.writeUInt32LE(p.size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(at, 42);
    central.push(entry, name);
  };
  for (const [i, p] of parts.entries()) record(p, Buffer.from(p.name), offsets[i]!);
  for (const name of extraNames) record(parts[0]!, Buffer.from(name), 0);
  const count = parts.length + extraNames.length;
  const centralBytes = Buffer.concat(central);
  const tail: Buffer[] = [];
  if (count > 0xffff) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE(45, 12);
    end64.writeUInt16LE(45, 14);
    end64.writeBigUInt64LE(BigInt(count), 24);
    end64.writeBigUInt64LE(BigInt(count), 32);
    end64.writeBigUInt64LE(BigInt(centralBytes.length), 40);
    end64.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + centralBytes.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(end64, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, ...tail, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts every workbook has, for one sheet (xl/worksheets/sheet1.xml) and shared strings. */
export function workbookParts(): ZipPart[] {
  return [
    part(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    ),
    part(
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${TYPE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    part(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${TYPE}"><sheets><sheet name="List" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${TYPE}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${TYPE}/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>`,
    ),
  ];
}

export const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';
export const STRINGS_HEAD = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">`;

/** A workbook of one sheet (its rows' XML) and shared strings (their <si> XML). */
export const workbookOf = (rows: string, strings = '') =>
  zipOf([
    ...workbookParts(),
    part('xl/worksheets/sheet1.xml', SHEET_HEAD + rows + SHEET_TAIL),
    part('xl/sharedStrings.xml', `${STRINGS_HEAD}${strings}</sst>`),
  ]);

/** The four hostile workbooks of issue 32, each a few megabytes at most. */
export const hostile = {
  /** ~1 MB that inflates to ~1 GiB: a row, then a mebibyte of blanks, 1,024 times. */
  bomb: () => {
    const row = '<row><c t="inlineStr"><is><t>9876543210</t></is></c></row>';
    return zipOf([
      ...workbookParts(),
      part('xl/sharedStrings.xml', `${STRINGS_HEAD}</sst>`),
      repeatedPart(
        'xl/worksheets/sheet1.xml',
        SHEET_HEAD,
        row + ' '.repeat(2 ** 20 - row.length),
        1_024,
        SHEET_TAIL,
      ),
    ]);
  },
  /** A million rows, a few hundred kilobytes. */
  millionRows: () =>
    zipOf([
      ...workbookParts(),
      part('xl/sharedStrings.xml', `${STRINGS_HEAD}<si><t>9876543210</t></si></sst>`),
      repeatedPart(
        'xl/worksheets/sheet1.xml',
        SHEET_HEAD,
        '<row><c t="s"><v>0</v></c></row>'.repeat(10_000),
        100,
        SHEET_TAIL,
      ),
    ]),
  /** One cell of 200 MB, as a shared string. */
  hugeCell: () =>
    zipOf([
      ...workbookParts(),
      part(
        'xl/worksheets/sheet1.xml',
        `${SHEET_HEAD}<row r="1"><c r="A1" t="s"><v>0</v></c></row>${SHEET_TAIL}`,
      ),
      repeatedPart(
        'xl/sharedStrings.xml',
        `${STRINGS_HEAD}<si><t>`,
        'A'.repeat(1024 * 1024),
        200,
        '</t></si></sst>',
      ),
    ]),
  /** 100,000 entries (their central-directory records share one part's data). */
  manyEntries: () =>
    zipOf(
      workbookParts(),
      Array.from({ length: 100_000 }, (_, i) => i.toString(36).padStart(4, '0')),
    ),
};
