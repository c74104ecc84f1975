/**
 * Noto Sans for every report, so that ₹, accented and Devanagari names print. @fontsource ships the
 * family split into unicode subsets (latin, latin-ext, devanagari); PDF fonts have no fallback, so the
 * text engine picks, per character, the first subset that has a glyph for it (see `fontRuns`).
 *
 * The files are parsed once per thread: the first document's fontkit objects are kept and handed to
 * every later document (pdfkit accepts a parsed font in place of a file).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';

export type Weight = 'regular' | 'bold';

const SUBSETS = ['latin', 'latin-ext', 'devanagari'] as const;
const WEIGHTS: Record<Weight, string> = { regular: '400', bold: '700' };

interface ParsedFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: string): unknown;
}

interface Face {
  /** The name the face is registered under in each document. */
  name: string;
  /** A parsed fontkit font when available, else the file's bytes. */
  source: ParsedFont | Buffer;
  has(codePoint: number): boolean;
}

/** Works from src (tsx, vitest) and from the esbuild bundle in dist/. */
function fontDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@fontsource/noto-sans/package.json')), 'files');
}

/**
 * Unpacks a WOFF file into the plain TrueType/OpenType font it wraps. fontkit reads WOFF directly but
 * inflates a table on every access, which made font subsetting most of a report's render time.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) return woff; // not 'wOFF': already a plain font
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const entry = 44 + i * 20;
    const tag = woff.readUInt32BE(entry);
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const checksum = woff.readUInt32BE(entry + 16);
    const raw = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    if (data.length !== origLength) throw new Error('Malformed WOFF font table');
    return { tag, checksum, data };
  });
  let searchRange = 1;
  let entrySelector = 0;
  while (searchRange * 2 <= numTables) {
    searchRange *= 2;
    entrySelector += 1;
  }
  const headerLength = 12 + numTables * 16;
  const total = tables.reduce((sum, table) => sum + ((table.data.length + 3) & ~3), headerLength);
  const out = Buffer.alloc(total);
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange * 16, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange * 16, 10);
  let offset = headerLength;
  tables.forEach((table, i) => {
    const entry = 12 + i * 16;
    out.writeUInt32BE(table.tag, entry);
    out.writeUInt32BE(table.checksum, entry + 4);
    out.writeUInt32BE(offset, entry + 8);
    out.writeUInt32BE(table.data.length, entry + 12);
    table.data.copy(out, offset);
    offset += (table.data.length + 3) & ~3;
  });
  return out;
}

let faces: Record<Weight, Face[]> | undefined;

function loadFaces(): Record<Weight, Face[]> {
  const directory = fontDirectory();
  // A throwaway document parses each file; its parsed fonts are reused by every report.
  const probe = new PDFDocument({ autoFirstPage: false });
  const load = (weight: Weight): Face[] =>
    SUBSETS.map((subset) => {
      const name = `noto-${subset}-${weight}`;
      const bytes = woffToSfnt(
        readFileSync(join(directory, `noto-sans-${subset}-${WEIGHTS[weight]}-normal.woff`)),
      );
      probe.registerFont(name, bytes);
      probe.font(name);
      const parsed = (probe as unknown as { _font?: { font?: Partial<ParsedFont> } })._font?.font;
      if (
        parsed &&
        typeof parsed.hasGlyphForCodePoint === 'function' &&
        typeof parsed.layout === 'function'
      ) {
        const font = parsed as ParsedFont;
        return { name, source: font, has: (cp: number) => font.hasGlyphForCodePoint(cp) };
      }
      // pdfkit internals changed: register the bytes per document; only latin is then trusted to cover.
      const latin = subset === 'latin';
      return { name, source: bytes, has: (cp: number) => latin && cp < 0x250 };
    });
  return { regular: load('regular'), bold: load('bold') };
}

export function fontFaces(): Record<Weight, Face[]> {
  faces ??= loadFaces();
  return faces;
}

/** Registers the report faces in a document. */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  trimLayoutCaches();
  const all = fontFaces();
  for (const face of [...all.regular, ...all.bold]) {
    doc.registerFont(face.name, face.source as Buffer);
  }
}

/**
 * pdfkit shapes every word with fontkit (OpenType substitutions and positioning) and caches the result
 * per document, so each report shaped its words again. The cache is shared by every document of the
 * thread instead: a shaped word depends only on the face. Checked for size every 100 documents.
 */
const layoutCaches = new Map<string, Record<string, unknown>>();
let documentsSinceCheck = 0;
const MAX_SHAPED_WORDS = 50_000;

export function sharedLayoutCache(face: string): Record<string, unknown> {
  let cache = layoutCaches.get(face);
  if (!cache) {
    cache = Object.create(null) as Record<string, unknown>;
    layoutCaches.set(face, cache);
  }
  return cache;
}

/** Called once per document: drops a face's shaped words when they have grown past the bound. */
export function trimLayoutCaches(): void {
  if (++documentsSinceCheck < 100) return;
  documentsSinceCheck = 0;
  for (const [face, cache] of layoutCaches) {
    if (Object.keys(cache).length > MAX_SHAPED_WORDS) layoutCaches.delete(face);
  }
}

const coverage: Record<Weight, Map<number, number>> = { regular: new Map(), bold: new Map() };

/** Bit i is set when face i of `weight` has a glyph for the code point. */
function coverageMask(weight: Weight, codePoint: number): number {
  const cache = coverage[weight];
  let mask = cache.get(codePoint);
  if (mask === undefined) {
    mask = 0;
    fontFaces()[weight].forEach((face, i) => {
      if (face.has(codePoint)) mask! |= 1 << i;
    });
    cache.set(codePoint, mask);
  }
  return mask;
}

/** Index of the first face of `weight` with a glyph for the code point, or -1. */
export function faceIndexFor(weight: Weight, codePoint: number): number {
  const mask = coverageMask(weight, codePoint);
  return mask === 0 ? -1 : 31 - Math.clz32(mask & -mask);
}

export function faceName(weight: Weight, index: number): string {
  return fontFaces()[weight][index]!.name;
}

export function hasGlyph(weight: Weight, text: string): boolean {
  for (const char of text) if (faceIndexFor(weight, char.codePointAt(0)!) < 0) return false;
  return true;
}

const MARK_OR_FORMAT = /^[\p{M}\p{Cf}]$/u;

export interface FontRun {
  font: string;
  text: string;
}

/**
 * Splits text into runs that one face can draw. A character stays with the current face while that face
 * has it (spaces, digits and punctuation exist in several subsets), else moves to the first face that
 * does. A character no face has is written as [U+XXXX] so nothing is silently lost; marks and format
 * characters without a glyph (emoji selectors, joiners) are dropped.
 */
export function fontRuns(text: string, weight: Weight): FontRun[] {
  const runs: FontRun[] = [];
  let current = -1;
  let buffer = '';
  const flush = () => {
    if (buffer) runs.push({ font: faceName(weight, current), text: buffer });
    buffer = '';
  };
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    let piece = char;
    const mask = coverageMask(weight, codePoint);
    let index = current >= 0 && mask & (1 << current) ? current : -1;
    if (index < 0) index = mask === 0 ? -1 : 31 - Math.clz32(mask & -mask);
    if (index < 0) {
      if (MARK_OR_FORMAT.test(char)) continue;
      piece = `[U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}]`;
      index = 0;
    }
    if (index !== current) {
      flush();
      current = index;
    }
    buffer += piece;
  }
  flush();
  return runs;
}
