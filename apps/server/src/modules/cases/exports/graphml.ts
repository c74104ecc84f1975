/**
 * The case graph as GraphML (graphml.graphdrawing.org), the exchange format of Gephi, yEd, Cytoscape
 * and Maltego's graph import: one <graph> of directed edges, every attribute declared by a <key>
 * with its type, so a tool reads them as columns.
 */
import { xmlText } from '../../../xlsx/write.ts';
import { caseGraph, nodeTypeLabel } from './graph.ts';
import type { CaseExportInput } from './input.ts';

const KEYS = [
  { id: 'kind', for: 'node', name: 'kind', type: 'string' },
  { id: 'label', for: 'node', name: 'label', type: 'string' },
  { id: 'type', for: 'node', name: 'type', type: 'string' },
  { id: 'type_label', for: 'node', name: 'type_label', type: 'string' },
  { id: 'sources', for: 'node', name: 'sources', type: 'string' },
  { id: 'corroborated', for: 'node', name: 'corroborated', type: 'boolean' },
  { id: 'at', for: 'node', name: 'at', type: 'string' },
  { id: 'relation', for: 'edge', name: 'relation', type: 'string' },
  { id: 'edge_at', for: 'edge', name: 'at', type: 'string' },
] as const;

const data = (key: string, value: string | boolean | null) =>
  value === null ? '' : `<data key="${key}">${xmlText(String(value))}</data>`;

export function renderGraphml(input: CaseExportInput): string {
  const { nodes, edges } = caseGraph(input);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    ...KEYS.map((k) => `  <key id="${k.id}" for="${k.for}" attr.name="${k.name}" attr.type="${k.type}"/>`),
    `  <graph id="${xmlText(input.detail.reference)}" edgedefault="directed">`,
    ...nodes.map(
      (node) =>
        `    <node id="${xmlText(node.id)}">${data('kind', node.kind)}${data('label', node.label)}${data('type', node.type)}${data('type_label', nodeTypeLabel(node))}${data('sources', node.sources.join('; '))}${data('corroborated', node.corroborated)}${data('at', node.at)}</node>`,
    ),
    ...edges.map(
      (edge) =>
        `    <edge id="${xmlText(edge.id)}" source="${xmlText(edge.source)}" target="${xmlText(edge.target)}">${data('relation', edge.relation)}${data('edge_at', edge.at)}</edge>`,
    ),
    '  </graph>',
    '</graphml>',
  ];
  return `${lines.join('\n')}\n`;
}
