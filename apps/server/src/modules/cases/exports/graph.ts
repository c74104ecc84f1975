/**
 * The case as a graph, for the graph tools (GraphML for Gephi, yEd or Maltego's import; the i2 CSV for
 * Analyst's Notebook): the case, its searches and the entities they found as nodes; a case files its
 * searches and a search found its entities as links. Each entity carries the sources that gave it and
 * whether it is corroborated, as the case page shows it. Both files are drawn from this one graph.
 */
import { ENTITY_LABELS, type EntityType, SOURCE_LONG_LABELS, searchLabel } from '@footprint/domain';
import type { CaseExportInput } from './input.ts';

export type CaseNodeKind = 'case' | 'search' | 'entity';

export interface CaseNode {
  id: string;
  kind: CaseNodeKind;
  /** The case's title, the search in words, the entity's value. */
  label: string;
  /** The entity's type ('email'), the search's kind ('tel'); the case's reference. */
  type: string;
  /** Who gave it (entities), or who answered (searches): the sources by their names. */
  sources: string[];
  corroborated: boolean | null;
  /** When the search ran, the case was opened; null for entities. */
  at: string | null;
}

export interface CaseEdge {
  id: string;
  source: string;
  target: string;
  /** 'filed' (case → search), 'found' (search → entity). */
  relation: 'filed' | 'found';
  at: string | null;
}

export interface CaseGraph {
  nodes: CaseNode[];
  edges: CaseEdge[];
}

const sourceName = (key: string) => SOURCE_LONG_LABELS[key] ?? key;

/** The sources that answered a stored lookup result (status ok), by their names. */
function answeredBy(result: unknown): string[] {
  const status = (result as { status?: Record<string, { status?: string }> } | null)?.status;
  if (!status || typeof status !== 'object') return [];
  return Object.entries(status)
    .filter(([, line]) => line?.status === 'ok')
    .map(([key]) => sourceName(key));
}

export const entityNodeId = (type: string, value: string) => `entity:${type}:${value}`;

export function caseGraph(input: CaseExportInput): CaseGraph {
  const { detail } = input;
  const caseId = `case:${detail.id}`;
  const nodes: CaseNode[] = [
    {
      id: caseId,
      kind: 'case',
      label: detail.title,
      type: detail.reference,
      sources: [],
      corroborated: null,
      at: detail.created_at,
    },
  ];
  const edges: CaseEdge[] = [];
  for (const { item, result } of input.searches) {
    const id = `search:${item.lookup_id}`;
    nodes.push({
      id,
      kind: 'search',
      label: searchLabel(item),
      type: item.kind,
      sources: answeredBy(result),
      corroborated: null,
      at: item.created_at,
    });
    edges.push({
      id: `filed:${item.lookup_id}`,
      source: caseId,
      target: id,
      relation: 'filed',
      at: item.added_at,
    });
  }
  const searches = new Set(input.searches.map(({ item }) => item.lookup_id));
  for (const entity of detail.entities) {
    const id = entityNodeId(entity.type, entity.value);
    nodes.push({
      id,
      kind: 'entity',
      label: entity.value,
      type: entity.type,
      sources: entity.sources.map(sourceName),
      corroborated: entity.corroborated,
      at: null,
    });
    for (const lookupId of entity.items) {
      if (!searches.has(lookupId)) continue;
      edges.push({
        id: `found:${lookupId}:${id}`,
        source: `search:${lookupId}`,
        target: id,
        relation: 'found',
        at: null,
      });
    }
  }
  return { nodes, edges };
}

/** What a node is called as a type in a graph tool: 'E-mail', 'Phone lookup', 'Case'. */
export function nodeTypeLabel(node: CaseNode): string {
  if (node.kind === 'case') return 'Case';
  if (node.kind === 'search') return 'Search';
  return ENTITY_LABELS[node.type as EntityType] ?? node.type;
}
