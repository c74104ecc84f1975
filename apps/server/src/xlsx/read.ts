/**
 * A bounded XLSX reader: the zip's central directory through yauzl, each part inflated as a stream and
 * fed to a SAX parser (sax, whose buffers never grow past 64 KB), and only the parts a table needs
 * (workbook, its relationships, shared strings, the sheets asked for). Every limit is enforced while the
 * bytes arrive, before more than the limit is inflated: the number of zip entries, the inflated bytes
 * (counted as they stream, whatever the zip's headers declare), the characters of a cell, the shared
 * strings, the nesting and attributes of the XML. The caller sees one row at a time and may stop the
 * read by throwing.
 *
 * No maintained package reads XLSX as a stream with such limits (exceljs's streaming reader inflates
 * through the unmaintained unzipper 0.10; read-excel-file and SheetJS load the whole archive), so this
 * is the thin part between two kept libraries.
 */
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import sax from 'sax';
import yauzl from 'yauzl';

export interface XlsxLimits {
  /** Entries in the zip's central directory. */
  maxEntries: number;
  /** Inflated bytes of the parts read, in all (one part cannot pass it either). */
  maxUnpackedBytes: number;
  /** Characters of one cell (and of one shared string). */
  maxCellChars: number;
  /** Strings in the shared-strings table. */
  maxSharedStrings: number;
}

/** Why a workbook was refused: the caller turns each into its own answer. */
export type XlsxRefusal = 'unreadable' | 'entries' | 'unpacked' | 'cell';

export class XlsxLimitError extends Error {
  constructor(
    readonly reason: XlsxRefusal,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** What the caller's row function threw, carried out of the parser untouched. */
class Stopped extends Error {
  constructor(override readonly cause: unknown) {
    super('stopped by the caller');
  }
}

const refuse = (reason: XlsxRefusal, detail: string) => new XlsxLimitError(reason, detail);

/** Excel's own limits: 16,384 columns; deeper XML than this is no spreadsheet. */
const MAX_COLUMNS = 16_384;
const MAX_DEPTH = 64;
const MAX_ATTRIBUTES = 64;

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** An attribute by its local name, whatever its prefix (r:id, id). */
function attribute(attributes: Record<string, string>, name: string): string | undefined {
  const plain = attributes[name];
  if (plain !== undefined) return plain;
  for (const key in attributes) if (local(key) === name) return attributes[key];
  return undefined;
}

interface Part {
  open: (name: string, attributes: Record<string, string>) => void;
  close: (name: string) => void;
  text: (text: string) => void;
}

type Zip = yauzl.ZipFile;

const openZip = (buffer: Buffer) =>
  new Promise<Zip>((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (error, zip) => (error ? reject(refuse('unreadable', error.message)) : resolve(zip)),
    );
  });

/** The entries of the central directory (no byte inflated yet), at most `max` of them. */
const entriesOf = (zip: Zip, max: number) =>
  new Promise<Map<string, yauzl.Entry>>((resolve, reject) => {
    if (zip.entryCount > max) {
      reject(refuse('entries', `${zip.entryCount} entries`));
      return;
    }
    const entries = new Map<string, yauzl.Entry>();
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entries.size >= max) {
        reject(refuse('entries', `more than ${max} entries`));
        zip.close();
        return;
      }
      entries.set(entry.fileName.replace(/^\/+/, ''), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: Error) => reject(refuse('unreadable', error.message)));
    zip.readEntry();
  });

const streamOf = (zip: Zip, entry: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) =>
      error ? reject(refuse('unreadable', error.message)) : resolve(stream),
    );
  });

class Reader {
  private unpacked = 0;

  constructor(
    private readonly zip: Zip,
    private readonly entries: Map<string, yauzl.Entry>,
    readonly limits: XlsxLimits,
  ) {}

  has(path: string) {
    return this.entries.has(path);
  }

  /** Inflates one part as a stream into the SAX parser, counting its bytes against the limit. */
  async read(path: string, part: Part): Promise<void> {
    const entry = this.entries.get(path);
    if (!entry) throw refuse('unreadable', `no ${path}`);
    const left = this.limits.maxUnpackedBytes - this.unpacked;
    // The declared size is a first, cheap refusal; the count below is the one trusted.
    if (entry.uncompressedSize > left) throw refuse('unpacked', `${path} declares ${entry.uncompressedSize}`);
    const parser = sax.parser(true, { trim: false, normalize: false, position: true });
    let depth = 0;
    let attributes = 0;
    parser.onerror = (error) => {
      throw refuse('unreadable', error.message);
    };
    parser.ondoctype = () => {
      throw refuse('unreadable', 'a DOCTYPE');
    };
    parser.onopentagstart = () => {
      attributes = 0;
      if (++depth > MAX_DEPTH) throw refuse('unreadable', 'XML nested too deep');
    };
    parser.onattribute = () => {
      if (++attributes > MAX_ATTRIBUTES) throw refuse('unreadable', 'too many attributes');
    };
    parser.onopentag = (tag) => {
      part.open(local(tag.name), tag.attributes as Record<string, string>);
    };
    parser.onclosetag = (name) => {
      depth--;
      part.close(local(name));
    };
    parser.ontext = part.text;
    parser.oncdata = part.text;
    const stream = await streamOf(this.zip, entry);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.unpacked += chunk.length;
        if (this.unpacked > this.limits.maxUnpackedBytes)
          throw refuse('unpacked', `${path} inflates past the limit`);
        parser.write(decoder.decode(chunk, { stream: true }));
      }
      parser.write(decoder.decode());
      parser.close();
    } catch (error) {
      if (error instanceof XlsxLimitError || error instanceof Stopped) throw error;
      throw refuse('unreadable', (error as Error).message);
    } finally {
      stream.destroy();
    }
  }
}

/** A relationship part (xx/_rels/yy.rels) as id → [type, absolute target]. */
async function relationships(reader: Reader, of: string): Promise<Map<string, [string, string]>> {
  const path = posix.join(posix.dirname(of), '_rels', `${posix.basename(of)}.rels`);
  const found = new Map<string, [string, string]>();
  if (!reader.has(path)) return found;
  await reader.read(path, {
    open: (name, attributes) => {
      if (name !== 'Relationship') return;
      const id = attribute(attributes, 'Id');
      const target = attribute(attributes, 'Target');
      if (!id || !target || attribute(attributes, 'TargetMode') === 'External') return;
      const absolute = target.startsWith('/')
        ? target.slice(1)
        : posix.normalize(posix.join(posix.dirname(of), target));
      found.set(id, [attribute(attributes, 'Type') ?? '', absolute]);
    },
    close: () => {},
    text: () => {},
  });
  return found;
}

/** Text of one cell or string, refused once it passes the cell limit. */
class TextBuffer {
  private parts: string[] = [];
  private length = 0;
  constructor(private readonly max: number) {}
  add(text: string) {
    this.length += text.length;
    if (this.length > this.max) throw refuse('cell', `a cell of more than ${this.max} characters`);
    this.parts.push(text);
  }
  take(): string {
    const text = this.parts.join('');
    this.parts = [];
    this.length = 0;
    return text;
  }
}

async function sharedStrings(reader: Reader, path: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!path || !reader.has(path)) return strings;
  const buffer = new TextBuffer(reader.limits.maxCellChars);
  let inString = false;
  let inText = false;
  let phonetic = 0;
  await reader.read(path, {
    open: (name) => {
      if (name === 'si') {
        if (strings.length >= reader.limits.maxSharedStrings)
          throw refuse('unpacked', `more than ${reader.limits.maxSharedStrings} shared strings`);
        inString = true;
      } else if (name === 'rPh') phonetic++;
      else if (name === 't' && inString && phonetic === 0) inText = true;
    },
    close: (name) => {
      if (name === 'si') {
        strings.push(buffer.take());
        inString = false;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
    text: (text) => {
      if (inText) buffer.add(text);
    },
  });
  return strings;
}

/** Column index (from 0) of a cell reference like 'B7'; null when it has none. */
function columnOf(reference: string | undefined): number | null {
  if (!reference) return null;
  let column = 0;
  let i = 0;
  for (; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    if (column > MAX_COLUMNS) throw refuse('unreadable', `column ${reference}`);
  }
  return i === 0 ? null : column - 1;
}

/** A cell's value as text: numbers as digits (integers without exponent), booleans as true/false. */
function cellText(type: string, value: string, inline: string, strings: string[]): string {
  switch (type) {
    case 's':
      return strings[Number(value)] ?? '';
    case 'inlineStr':
      return inline;
    case 'str':
    case 'd':
      return value;
    case 'b':
      return value.trim() === '1' ? 'true' : value.trim() === '0' ? 'false' : '';
    case 'e':
      return '';
    default: {
      if (value.trim() === '') return '';
      const number = Number(value);
      if (!Number.isFinite(number)) return value;
      return Number.isInteger(number) ? number.toFixed(0) : String(number);
    }
  }
}

export interface SheetRow {
  /** The row's number as a spreadsheet shows it (from 1). */
  line: number;
  /** Its cells as text, by column; empty cells are ''. */
  cells: string[];
}

/** Reads one worksheet, row by row: a row with no cell is not given. */
async function readSheet(
  reader: Reader,
  path: string,
  strings: string[],
  onRow: (row: SheetRow) => void,
): Promise<void> {
  const value = new TextBuffer(reader.limits.maxCellChars);
  const inline = new TextBuffer(reader.limits.maxCellChars);
  let line = 0;
  let cells: string[] | null = null;
  let column = -1;
  let type = 'n';
  let inValue = false;
  let inInline = false;
  let phonetic = 0;
  let nonEmpty = false;
  await reader.read(path, {
    open: (name, attributes) => {
      if (name === 'row') {
        const r = Number(attribute(attributes, 'r'));
        line = Number.isInteger(r) && r > 0 ? r : line + 1;
        cells = [];
        column = -1;
        nonEmpty = false;
      } else if (name === 'c' && cells) {
        column = columnOf(attribute(attributes, 'r')) ?? column + 1;
        if (column >= MAX_COLUMNS) throw refuse('unreadable', 'too many columns');
        type = attribute(attributes, 't') ?? 'n';
      } else if (name === 'v' && cells) inValue = true;
      else if (name === 'is' && cells) inInline = true;
      else if (name === 'rPh') phonetic++;
    },
    close: (name) => {
      if (name === 'v') inValue = false;
      else if (name === 'is') inInline = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'c' && cells) {
        const text = cellText(type, value.take(), inline.take(), strings);
        if (text !== '') {
          while (cells.length < column) cells.push('');
          cells[column] = text;
          nonEmpty = true;
        }
      } else if (name === 'row' && cells) {
        const row = cells;
        cells = null;
        if (nonEmpty)
          try {
            onRow({ line, cells: row });
          } catch (error) {
            throw new Stopped(error);
          }
      }
    },
    text: (text) => {
      if (inValue) value.add(text);
      else if (inInline && phonetic === 0) inline.add(text);
    },
  });
}

export interface SheetInfo {
  name: string;
  path: string;
}

/**
 * Opens a workbook and reads its sheets: `onSheet` says, per sheet in the workbook's order, whether to
 * read it and gives the function that takes its rows. Only those sheets and the shared strings are
 * inflated.
 */
export async function readWorkbook(
  buffer: Buffer,
  limits: XlsxLimits,
  onSheet: (sheet: SheetInfo, index: number) => ((row: SheetRow) => void) | null,
): Promise<void> {
  const zip = await openZip(buffer);
  try {
    const reader = new Reader(zip, await entriesOf(zip, limits.maxEntries), limits);
    const root = await relationships(reader, '');
    const office =
      [...root.values()].find(([type]) => type.endsWith('/officeDocument'))?.[1] ?? 'xl/workbook.xml';
    const sheets: Array<{ name: string; id: string }> = [];
    await reader.read(office, {
      open: (name, attributes) => {
        if (name !== 'sheet') return;
        const id = attribute(attributes, 'id');
        if (id) sheets.push({ name: attribute(attributes, 'name') ?? '', id });
      },
      close: () => {},
      text: () => {},
    });
    const related = await relationships(reader, office);
    const stringsPath = [...related.values()].find(([type]) => type.endsWith('/sharedStrings'))?.[1];
    let strings: string[] | null = null;
    for (const [index, sheet] of sheets.entries()) {
      const path = related.get(sheet.id)?.[1];
      if (!path) throw refuse('unreadable', `sheet ${sheet.name} has no part`);
      const onRow = onSheet({ name: sheet.name, path }, index);
      if (!onRow) continue;
      strings ??= await sharedStrings(reader, stringsPath);
      await readSheet(reader, path, strings, onRow);
    }
    if (sheets.length === 0) throw refuse('unreadable', 'no sheet');
  } catch (error) {
    throw error instanceof Stopped ? error.cause : error;
  } finally {
    zip.close();
  }
}

/** Every sheet of a workbook, whole (for files this server wrote, and tests). */
export async function readAllSheets(
  buffer: Buffer,
  limits: XlsxLimits,
): Promise<Array<{ name: string; rows: string[][] }>> {
  const sheets: Array<{ name: string; rows: string[][] }> = [];
  await readWorkbook(buffer, limits, (info) => {
    const sheet = { name: info.name, rows: [] as string[][] };
    sheets.push(sheet);
    return (row) => {
      while (sheet.rows.length < row.line - 1) sheet.rows.push([]);
      sheet.rows.push(row.cells);
    };
  });
  return sheets;
}
