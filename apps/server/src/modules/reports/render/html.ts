/**
 * The lookup report as an HTML document: the same section code (lookup.ts, frame.ts, merged.ts) drawn
 * on an HTML surface instead of the pdfkit Writer, so the HTML says exactly what the PDF says — same
 * sections, rows and words. The product prints reports with pdfkit; this exists so that a browser
 * printing the report (the reports benchmark prints it with Chromium's page.pdf) prints the same content.
 *
 * Page furniture (the header band and the footer with 'Page X of Y') is returned as Chromium print
 * header and footer templates, so it repeats on every page as the PDF's does.
 */
import { SANDBOX_BANNER } from '@footprint/domain';
import { clean } from './format.ts';
import { HEADER_TAGLINE } from './frame.ts';
import {
  type Cell,
  type CellSpec,
  COLOR,
  type Column,
  PAGE,
  type Row,
  type Span,
  type Surface,
  type TableOptions,
  type TextStyle,
} from './layout.ts';
import { drawLookupReport, LOOKUP_TITLE } from './lookup.ts';
import type { LookupReportJob } from './types.ts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML content and attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const pt = (value: number): string => `${Math.round(value * 100) / 100}pt`;
/** Points as CSS pixels (96 px to 72 pt), the unit page.pdf's margins accept. */
const px = (points: number): string => `${Math.round(((points * 4) / 3) * 100) / 100}px`;

function styleOf(style: TextStyle): string {
  const parts = [`font-size:${pt(style.size)}`, `color:${style.color}`];
  if (style.weight === 'bold') parts.push('font-weight:700');
  if (style.leading) parts.push(`line-height:${style.leading}`);
  if (style.chip) {
    parts.push(`background:${style.chip.fill}`);
    if (style.chip.stroke) parts.push(`border:0.6pt solid ${style.chip.stroke}`);
  }
  return parts.join(';');
}

/** Spans as inline HTML: '\n' breaks the line, chips are pills, gaps fixed-width spaces. */
export function spansHtml(spans: Span[]): string {
  let out = '';
  for (const span of spans) {
    if ('gap' in span) {
      out += `<span class="gap" style="width:${pt(span.gap)}"></span>`;
      continue;
    }
    if (!span.text) continue;
    const cls = span.style.chip ? 'chip' : 't';
    const body = span.style.chip
      ? escapeHtml(span.text.replace(/\s+/g, ' '))
      : span.text.split('\n').map(escapeHtml).join('<br>');
    out += `<span class="${cls}" style="${styleOf(span.style)}">${body}</span>`;
  }
  return out;
}

const DIVIDERS = {
  none: 'none',
  light: `0.5pt solid ${COLOR.rule}`,
  strong: `0.8pt solid ${COLOR.ruleStrong}`,
};

/** Collects the report's blocks as HTML; measuring calls answer 0 (the browser lays the page out). */
export class HtmlWriter implements Surface {
  y: number = PAGE.top;
  private readonly parts: string[] = [];

  get html(): string {
    return this.parts.join('\n');
  }

  space(height: number): void {
    this.parts.push(`<div class="space" style="height:${pt(height)}"></div>`);
  }

  paragraph(spans: Span[], options: { indent?: number; width?: number; after?: number } = {}): void {
    const style = [`margin:0 0 ${pt(options.after ?? 0)} ${pt(options.indent ?? 0)}`];
    if (options.width) style.push(`max-width:${pt(options.width)}`);
    this.parts.push(`<p style="${style.join(';')}">${spansHtml(spans)}</p>`);
  }

  heading(title: string, options: { note?: string; keep?: number; level?: 1 | 2 } = {}): void {
    const level = options.level ?? 1;
    const tag = level === 1 ? 'h2' : 'h3';
    const note = options.note ? `<span class="note">${escapeHtml(options.note)}</span>` : '';
    this.parts.push(`<${tag}><span>${escapeHtml(title)}</span>${note}</${tag}>`);
  }

  notice(spans: Span[], tone: { fill: string; bar: string; stroke?: string }, after = 10): void {
    const border = tone.stroke ? `border:0.6pt solid ${tone.stroke};` : '';
    this.parts.push(
      `<div class="notice" style="background:${tone.fill};${border}border-left:3.2pt solid ${tone.bar};margin-bottom:${pt(after)}">${spansHtml(spans)}</div>`,
    );
  }

  tiles(
    items: Array<{ label: string; value: string; note?: string; tone?: 'default' | 'warn' | 'good' }>,
  ): void {
    if (items.length === 0) return;
    const boxes = items.map((item) => {
      const color = item.tone === 'warn' ? COLOR.red : item.tone === 'good' ? COLOR.green : COLOR.ink;
      const fill =
        item.tone === 'warn' ? COLOR.redFill : item.tone === 'good' ? COLOR.greenFill : COLOR.panel;
      const note = item.note ? `<div class="small">${escapeHtml(item.note)}</div>` : '';
      return `<div class="tile" style="background:${fill}"><div class="label">${escapeHtml(item.label)}</div><div class="value" style="color:${color}">${escapeHtml(item.value)}</div>${note}</div>`;
    });
    this.parts.push(`<div class="tiles">${boxes.join('')}</div>`);
  }

  table(options: TableOptions): void {
    const total = options.columns.reduce((sum, column) => sum + column.weight, 0);
    const padX = options.padX ?? 6;
    const padY = options.padY ?? 4.5;
    const rules = options.rules ?? true;
    const cols = options.columns
      .map((column) => `<col style="width:${Math.round((column.weight / total) * 10_000) / 100}%">`)
      .join('');
    const align = (column: Column | undefined) => (column?.align === 'right' ? ' class="r"' : '');
    const head = options.columns.some((column) => column.header)
      ? `<thead><tr>${options.columns.map((column) => `<th${align(column)}>${escapeHtml((column.header ?? '').toUpperCase())}</th>`).join('')}</tr></thead>`
      : '';
    const cell = (value: Cell, column: Column | undefined): string => {
      const spec: CellSpec = Array.isArray(value) ? { spans: value } : value;
      const bar = spec.bar
        ? `<div class="bar"><div style="width:${Math.round(Math.max(0, Math.min(1, spec.bar.value)) * 100)}%;background:${spec.bar.color}"></div></div>`
        : '';
      return `<td${align(column)} style="padding:${pt(padY)} ${pt(padX)}">${spansHtml(spec.spans)}${bar}</td>`;
    };
    const row = (r: Row): string => {
      const divider = DIVIDERS[r.divider ?? (rules ? 'light' : 'none')];
      const style = [`border-bottom:${divider}`, ...(r.fill ? [`background:${r.fill}`] : [])];
      const keep = r.keepWithNext ? ' class="keep"' : '';
      return `<tr${keep} style="${style.join(';')}">${r.cells.map((c, i) => cell(c, options.columns[i])).join('')}</tr>`;
    };
    const title = options.title ? ` aria-label="${escapeHtml(options.title)}"` : '';
    this.parts.push(
      `<table${title}><colgroup>${cols}</colgroup>${head}<tbody>${options.rows.map(row).join('')}</tbody></table>`,
    );
  }

  tableLead(): number {
    return 0;
  }

  keepFor(): number {
    return 0;
  }

  tableHeight(): number {
    return 0;
  }
}

const FONT = "'Noto Sans', 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";

const CSS = `
@page { size: A4; }
* { box-sizing: border-box; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; font-family: ${FONT}; font-size: 9pt; color: ${COLOR.body}; line-height: 1.38; }
p { margin: 0; }
h2, h3 { display: flex; justify-content: space-between; align-items: baseline; margin: 16pt 0 8pt;
  padding-bottom: 2pt; break-after: avoid; page-break-after: avoid; }
h2 { font-size: 12.5pt; color: ${COLOR.navy}; border-bottom: 1.1pt solid ${COLOR.accent}; }
h3 { font-size: 10pt; color: ${COLOR.ink}; border-bottom: 0.6pt solid ${COLOR.ruleStrong}; margin-top: 10pt; }
.note, .small { font-size: 7.5pt; font-weight: 400; color: ${COLOR.muted}; }
.chip { display: inline-block; white-space: nowrap; border-radius: 1em; padding: 0.05em 0.62em; line-height: 1.5; }
.gap { display: inline-block; }
.notice { border-radius: 3pt; padding: 9pt 9pt 9pt 13pt; break-inside: avoid; }
.tiles { display: flex; gap: 8pt; margin-bottom: 10pt; break-inside: avoid; }
.tile { flex: 1 1 0; min-width: 0; border: 0.6pt solid ${COLOR.rule}; border-radius: 3pt; padding: 8pt; }
.tile .label { font-size: 7.6pt; font-weight: 700; color: ${COLOR.muted}; }
.tile .value { font-size: 12.5pt; font-weight: 700; line-height: 1.3; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
thead { display: table-header-group; }
th { background: ${COLOR.headerFill}; font-size: 6.8pt; font-weight: 700; color: ${COLOR.muted};
  text-align: left; padding: 5pt 6pt; }
td { vertical-align: top; text-align: left; overflow-wrap: anywhere; }
.r { text-align: right; }
tr { break-inside: avoid; }
tr.keep { break-after: avoid; }
.bar { width: 64pt; max-width: 100%; height: 3.2pt; border-radius: 1.6pt; background: ${COLOR.greyFill}; margin-top: 2.5pt; }
.bar > div { height: 100%; border-radius: 1.6pt; }
`;

/** A lookup report as HTML, with the header and footer Chromium repeats on every printed page. */
export interface ReportHtml {
  /** The whole document, self-contained (no external resources). */
  html: string;
  /** For page.pdf({ displayHeaderFooter: true, headerTemplate }). */
  headerTemplate: string;
  /** For page.pdf({ footerTemplate }): 'Report {id} · Page X of Y' and the sandbox badge. */
  footerTemplate: string;
  /** Page margins (CSS px, as page.pdf takes them), the PDF's: content between header band and footer. */
  margin: { top: string; bottom: string; left: string; right: string };
}

/** Draws the lookup report on an HTML surface: the same sections, rows and words as its PDF. */
export function renderLookupHtml(job: LookupReportJob): ReportHtml {
  const writer = new HtmlWriter();
  drawLookupReport(writer, job);
  const title = escapeHtml(LOOKUP_TITLE);
  const reportId = escapeHtml(clean(job.reportId, { max: 80 }));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — ${escapeHtml(clean(job.query, { max: 300 }))}</title><style>${CSS}</style></head><body>\n${writer.html}\n</body></html>`;
  const band = `font-family:${FONT};-webkit-print-color-adjust:exact;print-color-adjust:exact`;
  const headerTemplate = `<div style="${band};width:100%;margin:-16px 0 0;height:40pt;background:${COLOR.navy};border-bottom:2pt solid ${COLOR.accent};color:${COLOR.white};display:flex;justify-content:space-between;align-items:center;padding:0 ${pt(PAGE.marginX)}"><span style="font-size:14pt;font-weight:700">Footprint</span><span style="text-align:right"><span style="font-size:8.5pt;font-weight:700">${title}</span><br><span style="font-size:5.8pt;color:#A9BED6">${escapeHtml(HEADER_TAGLINE)}</span></span></div>`;
  const right = job.sandbox
    ? `<span style="font-size:7pt;font-weight:700;color:${COLOR.amber};background:${COLOR.amberFill};border:0.6pt solid ${COLOR.amberLine};border-radius:1em;padding:0 0.62em">${escapeHtml(SANDBOX_BANNER)}</span>`
    : '<span>Generated by Footprint</span>';
  const footerTemplate = `<div style="${band};width:100%;margin:0 ${pt(PAGE.marginX)};border-top:0.5pt solid ${COLOR.rule};padding-top:6pt;font-size:7.5pt;color:${COLOR.muted};display:flex;justify-content:space-between"><span>Report ${reportId} · Page <span class="pageNumber"></span> of <span class="totalPages"></span></span>${right}</div>`;
  return {
    html,
    headerTemplate,
    footerTemplate,
    margin: {
      top: px(PAGE.top),
      bottom: px(PAGE.height - PAGE.bottom),
      left: px(PAGE.marginX),
      right: px(PAGE.marginX),
    },
  };
}
