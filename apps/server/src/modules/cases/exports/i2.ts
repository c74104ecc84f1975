/**
 * The case graph as the CSV that i2 Analyst's Notebook's importer reads: one row per link, each end
 * an entity with its type, identity and label, then the link's type, date and the sources. The import
 * specification that maps these columns is described in docs/case-exports.md. Cells go through the
 * exports' CSV writer (RFC 4180 quoting, formula neutralisation).
 */
import { csvLine } from '../../audit/query.ts';
import { type CaseNode, caseGraph, nodeTypeLabel } from './graph.ts';
import type { CaseExportInput } from './input.ts';

export const I2_COLUMNS = [
  'from_type',
  'from_identity',
  'from_label',
  'link_type',
  'to_type',
  'to_identity',
  'to_label',
  'to_sources',
  'to_corroborated',
  'date_time',
] as const;

const LINK_TYPES = { filed: 'Filed search', found: 'Found' } as const;

export function renderI2Csv(input: CaseExportInput): string {
  const { nodes, edges } = caseGraph(input);
  const byId = new Map<string, CaseNode>(nodes.map((node) => [node.id, node]));
  const rows = edges.flatMap((edge) => {
    const from = byId.get(edge.source);
    const to = byId.get(edge.target);
    if (!from || !to) return [];
    return [
      csvLine([
        nodeTypeLabel(from),
        from.id,
        from.label,
        LINK_TYPES[edge.relation],
        nodeTypeLabel(to),
        to.id,
        to.label,
        to.sources.join('; '),
        to.corroborated === null ? '' : to.corroborated ? 'yes' : 'no',
        edge.at ?? to.at ?? '',
      ]),
    ];
  });
  return [csvLine(I2_COLUMNS), ...rows].join('');
}
