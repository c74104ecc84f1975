/**
 * A small layout engine on top of pdfkit. pdfkit's own wrapper knows one font per call, and a report
 * line mixes faces (latin, latin-ext and Devanagari subsets), weights, sizes and source chips. So text
 * is measured and broken here, and drawn piece by piece with line breaking switched off in pdfkit.
 *
 * The Writer flows content down A4 pages: every block first asks for the room it needs (`ensure`),
 * tables repeat their title and column header on each new page and split a row only when it cannot fit
 * on a page of its own, and headers and footers are drawn last, over every buffered page, so they can
 * say 'Page X of Y'.
 */
import { fontRuns, sharedLayoutCache, type Weight } from './fonts.ts';

// ---------- theme ----------

export const COLOR = {
  navy: '#0C2340',
  ink: '#18212D',
  body: '#2A3442',
  muted: '#5E6B7B',
  faint: '#8995A4',
  rule: '#DCE2E9',
  ruleStrong: '#B9C3CF',
  headerFill: '#EEF2F6',
  panel: '#F6F8FA',
  accent: '#1B5FAA',
  accentSoft: '#E7F0FA',
  amber: '#8A4A00',
  amberFill: '#FFF5E2',
  amberLine: '#E9B45C',
  red: '#A8261B',
  redFill: '#FDECEA',
  green: '#1D6E3A',
  greenFill: '#E7F4EC',
  greyFill: '#EEF0F3',
  white: '#FFFFFF',
} as const;

export interface ChipStyle {
  fill: string;
  stroke?: string;
}

export interface TextStyle {
  weight?: Weight;
  size: number;
  color: string;
  /** Line height as a multiple of the size (default 1.38). */
  leading?: number;
  /** Draws the span as one unbreakable pill. */
  chip?: ChipStyle;
}

export type Span = { text: string; style: TextStyle } | { gap: number };

export const STYLE = {
  body: { size: 9, color: COLOR.body },
  bodyBold: { size: 9, color: COLOR.ink, weight: 'bold' },
  small: { size: 7.5, color: COLOR.muted },
  smallBold: { size: 7.5, color: COLOR.muted, weight: 'bold' },
  key: { size: 8, color: COLOR.muted, weight: 'bold' },
  label: { size: 7.6, color: COLOR.muted, weight: 'bold' },
  columnHeader: { size: 6.8, color: COLOR.muted, weight: 'bold' },
  value: { size: 9.5, color: COLOR.ink },
  valueBold: { size: 9.5, color: COLOR.ink, weight: 'bold' },
  narrative: { size: 9.8, color: COLOR.body, leading: 1.55 },
} as const satisfies Record<string, TextStyle>;

export const text = (value: string, style: TextStyle): Span => ({ text: value, style });
export const gap = (width: number): Span => ({ gap: width });
export const chip = (value: string, fill: string, color: string, size = 7, stroke?: string): Span => ({
  text: value,
  style: { size, color, weight: 'bold', chip: stroke ? { fill, stroke } : { fill } },
});

/** 'LABEL' above a value, as used in fact grids and tiles. */
export const labelled = (label: string, value: Span[]): Span[] => [text(`${label}\n`, STYLE.label), ...value];

// ---------- measuring and breaking ----------

const ASCENT = 1.069;
const LINE_BOX = 1.362;
const DEFAULT_LEADING = 1.38;
const CHIP_HEIGHT = 1.72;
const CHIP_PAD_X = 0.62;
/** Baseline of chip text below the chip's top, in sizes: vertically centred on the cap height. */
const CHIP_BASELINE = CHIP_HEIGHT / 2 + 0.357;

interface Piece {
  font: string;
  text: string;
  width: number;
}

interface Token {
  kind: 'word' | 'space' | 'chip' | 'gap' | 'newline';
  style: TextStyle;
  pieces: Piece[];
  width: number;
}

export interface Line {
  tokens: Token[];
  width: number;
  height: number;
  /** Distance from the line's top to its baseline. */
  baseline: number;
}

const NO_STYLE: TextStyle = { size: 0, color: COLOR.body };

/** Widths of (font, text) at size 1, shared by every document of this thread (the fonts are shared). */
const widthCache = new Map<string, number>();

interface UnitRun {
  font: string;
  text: string;
  /** Width at size 1. */
  unit: number;
}

/** A text's face runs (fontRuns) with their widths at size 1, by weight and text. */
const runCache = new Map<string, UnitRun[]>();
let segmenter: Intl.Segmenter | undefined;
const SOFT_BREAKS = ['/', '?', '&', '=', '-', '_', '.', '@', ','];

function tokenHeight(token: Token): { height: number; baseline: number } {
  const size = token.style.size;
  if (token.kind === 'chip') {
    const height = size * CHIP_HEIGHT + 1.5;
    return { height, baseline: 0.75 + size * CHIP_BASELINE };
  }
  const height = size * (token.style.leading ?? DEFAULT_LEADING);
  return { height, baseline: (height - size * LINE_BOX) / 2 + size * ASCENT };
}

/** One glyph's place as pdfkit's font layout gives it (in thousandths of the size). */
interface GlyphPosition {
  xAdvance: number;
  advanceWidth: number;
  xOffset: number;
  yOffset: number;
}

/**
 * The parts of pdfkit's embedded font the text path uses: `encode` adds the glyphs to the document's
 * subset (and its ToUnicode map and widths) and gives their codes; `layoutCache` is its per-document
 * cache of shaped words, replaced by one shared by every document of the thread.
 */
interface EmbeddedFont {
  id: string;
  ascender: number;
  layoutCache?: Record<string, unknown>;
  encode(text: string): [string[], GlyphPosition[]];
  ref(): unknown;
}

const isEmbeddedFont = (font: unknown): font is EmbeddedFont => {
  const f = font as Partial<EmbeddedFont> | undefined;
  return (
    typeof f?.encode === 'function' &&
    typeof f.ref === 'function' &&
    typeof f.id === 'string' &&
    typeof f.ascender === 'number' &&
    typeof f.layoutCache === 'object'
  );
};

/** PDF number as pdfkit writes it (6 decimals at most). */
const num = (n: number): number => Math.round(n * 1e6) / 1e6;

/** '#RRGGBB' → the PDF fill operator, once per colour. */
const fillOps = new Map<string, string>();
function fillOp(color: string): string {
  let op = fillOps.get(color);
  if (op === undefined) {
    const hex = Number.parseInt(color.slice(1), 16);
    op = `${num((hex >> 16) / 255)} ${num(((hex >> 8) & 0xff) / 255)} ${num((hex & 0xff) / 255)} rg`;
    fillOps.set(color, op);
  }
  return op;
}

/** '#RRGGBB' → the PDF stroke colour operator. */
const strokeOp = (color: string): string => `${fillOp(color).slice(0, -2)}RG`;

const KAPPA = (4 * (Math.SQRT2 - 1)) / 3;

/** The path of a rectangle with round corners, as pdfkit's roundedRect draws it. */
function roundedRectPath(x: number, y: number, w: number, h: number, radius: number): string {
  const r = Math.max(0, Math.min(radius, 0.5 * w, 0.5 * h));
  if (r === 0) return `${num(x)} ${num(y)} ${num(w)} ${num(h)} re`;
  const c = r * (1 - KAPPA);
  const right = x + w;
  const bottom = y + h;
  return [
    `${num(x + r)} ${num(y)} m`,
    `${num(right - r)} ${num(y)} l`,
    `${num(right - c)} ${num(y)} ${num(right)} ${num(y + c)} ${num(right)} ${num(y + r)} c`,
    `${num(right)} ${num(bottom - r)} l`,
    `${num(right)} ${num(bottom - c)} ${num(right - c)} ${num(bottom)} ${num(right - r)} ${num(bottom)} c`,
    `${num(x + r)} ${num(bottom)} l`,
    `${num(x + c)} ${num(bottom)} ${num(x)} ${num(bottom - c)} ${num(x)} ${num(bottom - r)} c`,
    `${num(x)} ${num(y + r)} l`,
    `${num(x)} ${num(y + c)} ${num(x + c)} ${num(y)} ${num(x + r)} ${num(y)} c`,
    'h',
  ].join('\n');
}

/**
 * Writes operators into the current page as bytes. pdfkit turns each string it is given into bytes
 * one character at a time in JavaScript; Buffer does it natively.
 */
function writeOps(doc: PDFKit.PDFDocument, ops: string): void {
  const page = doc.page as unknown as { write?: (chunk: Uint8Array) => void };
  if (typeof page.write === 'function') page.write(Buffer.from(`${ops}\n`, 'latin1'));
  else doc.addContent(ops);
}

/**
 * Shapes drawn straight into the page, one write each: pdfkit writes every path segment, colour and
 * paint operator as its own chunk. Coordinates are the page's (top left origin), as with pdfkit.
 */
export const shape = {
  /** A filled rectangle, with round corners when `radius` is given, optionally outlined. */
  box(
    doc: PDFKit.PDFDocument,
    box: { x: number; y: number; width: number; height: number; radius?: number },
    fill: string,
    stroke?: { color: string; width: number },
  ): void {
    const path = roundedRectPath(box.x, box.y, box.width, box.height, box.radius ?? 0);
    writeOps(
      doc,
      stroke
        ? `${num(stroke.width)} w\n${strokeOp(stroke.color)}\n${fillOp(fill)}\n${path}\nB`
        : `${fillOp(fill)}\n${path}\nf`,
    );
  },
  /** A horizontal rule. */
  rule(doc: PDFKit.PDFDocument, x1: number, x2: number, y: number, width: number, color: string): void {
    writeOps(doc, `${num(width)} w\n${strokeOp(color)}\n${num(x1)} ${num(y)} m\n${num(x2)} ${num(y)} l\nS`);
  },
};

/**
 * Text operators of one line, written as one block. Neighbouring pieces of the same face, size and
 * colour share one TJ array, the space between them written as a move of the pen. pdfkit's own
 * `text()` writes a block per word, shapes and measures each word again and saves and restores the
 * graphics state around it, which was most of a report's render time.
 */
class TextBlock {
  private readonly ops: string[] = [];
  private font = '';
  private size = 0;
  private color = '';
  /** The open TJ array's glyph strings, its baseline and where its pen stands. */
  private readonly run: string[] = [];
  private runY = Number.NaN;
  private pen = 0;

  add(
    font: EmbeddedFont,
    size: number,
    color: string,
    x: number,
    y: number,
    glyphs: string,
    width: number,
  ): void {
    if (font.id === this.font && size === this.size && color === this.color && y === this.runY) {
      const move = num(((this.pen - x) * 1000) / size);
      if (move !== 0) this.run.push(String(move));
      this.run.push(glyphs);
      this.pen = x + width;
      return;
    }
    this.close();
    if (font.id !== this.font || size !== this.size) {
      this.ops.push(`/${font.id} ${num(size)} Tf`);
      this.font = font.id;
      this.size = size;
    }
    if (color !== this.color) {
      this.ops.push(fillOp(color));
      this.color = color;
    }
    this.ops.push(`1 0 0 1 ${num(x)} ${num(y)} Tm`);
    this.run.push(glyphs);
    this.runY = y;
    this.pen = x + width;
  }

  private close(): void {
    if (this.run.length === 0) return;
    this.ops.push(`[${this.run.join(' ')}] TJ`);
    this.run.length = 0;
    this.runY = Number.NaN;
  }

  /** Writes the block into the page (its own graphics state: nothing leaks into later drawing). */
  flush(doc: PDFKit.PDFDocument): void {
    this.close();
    if (this.ops.length === 0) return;
    const height = (doc.page as unknown as { height: number }).height;
    writeOps(doc, `q\n1 0 0 -1 0 ${num(height)} cm\nBT\n${this.ops.join('\n')}\nET\nQ`);
    this.ops.length = 0;
    this.font = '';
    this.size = 0;
    this.color = '';
  }
}

export class TextEngine {
  /** The document's embedded fonts by face name; `null` when pdfkit's internals are not as expected. */
  private readonly fonts = new Map<string, EmbeddedFont | null>();
  /** TJ array elements of a (face, text) in this document, or `null` when a glyph is offset (pdfkit draws it). */
  private readonly encoded = new Map<string, string | null>();
  /** Text drawn but not yet written to the page, and how many callers hold it back. */
  private readonly block = new TextBlock();
  private holds = 0;

  constructor(private readonly doc: PDFKit.PDFDocument) {}

  private unitWidth(font: string, value: string): number {
    const key = `${font}\u0000${value}`;
    let width = widthCache.get(key);
    if (width === undefined) {
      this.embedded(font);
      width = this.doc.font(font).fontSize(1).widthOfString(value);
      if (widthCache.size > 200_000) widthCache.clear();
      widthCache.set(key, width);
    }
    return width;
  }

  /** The document's embedded font for a face, sharing the thread's cache of shaped words. */
  private embedded(name: string): EmbeddedFont | null {
    let font = this.fonts.get(name);
    if (font === undefined) {
      this.doc.font(name);
      const candidate = (this.doc as unknown as { _font?: unknown })._font;
      font = isEmbeddedFont(candidate) ? candidate : null;
      if (font) font.layoutCache = sharedLayoutCache(name);
      this.fonts.set(name, font);
    }
    return font;
  }

  /** The glyph strings of a piece for a TJ array, or null when pdfkit has to draw it (a glyph with an offset). */
  private glyphs(font: EmbeddedFont, name: string, value: string): string | null {
    const key = `${name}\u0000${value}`;
    let glyphs = this.encoded.get(key);
    if (glyphs === undefined) {
      const [codes, positions] = font.encode(value);
      const parts: string[] = [];
      let last = 0;
      glyphs = '';
      for (let i = 0; i < positions.length; i++) {
        const position = positions[i]!;
        if (position.xOffset || position.yOffset) {
          glyphs = null;
          break;
        }
        const kern = position.xAdvance - position.advanceWidth;
        if (kern !== 0 || i === positions.length - 1) {
          parts.push(`<${codes.slice(last, i + 1).join('')}>`);
          if (kern !== 0) parts.push(String(num(-kern)));
          last = i + 1;
        }
      }
      if (glyphs !== null) glyphs = parts.join(' ');
      this.encoded.set(key, glyphs);
    }
    return glyphs;
  }

  /** The face runs of a text with their widths at size 1, shared by every document of this thread. */
  private runs(value: string, weight: Weight): UnitRun[] {
    const key = `${weight}\u0000${value}`;
    let runs = runCache.get(key);
    if (runs === undefined) {
      runs = fontRuns(value, weight).map((run) => ({
        font: run.font,
        text: run.text,
        unit: this.unitWidth(run.font, run.text),
      }));
      if (runCache.size > 200_000) runCache.clear();
      runCache.set(key, runs);
    }
    return runs;
  }

  private pieces(value: string, style: TextStyle): Piece[] {
    const runs = this.runs(value, style.weight ?? 'regular');
    const pieces: Piece[] = new Array(runs.length);
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!;
      pieces[i] = { font: run.font, text: run.text, width: run.unit * style.size };
    }
    return pieces;
  }

  private token(kind: Token['kind'], value: string, style: TextStyle): Token {
    const pieces = this.pieces(value, style);
    let width = pieces.reduce((sum, piece) => sum + piece.width, 0);
    if (kind === 'chip') width += 2 * CHIP_PAD_X * style.size;
    return { kind, style, pieces, width };
  }

  width(value: string, style: TextStyle): number {
    return this.token(style.chip ? 'chip' : 'word', value, style).width;
  }

  private tokenize(spans: Span[]): Token[] {
    const tokens: Token[] = [];
    for (const span of spans) {
      if ('gap' in span) {
        tokens.push({ kind: 'gap', style: NO_STYLE, pieces: [], width: span.gap });
        continue;
      }
      if (!span.text) continue;
      if (span.style.chip) {
        tokens.push(this.token('chip', span.text.replace(/\s+/g, ' '), span.style));
        continue;
      }
      for (const part of span.text.split(/(\n| +)/)) {
        if (!part) continue;
        if (part === '\n') tokens.push({ kind: 'newline', style: span.style, pieces: [], width: 0 });
        else if (part.startsWith(' ')) tokens.push(this.token('space', ' ', span.style));
        else tokens.push(this.token('word', part, span.style));
      }
    }
    return tokens;
  }

  /**
   * Cuts a word wider than a line into line-wide chunks between grapheme clusters, preferring a cut
   * after URL and address punctuation when one is in the second half of the chunk.
   */
  private split(token: Token, maxWidth: number): Token[] {
    segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
    const value = token.pieces.map((piece) => piece.text).join('');
    const chunks: Token[] = [];
    let current = '';
    let width = 0;
    for (const { segment } of segmenter.segment(value)) {
      const segmentWidth = this.token(token.kind, segment, token.style).width;
      if (current && width + segmentWidth > maxWidth) {
        let cut = current.length;
        const soft = Math.max(...SOFT_BREAKS.map((mark) => current.lastIndexOf(mark)));
        if (soft >= current.length / 2 && soft < current.length - 1) cut = soft + 1;
        chunks.push(this.token(token.kind, current.slice(0, cut), token.style));
        current = current.slice(cut);
        width = current ? this.token(token.kind, current, token.style).width : 0;
      }
      current += segment;
      width += segmentWidth;
    }
    if (current) chunks.push(this.token(token.kind, current, token.style));
    return chunks;
  }

  /** Breaks spans into lines no wider than `maxWidth` (a chip wider than that is cut with '…'). */
  wrap(spans: Span[], maxWidth: number): Line[] {
    const lines: Line[] = [];
    let tokens: Token[] = [];
    let width = 0;
    let lastStyle: TextStyle | undefined;
    const finish = () => {
      while (tokens.length > 0 && ['space', 'gap'].includes(tokens[tokens.length - 1]!.kind)) {
        width -= tokens.pop()!.width;
      }
      lines.push(measureLine(tokens, width, lastStyle));
      tokens = [];
      width = 0;
    };
    const place = (token: Token) => {
      tokens.push(token);
      width += token.width;
    };
    for (const token of this.tokenize(spans)) {
      if (token.style !== NO_STYLE) lastStyle = token.style;
      if (token.kind === 'newline') {
        finish();
        continue;
      }
      if (token.kind === 'space' || token.kind === 'gap') {
        if (tokens.length > 0) place(token);
        continue;
      }
      if (width + token.width <= maxWidth + 0.01) {
        place(token);
        continue;
      }
      if (tokens.length > 0) finish();
      if (token.width <= maxWidth) {
        place(token);
      } else if (token.kind === 'chip') {
        place(this.ellipsize(token, maxWidth));
      } else {
        const chunks = this.split(token, maxWidth);
        chunks.forEach((chunk, i) => {
          place(chunk);
          if (i < chunks.length - 1) finish();
        });
      }
    }
    if (tokens.length > 0 || lines.length === 0) finish();
    return lines;
  }

  private ellipsize(token: Token, maxWidth: number): Token {
    const chars = Array.from(token.pieces.map((piece) => piece.text).join(''));
    while (chars.length > 1) {
      chars.pop();
      const shorter = this.token('chip', `${chars.join('')}…`, token.style);
      if (shorter.width <= maxWidth) return shorter;
    }
    return token;
  }

  /**
   * Holds the text of the lines drawn next back until `release`, to write them as one block. Only for
   * lines no shape drawn meanwhile covers: shapes go to the page at once, the held text after them.
   */
  hold(): void {
    this.holds += 1;
  }

  release(): void {
    this.holds = Math.max(0, this.holds - 1);
    if (this.holds === 0) this.flush();
  }

  /** Writes the held text to the current page (before a page is left). */
  flush(): void {
    this.block.flush(this.doc);
  }

  /** Draws one line with its top at `y`. */
  drawLine(line: Line, x: number, y: number): void {
    const doc = this.doc;
    const baseline = y + line.baseline;
    const { block } = this;
    let cursor = x;
    for (const token of line.tokens) {
      const { style } = token;
      if (token.kind === 'chip' && style.chip) {
        // The pill is drawn now, its text with the line's other text after it: on top of it.
        const height = style.size * CHIP_HEIGHT;
        const top = baseline - style.size * CHIP_BASELINE;
        const pill = { x: cursor, y: top, width: token.width, height, radius: height / 2 };
        const stroke = style.chip.stroke;
        shape.box(doc, pill, style.chip.fill, stroke ? { color: stroke, width: 0.6 } : undefined);
        this.drawPieces(block, token.pieces, cursor + CHIP_PAD_X * style.size, baseline, style);
      } else if (token.kind === 'word' || token.kind === 'space') {
        this.drawPieces(block, token.pieces, cursor, baseline, style);
      }
      cursor += token.width;
    }
    if (this.holds === 0) block.flush(doc);
  }

  private drawPieces(block: TextBlock, pieces: Piece[], x: number, baseline: number, style: TextStyle): void {
    let cursor = x;
    for (const piece of pieces) {
      if (piece.text.trim()) {
        const font = this.embedded(piece.font);
        const glyphs = font && this.glyphs(font, piece.font, piece.text);
        if (font && glyphs) {
          const page = this.doc.page as unknown as { height: number; fonts: Record<string, unknown> };
          page.fonts[font.id] ??= font.ref();
          // pdfkit's text(x, top) puts the baseline at top + ascender; the page is flipped back for text.
          const top = baseline - style.size * ASCENT;
          const pdfY = page.height - top - (font.ascender / 1000) * style.size;
          block.add(font, style.size, style.color, cursor, pdfY, glyphs, piece.width);
        } else {
          this.doc
            .font(piece.font)
            .fontSize(style.size)
            .fillColor(style.color)
            .text(piece.text, cursor, baseline - style.size * ASCENT, { lineBreak: false });
        }
      }
      cursor += piece.width;
    }
  }
}

function measureLine(tokens: Token[], width: number, fallback: TextStyle | undefined): Line {
  let height = 0;
  let baseline = 0;
  for (const token of tokens) {
    if (token.kind === 'gap') continue;
    const metrics = tokenHeight(token);
    height = Math.max(height, metrics.height);
    baseline = Math.max(baseline, metrics.baseline);
  }
  if (height === 0) {
    // An empty line (a blank line in a paragraph) keeps the height of its text.
    const size = fallback?.size ?? 9;
    height = size * (fallback?.leading ?? DEFAULT_LEADING);
    baseline = size * ASCENT;
  }
  return { tokens, width, height, baseline };
}

export const linesHeight = (lines: Line[]): number => lines.reduce((sum, line) => sum + line.height, 0);

// ---------- pages ----------

export const PAGE = {
  width: 595.28,
  height: 841.89,
  marginX: 50,
  /** Content starts below the header band. */
  top: 74,
  /** Content ends above the footer. */
  bottom: 841.89 - 62,
} as const;

export interface Column {
  header?: string;
  /** Relative width. */
  weight: number;
  align?: 'left' | 'right';
}

export interface CellSpec {
  spans: Span[];
  /** A 0..1 bar drawn under the text (confidence). */
  bar?: { value: number; color: string };
}

export type Cell = Span[] | CellSpec;

export interface Row {
  cells: Cell[];
  /** The rule under the row. */
  divider?: 'none' | 'light' | 'strong';
  fill?: string;
  /** Keeps this row on the same page as the next one (a group of rows), when the group fits on a page. */
  keepWithNext?: boolean;
}

export interface TableOptions {
  columns: Column[];
  rows: Row[];
  /** Title repeated, with '(continued)', when the table runs onto another page. */
  title?: string;
  padX?: number;
  padY?: number;
  /** Rules between rows (default true). */
  rules?: boolean;
}

interface CellLayout {
  lines: Line[];
  bar?: CellSpec['bar'];
  /** Moves the cell down so that the first lines of a row share a baseline. */
  shift?: number;
}

const BAR_HEIGHT = 8;

/**
 * What the report sections draw on: the PDF Writer below, or the HTML writer (html.ts) that prints the
 * same blocks as an HTML document, so both render one section model and cannot drift apart.
 */
export type Surface = Pick<
  Writer,
  | 'y'
  | 'space'
  | 'paragraph'
  | 'heading'
  | 'notice'
  | 'tiles'
  | 'table'
  | 'tableLead'
  | 'keepFor'
  | 'tableHeight'
>;

export class Writer {
  readonly text: TextEngine;
  readonly left = PAGE.marginX;
  readonly width = PAGE.width - 2 * PAGE.marginX;
  readonly bottom = PAGE.bottom;
  y: number = PAGE.top;
  /** Increments with every page, so a block can tell whether it has moved. */
  page = 0;
  private readonly continuations: Array<() => void> = [];

  constructor(readonly doc: PDFKit.PDFDocument) {
    this.text = new TextEngine(doc);
    this.doc.addPage();
  }

  get right(): number {
    return this.left + this.width;
  }

  newPage(): void {
    this.text.flush();
    this.doc.addPage();
    this.page += 1;
    this.y = PAGE.top;
    this.continuations.at(-1)?.();
  }

  /** Starts a new page unless `height` still fits; true when it started one. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom || this.y <= PAGE.top + 0.5) return false;
    this.newPage();
    return true;
  }

  /** Vertical space, dropped at the top of a page. */
  space(height: number): void {
    if (this.y > PAGE.top + 0.5) this.y = Math.min(this.y + height, this.bottom);
  }

  /** Wrapped text flowing across pages line by line. */
  paragraph(spans: Span[], options: { indent?: number; width?: number; after?: number } = {}): void {
    const indent = options.indent ?? 0;
    const lines = this.text.wrap(spans, options.width ?? this.width - indent);
    this.text.hold();
    for (const line of lines) {
      this.ensure(line.height);
      this.text.drawLine(line, this.left + indent, this.y);
      this.y += line.height;
    }
    this.text.release();
    this.y += options.after ?? 0;
  }

  /** Height of a section heading as `heading` draws it. */
  readonly headingHeight = 32;

  /**
   * A section title with an optional note on the right and a rule under it. `keep` is the height of
   * what must follow on the same page (no heading is left alone at the bottom of a page).
   */
  heading(title: string, options: { note?: string; keep?: number; level?: 1 | 2 } = {}): void {
    const level = options.level ?? 1;
    const size = level === 1 ? 12.5 : 10;
    const height = level === 1 ? this.headingHeight : 22;
    const before = this.y <= PAGE.top + 0.5 ? 0 : level === 1 ? 16 : 10;
    if (!this.ensure(before + height + (options.keep ?? 0))) this.space(before);
    const titleStyle: TextStyle = { size, color: level === 1 ? COLOR.navy : COLOR.ink, weight: 'bold' };
    const [titleLine] = this.text.wrap([text(title, titleStyle)], this.width * 0.7);
    this.text.drawLine(titleLine!, this.left, this.y);
    if (options.note) {
      const [note] = this.text.wrap([text(options.note, STYLE.small)], this.width * 0.3);
      this.text.drawLine(note!, this.right - note!.width, this.y + titleLine!.baseline - note!.baseline);
    }
    const ruleY = this.y + titleLine!.height + 2;
    shape.rule(
      this.doc,
      this.left,
      this.right,
      ruleY,
      level === 1 ? 1.1 : 0.6,
      level === 1 ? COLOR.accent : COLOR.ruleStrong,
    );
    this.y += height;
  }

  /** A tinted panel with a coloured bar on its left; never split across pages. */
  notice(spans: Span[], tone: { fill: string; bar: string; stroke?: string }, after = 10): void {
    const pad = 9;
    const lines = this.text.wrap(spans, this.width - 2 * pad - 4);
    const height = linesHeight(lines) + 2 * pad;
    this.ensure(height);
    const { doc } = this;
    const panel = { x: this.left, y: this.y, width: this.width, height, radius: 3 };
    shape.box(doc, panel, tone.fill, tone.stroke ? { color: tone.stroke, width: 0.6 } : undefined);
    shape.box(doc, { x: this.left, y: this.y, width: 3.2, height }, tone.bar);
    let y = this.y + pad;
    this.text.hold();
    for (const line of lines) {
      this.text.drawLine(line, this.left + pad + 4, y);
      y += line.height;
    }
    this.text.release();
    this.y += height + after;
  }

  /** A row of equal boxes, each a label, a large value and an optional note. */
  tiles(
    items: Array<{ label: string; value: string; note?: string; tone?: 'default' | 'warn' | 'good' }>,
  ): void {
    if (items.length === 0) return;
    const gapX = 8;
    const boxWidth = (this.width - gapX * (items.length - 1)) / items.length;
    const pad = 8;
    const layouts = items.map((item) => {
      const color = item.tone === 'warn' ? COLOR.red : item.tone === 'good' ? COLOR.green : COLOR.ink;
      const style: TextStyle = { size: 12.5, color, weight: 'bold', leading: 1.3 };
      const natural = this.text.width(item.value, style);
      const room = boxWidth - 2 * pad;
      // A long value (an IMSI) shrinks to stay on one line, down to a readable size.
      if (natural > room) style.size = Math.max(8, (style.size * room) / natural - 0.1);
      const labelStyle: TextStyle = { ...STYLE.label };
      const labelWidth = this.text.width(item.label, labelStyle);
      if (labelWidth > room) labelStyle.size = Math.max(6, (labelStyle.size * room) / labelWidth - 0.05);
      const spans: Span[] = [text(`${item.label}\n`, labelStyle), text(item.value, style)];
      if (item.note) spans.push(text(`\n${item.note}`, STYLE.small));
      return this.text.wrap(spans, boxWidth - 2 * pad);
    });
    const height = Math.max(...layouts.map(linesHeight)) + 2 * pad;
    this.ensure(height);
    layouts.forEach((lines, i) => {
      const x = this.left + i * (boxWidth + gapX);
      const tone = items[i]!.tone;
      const fill = tone === 'warn' ? COLOR.redFill : tone === 'good' ? COLOR.greenFill : COLOR.panel;
      const box = { x, y: this.y, width: boxWidth, height, radius: 3 };
      shape.box(this.doc, box, fill, { color: COLOR.rule, width: 0.6 });
      let y = this.y + pad;
      this.text.hold();
      for (const line of lines) {
        this.text.drawLine(line, x + pad, y);
        y += line.height;
      }
      this.text.release();
    });
    this.y += height + 10;
  }

  /** Column widths in points for relative weights. */
  private columnWidths(columns: Column[]): number[] {
    const total = columns.reduce((sum, column) => sum + column.weight, 0);
    return columns.map((column) => (this.width * column.weight) / total);
  }

  /** Rows already laid out, by row and column widths: a table measures its rows before drawing them. */
  private readonly rowLayouts = new WeakMap<Row, { key: string; cells: CellLayout[] }>();

  /** A row's cells broken into lines. The result is not changed by its callers (they copy to split). */
  private layoutRow(row: Row, widths: number[], padX: number): CellLayout[] {
    const key = `${padX}:${widths.join(',')}`;
    const known = this.rowLayouts.get(row);
    if (known?.key === key) return known.cells;
    const cells = this.measureRow(row, widths, padX);
    this.rowLayouts.set(row, { key, cells });
    return cells;
  }

  private measureRow(row: Row, widths: number[], padX: number): CellLayout[] {
    const cells: CellLayout[] = row.cells.map((cell, i) => {
      const spec: CellSpec = Array.isArray(cell) ? { spans: cell } : cell;
      const lines = this.text.wrap(spec.spans, Math.max(widths[i]! - 2 * padX, 10));
      return spec.bar ? { lines, bar: spec.bar } : { lines };
    });
    const baseline = Math.max(...cells.map((cell) => cell.lines[0]?.baseline ?? 0));
    for (const cell of cells) {
      const first = cell.lines[0];
      if (first && first.tokens.length > 0) cell.shift = baseline - first.baseline;
    }
    return cells;
  }

  private static cellHeight(cell: CellLayout): number {
    return (cell.shift ?? 0) + linesHeight(cell.lines) + (cell.bar ? BAR_HEIGHT : 0);
  }

  /** Height of the column header, the title line and the first row: what a heading must keep with it. */
  tableLead(options: TableOptions): number {
    const widths = this.columnWidths(options.columns);
    const padX = options.padX ?? 6;
    const padY = options.padY ?? 4.5;
    const first = options.rows[0];
    const firstHeight = first
      ? Math.max(...this.layoutRow(first, widths, padX).map(Writer.cellHeight)) + 2 * padY
      : 0;
    return this.headerHeight(options) + Math.min(firstHeight, 120);
  }

  /** What a heading keeps with it: a small table whole, a long one its header and first row. */
  keepFor(options: TableOptions, whole = 200): number {
    const height = this.tableHeight(options);
    return height <= whole ? height : this.tableLead(options);
  }

  /** Height of the whole table drawn on one page. */
  tableHeight(options: TableOptions): number {
    const widths = this.columnWidths(options.columns);
    const padX = options.padX ?? 6;
    const padY = options.padY ?? 4.5;
    return options.rows.reduce(
      (sum, row) => sum + Math.max(...this.layoutRow(row, widths, padX).map(Writer.cellHeight)) + 2 * padY,
      this.headerHeight(options),
    );
  }

  private headerHeight(options: TableOptions): number {
    return options.columns.some((column) => column.header) ? 7 * DEFAULT_LEADING + 10 : 0;
  }

  private drawHeader(options: TableOptions, widths: number[], padX: number): void {
    const height = this.headerHeight(options);
    if (height === 0) return;
    shape.box(this.doc, { x: this.left, y: this.y, width: this.width, height }, COLOR.headerFill);
    this.text.hold();
    let x = this.left;
    options.columns.forEach((column, i) => {
      if (column.header) {
        const [line] = this.text.wrap(
          [text(column.header.toUpperCase(), STYLE.columnHeader)],
          widths[i]! - 2 * padX,
        );
        const lineX = column.align === 'right' ? x + widths[i]! - padX - line!.width : x + padX;
        this.text.drawLine(line!, lineX, this.y + 5);
      }
      x += widths[i]!;
    });
    this.text.release();
    this.y += height;
  }

  private drawContinuation(options: TableOptions, widths: number[], padX: number): void {
    if (options.title) {
      const [line] = this.text.wrap(
        [text(`${options.title} `, STYLE.smallBold), text('(continued)', STYLE.small)],
        this.width,
      );
      this.text.drawLine(line!, this.left, this.y);
      this.y += line!.height + 4;
    }
    this.drawHeader(options, widths, padX);
  }

  table(options: TableOptions): void {
    const widths = this.columnWidths(options.columns);
    const padX = options.padX ?? 6;
    const padY = options.padY ?? 4.5;
    const rules = options.rules ?? true;
    if (this.ensure(this.tableLead(options))) this.drawContinuation(options, widths, padX);
    else this.drawHeader(options, widths, padX);
    this.continuations.push(() => this.drawContinuation(options, widths, padX));
    try {
      let rowsOnPage = 0;
      let page = this.page;
      const rowHeight = (row: Row) =>
        Math.max(...this.layoutRow(row, widths, padX).map(Writer.cellHeight)) + 2 * padY;
      options.rows.forEach((row, index) => {
        if (this.page !== page) {
          page = this.page;
          rowsOnPage = 0;
        }
        if (row.keepWithNext && !options.rows[index - 1]?.keepWithNext && rowsOnPage > 0) {
          let group = 0;
          for (let i = index; i < options.rows.length; i++) {
            group += rowHeight(options.rows[i]!);
            if (!options.rows[i]!.keepWithNext) break;
          }
          if (this.y + group > this.bottom && group <= (this.bottom - PAGE.top) / 2) this.newPage();
        }
        let cells = this.layoutRow(row, widths, padX);
        for (;;) {
          if (this.page !== page) {
            page = this.page;
            rowsOnPage = 0;
          }
          const height = Math.max(...cells.map(Writer.cellHeight)) + 2 * padY;
          if (this.y + height <= this.bottom) {
            this.drawRow(row, cells, options.columns, widths, padX, padY, height, rules);
            rowsOnPage += 1;
            break;
          }
          if (rowsOnPage > 0) {
            this.newPage();
            continue;
          }
          // The row is taller than what is left of a page that holds nothing else of this table: split it.
          const room = this.bottom - this.y - 2 * padY - Math.max(...cells.map((cell) => cell.shift ?? 0));
          const parts = cells.map((cell) => {
            let used = 0;
            let n = 0;
            while (n < cell.lines.length && used + cell.lines[n]!.height <= room)
              used += cell.lines[n++]!.height;
            return n;
          });
          if (parts.every((n, i) => n === 0 && cells[i]!.lines.length > 0)) {
            if (this.y > PAGE.top + 40) {
              this.newPage();
              continue;
            }
            // Not even one line fits on a fresh page (cannot happen with report sizes): draw and move on.
            this.drawRow(row, cells, options.columns, widths, padX, padY, height, rules);
            break;
          }
          // A cell that ends in this part keeps its bar here (when there is room for it).
          const head = cells.map((cell, i): CellLayout => {
            const lines = cell.lines.slice(0, parts[i]!);
            const complete = parts[i] === cell.lines.length;
            return cell.bar && complete && linesHeight(lines) + BAR_HEIGHT <= room
              ? { lines, shift: cell.shift, bar: cell.bar }
              : { lines, shift: cell.shift };
          });
          const headHeight = Math.max(...head.map(Writer.cellHeight)) + 2 * padY;
          this.drawRow(row, head, options.columns, widths, padX, padY, headHeight, false);
          cells = cells.map((cell, i) => ({
            lines: cell.lines.slice(parts[i]!),
            shift: 0,
            ...(cell.bar && !head[i]!.bar ? { bar: cell.bar } : {}),
          }));
          this.newPage();
        }
      });
    } finally {
      this.continuations.pop();
    }
  }

  private drawRow(
    row: Row,
    cells: CellLayout[],
    columns: Column[],
    widths: number[],
    padX: number,
    padY: number,
    height: number,
    rules: boolean,
  ): void {
    const { doc } = this;
    if (row.fill) shape.box(doc, { x: this.left, y: this.y, width: this.width, height }, row.fill);
    // The cells' text as one block, then the bars under it (bars and text do not overlap).
    this.text.hold();
    const bars: Array<{ x: number; y: number; width: number; bar: NonNullable<CellLayout['bar']> }> = [];
    let x = this.left;
    cells.forEach((cell, i) => {
      let y = this.y + padY + (cell.shift ?? 0);
      const right = columns[i]?.align === 'right';
      for (const line of cell.lines) {
        this.text.drawLine(line, right ? x + widths[i]! - padX - line.width : x + padX, y);
        y += line.height;
      }
      if (cell.bar) bars.push({ x: x + padX, y, width: widths[i]! - 2 * padX, bar: cell.bar });
      x += widths[i]!;
    });
    this.text.release();
    for (const { x: barX, y, width, bar } of bars) {
      const track = Math.min(width, 64);
      const value = Math.max(0, Math.min(1, bar.value));
      shape.box(doc, { x: barX, y: y + 2.5, width: track, height: 3.2, radius: 1.6 }, COLOR.greyFill);
      if (value > 0) {
        const filled = { x: barX, y: y + 2.5, width: Math.max(track * value, 3.2), height: 3.2, radius: 1.6 };
        shape.box(doc, filled, bar.color);
      }
    }
    const divider = row.divider ?? (rules ? 'light' : 'none');
    if (divider !== 'none') {
      const y = this.y + height;
      const strong = divider === 'strong';
      shape.rule(doc, this.left, this.right, y, strong ? 0.8 : 0.5, strong ? COLOR.ruleStrong : COLOR.rule);
    }
    this.y += height;
  }
}
