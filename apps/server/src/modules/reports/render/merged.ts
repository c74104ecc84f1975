/**
 * The merged profile in a PDF: the analysis's values (@footprint/domain, lookup/analysis), each once,
 * as the results page shows them.
 */
import { isCorroborated, messages, profileCounts, provenanceLines } from '@footprint/domain';
import { clean } from './format.ts';
import { sourceChips } from './frame.ts';
import { COLOR, type Column, chip, type Row, STYLE, type Surface, text } from './layout.ts';
import type { ProfileAnalysis } from './types.ts';

/** Provenance lines (one per mode and answer time) printed under one value; the rest are counted. */
const MAX_PROVENANCE_LINES = 8;

type Status = ProfileAnalysis['attributes'][number]['status'];

const STATUS: Record<Status, { label: string; fill: string; ink: string }> = {
  corroborated: { label: 'Corroborated', fill: COLOR.greenFill, ink: COLOR.green },
  conflicting: { label: 'Conflicting', fill: COLOR.redFill, ink: COLOR.red },
  'single-source': { label: 'Single source', fill: COLOR.greyFill, ink: COLOR.muted },
};

const percent = (confidence: number): number =>
  Number.isFinite(confidence) ? Math.round(Math.max(0, Math.min(1, confidence)) * 100) : 0;

function confidenceColor(value: number): string {
  if (value >= 75) return COLOR.green;
  if (value >= 50) return COLOR.accent;
  return COLOR.amberLine;
}

type Value = ProfileAnalysis['attributes'][number]['values'][number];

/**
 * A value's status, as the results page marks it: corroborated when two or more independent sources
 * gave it (domain isCorroborated), else single source; the first value of an attribute in conflict
 * also says so.
 */
function statusChips(value: Value, conflict: boolean) {
  const own = isCorroborated(value) ? STATUS.corroborated : STATUS['single-source'];
  const chips = [chip(own.label, own.fill, own.ink)];
  if (conflict)
    chips.unshift(chip(STATUS.conflicting.label, STATUS.conflicting.fill, STATUS.conflicting.ink));
  return chips;
}

function attributeRows(analysis: ProfileAnalysis): Row[] {
  const rows: Row[] = [];
  for (const attribute of analysis.attributes ?? []) {
    const status = STATUS[attribute.status] ?? STATUS['single-source'];
    const values = (attribute.values ?? []).filter((v) => clean(v.value));
    const name = clean(attribute.attribute, { max: 120 }) || '—';
    if (values.length === 0) {
      rows.push({
        cells: [
          [text(name, STYLE.bodyBold)],
          [text('—', STYLE.body)],
          [],
          [],
          [chip(status.label, status.fill, status.ink)],
        ],
        divider: 'strong',
      });
      continue;
    }
    values.forEach((v, i) => {
      const pct = percent(v.confidence);
      const sources = (v.sources ?? []).map((s) => clean(s, { max: 60 })).filter(Boolean);
      const all = provenanceLines(v.provenance ?? []);
      const provenance = all.slice(0, MAX_PROVENANCE_LINES).map((line) => clean(line, { max: 600 }));
      if (all.length > provenance.length) provenance.push(`… and ${all.length - provenance.length} more`);
      rows.push({
        cells: [
          i === 0 ? [text(name, STYLE.bodyBold)] : [],
          [
            text(clean(v.value), STYLE.body),
            ...(provenance.length ? [text(`\n${provenance.join('\n')}`, { ...STYLE.small, size: 6.8 })] : []),
          ],
          sources.length ? sourceChips(sources) : [text('—', STYLE.body)],
          {
            spans: [text(`${pct}%`, STYLE.bodyBold)],
            bar: { value: pct / 100, color: confidenceColor(pct) },
          },
          statusChips(v, i === 0 && attribute.status === 'conflicting'),
        ],
        divider: i === values.length - 1 ? 'strong' : 'light',
        keepWithNext: i < values.length - 1,
      });
    });
  }
  return rows;
}

/**
 * The merged values of the analysis as a table: each value once with the sources that gave it, where
 * each came from (the breach, registry or vendor, when it answered, live or sandbox), its confidence
 * and the attribute's status. The lookup PDF ('Merged profile') and the AI PDF ('Attributes') print it.
 */
export function drawMergedValues(writer: Surface, analysis: ProfileAnalysis, heading: string): void {
  const columns: Column[] = [
    { header: 'Attribute', weight: 15 },
    { header: 'Value and provenance', weight: 38 },
    { header: 'Sources', weight: 21 },
    { header: 'Confidence', weight: 12 },
    { header: 'Status', weight: 14 },
  ];
  const rows = attributeRows(analysis);
  const counts = profileCounts(analysis.attributes ?? []);
  const firstGroup = rows.slice(0, rows.findIndex((row) => !row.keepWithNext) + 1);
  writer.heading(heading, {
    // The results page's words and counts (domain profileCounts).
    note: messages.results.mergedSummary(counts.facts, counts.corroborated, counts.conflicts),
    keep: rows.length ? writer.tableHeight({ columns, rows: firstGroup }) + 24 : 30,
  });
  if (rows.length === 0) {
    writer.paragraph([
      text('No attributes could be read from the sources.', { ...STYLE.body, color: COLOR.faint }),
    ]);
    return;
  }
  writer.paragraph(
    [
      text(
        'Each value once, with the sources that returned it and, beneath it, where each came from and when it answered. Confidence is computed by Footprint from how many independent sources agree; it is not a probability that the value is true.',
        STYLE.small,
      ),
    ],
    { after: 4 },
  );
  writer.table({ columns, rows, title: heading });
}
