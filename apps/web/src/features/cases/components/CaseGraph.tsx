import { type CaseDetail, ENTITY_LABELS, type EntityType, messages } from '@footprint/domain';
import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'react';
import { kindLabel } from '../../history/index.ts';

/**
 * The case as a graph (loaded only when asked for: cytoscape is not in the first paint): one node per
 * search and per entity, an edge from each search to every entity its result holds. Corroborated
 * entities are drawn larger. The entity list beside it says the same in text.
 */

const t = messages.cases;

/** Colours of the theme (the page's CSS custom properties), with fallbacks. */
function themeColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value ? (value.startsWith('#') || value.startsWith('rgb') ? value : `rgb(${value})`) : fallback;
}

/**
 * Cytoscape adds a <style> element for its container's `position: relative` unless an element with its
 * stylesheet's id exists; the CSP refuses inline styles, so an empty marker takes that id and the
 * container gets the rule from its own class instead.
 */
function markCytoscapeStylesheet() {
  const id = '__________cytoscape_stylesheet';
  if (document.getElementById(id)) return;
  const marker = document.createElement('meta');
  marker.id = id;
  document.head.append(marker);
}

export default function CaseGraph({ detail, type }: { detail: CaseDetail; type: EntityType | '' }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!container.current) return;
    markCytoscapeStylesheet();
    const entities = type ? detail.entities.filter((e) => e.type === type) : detail.entities;
    const linked = new Set(entities.flatMap((e) => e.items));
    const items = detail.items.filter((item) => linked.has(item.lookup_id) || !type);
    const shownItems = new Set(items.map((item) => item.lookup_id));
    // A force-directed layout reads best but costs O(n²) per step: past a few hundred nodes (a case of
    // 200 searches holds ~2,000 entities) the nodes go on rings instead, searches in the middle,
    // corroborated entities next, the rest outside, and the drawing skips edges and labels while moving.
    const large = items.length + entities.length > 300;
    const accent = themeColour('--color-accent', '#22d3ee');
    const text = themeColour('--color-text', '#e5e7eb');
    const muted = themeColour('--color-muted', '#94a3b8');
    const good = '#34d399';
    const graph = cytoscape({
      container: container.current,
      elements: [
        ...items.map((item) => ({
          data: {
            id: `s:${item.lookup_id}`,
            label: `${kindLabel(item.kind)}\n${item.query_typed}`,
            kind: 'search',
          },
        })),
        ...entities.map((entity) => ({
          data: {
            id: `e:${entity.type}:${entity.value}`,
            label: `${ENTITY_LABELS[entity.type as EntityType] ?? entity.type}\n${entity.value}`,
            kind: entity.corroborated ? 'corroborated' : 'entity',
          },
        })),
        ...entities.flatMap((entity) =>
          entity.items
            .filter((id) => shownItems.has(id))
            .map((id) => ({
              data: {
                id: `${id}->${entity.type}:${entity.value}`,
                source: `s:${id}`,
                target: `e:${entity.type}:${entity.value}`,
              },
            })),
        ),
      ],
      style: [
        {
          selector: 'node',
          style: {
            label: 'data(label)',
            'text-wrap': 'wrap',
            'text-max-width': '140px',
            'font-size': 9,
            color: text,
            'text-valign': 'bottom',
            'text-margin-y': 4,
            'background-color': muted,
            width: 12,
            height: 12,
            // Labels only once zoomed in far enough to read them.
            'min-zoomed-font-size': large ? 12 : 6,
          },
        },
        {
          selector: 'node[kind = "search"]',
          style: { 'background-color': accent, shape: 'round-rectangle', width: 22, height: 22 },
        },
        {
          selector: 'node[kind = "corroborated"]',
          style: { 'background-color': good, width: 18, height: 18 },
        },
        {
          selector: 'edge',
          style: { width: 1, 'line-color': muted, opacity: 0.5, 'curve-style': 'haystack' },
        },
      ],
      layout: large
        ? {
            name: 'concentric',
            animate: false,
            padding: 16,
            minNodeSpacing: 2,
            concentric: (node: cytoscape.NodeSingular) =>
              node.data('kind') === 'search' ? 3 : node.data('kind') === 'corroborated' ? 2 : 1,
            levelWidth: () => 1,
          }
        : {
            name: 'cose',
            animate: false,
            nodeDimensionsIncludeLabels: true,
            padding: 16,
            nodeRepulsion: () => 20000,
            idealEdgeLength: () => 90,
          },
      hideEdgesOnViewport: large,
      textureOnViewport: large,
      // A large graph is panned and zoomed, not rearranged: a drag anywhere moves the view.
      autoungrabify: large,
      boxSelectionEnabled: false,
      pixelRatio: large ? 1 : 'auto',
      wheelSensitivity: 0.3,
    });
    // Marks the drawing done (after its layout and first frame): the case bench times it.
    graph.ready(() => {
      requestAnimationFrame(() => {
        if (container.current) container.current.dataset.ready = 'true';
      });
    });
    return () => graph.destroy();
  }, [detail, type]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={t.graphLabel(detail.items.length, detail.entities.length)}
      className="relative mt-3 h-[28rem] w-full rounded-md border border-line/70 bg-surface"
    />
  );
}
