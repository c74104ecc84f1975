import { type CaseDetail, ENTITY_LABELS, ENTITY_TYPES, type EntityType, messages } from '@footprint/domain';
import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'react';
import { kindLabel } from '../../history/index.ts';

/**
 * The case as a graph (loaded only when asked for: cytoscape is not in the first paint): one node per
 * search and per entity, an edge from each search to every entity its result holds. The searches stand
 * in a box of their own, the entities in one box per type ("Name · 5"), one per row with the label
 * beside the node; the boxes are placed in columns that fit the container's width, at a zoom that draws
 * every label at 12 px (never below 11), and the container grows in height to hold them (up to most of
 * the window; past that the view pans). Corroborated entities are drawn larger and green (the key below
 * says so). Pointing at or tapping a node lights its links. The entity list beside it says the same in
 * text. A case of hundreds of entities keeps a simpler drawing: rings, no boxes.
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

/** The labels' size in the model: drawn at zoom 1, so 12 CSS px. */
const FONT = 12;
/** The least zoom of the first drawing: labels at 11 px. */
const LEGIBLE_ZOOM = 11 / FONT + 0.005;
/** Height of an entity's row and of a search's (two lines of label). */
const ROW = 24;
const SEARCH_ROW = 42;
/** A box's padding, the room its title takes above it, and the gaps between boxes and columns. */
const PAD = 10;
const TITLE = 22;
const GAP_Y = 14;
const GAP_X = 36;
/** Space kept around the drawing in the container. */
const MARGIN = 12;
/** The widest node: every row's node stands on one vertical line. */
const NODE = 18;
/** How far the entity boxes are set in when they stand under the searches. */
const INDENT = 28;
/** The container's least height (px) and its most, as a share of the window's height. */
const MIN_HEIGHT = 288;
const MAX_SHARE = 0.8;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

type Group = { nodes: cytoscape.NodeCollection; rowHeight: number };

/**
 * Places the boxes (the searches' first, then one per entity type) for a container `width` px wide, at
 * zoom 1: the searches in a column of their own and the entity boxes, in type order, each to the
 * shortest of as many columns beside it as fit (a column as wide as its widest box). When not even one
 * fits beside the searches, everything stands in one column, the entity boxes set in a little so that
 * the links run down the gutter on their left rather than through the nodes.
 */
function arrange(searches: Group, types: Group[], width: number) {
  // Each box's width (its widest label), measured once.
  const widths = new Map<Group, number>();
  const widthOf = (g: Group) => {
    let w = widths.get(g);
    if (w === undefined) {
      w =
        Math.max(0, ...g.nodes.map((n) => n.boundingBox({ includeLabels: true, includeOverlays: false }).w)) +
        2 * PAD;
      widths.set(g, w);
    }
    return w;
  };
  const heightOf = (g: Group) => TITLE + 2 * PAD + g.nodes.length * g.rowHeight + GAP_Y;
  const place = (g: Group, x: number, y: number) => {
    g.nodes.forEach((node, index) => {
      node.position({ x: x + PAD + NODE / 2, y: y + TITLE + PAD + index * g.rowHeight + g.rowHeight / 2 });
    });
  };
  place(searches, 0, 0);
  const left = widthOf(searches) + GAP_X;
  const room = width - 2 * MARGIN - left;
  for (let count = types.length; count >= 1; count -= 1) {
    const tops = Array.from({ length: count }, () => 0);
    const wide = Array.from({ length: count }, () => 0);
    const spots = types.map((g) => {
      const top = Math.min(...tops);
      const column = tops.indexOf(top);
      tops[column] = top + heightOf(g);
      wide[column] = Math.max(wide[column] ?? 0, widthOf(g));
      return { column, top };
    });
    if (wide.reduce((sum, w) => sum + w + GAP_X, -GAP_X) > room) {
      if (count > 1) continue;
      break;
    }
    const starts = wide.map((_, i) => left + wide.slice(0, i).reduce((sum, w) => sum + w + GAP_X, 0));
    types.forEach((g, i) => {
      const spot = spots[i];
      if (spot) place(g, starts[spot.column] ?? left, spot.top);
    });
    return;
  }
  let y = heightOf(searches);
  for (const g of types) {
    place(g, INDENT, y);
    y += heightOf(g);
  }
}

/** Past this many nodes the graph is drawn on rings, without boxes. */
const LARGE = 300;

/** The entities of the type asked for (all without one) and the searches whose results hold them. */
function shownOf(detail: CaseDetail, type: EntityType | '') {
  const entities = type ? detail.entities.filter((e) => e.type === type) : detail.entities;
  const linked = new Set(entities.flatMap((e) => e.items));
  const items = detail.items.filter((item) => linked.has(item.lookup_id) || !type);
  return { entities, items };
}

export default function CaseGraph({ detail, type }: { detail: CaseDetail; type: EntityType | '' }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    delete element.dataset.ready;
    element.style.removeProperty('height');
    markCytoscapeStylesheet();
    const { entities, items } = shownOf(detail, type);
    const shownItems = new Set(items.map((item) => item.lookup_id));
    // Past a few hundred nodes (a case of 200 searches holds ~2,000 entities) the nodes go on rings
    // instead, searches in the middle, corroborated entities next, the rest outside, and the drawing
    // skips edges and labels while moving.
    const large = items.length + entities.length > LARGE;
    const accent = themeColour('--color-accent', '#22d3ee');
    const text = themeColour('--color-text', '#e5e7eb');
    const muted = themeColour('--color-muted', '#94a3b8');
    const line = themeColour('--color-line', '#1f2a44');
    const box = themeColour('--color-surface-2', '#131d33');
    const good = '#34d399';
    const types = [...ENTITY_TYPES, ...new Set(entities.map((e) => e.type))].filter(
      (ty, index, all) => all.indexOf(ty) === index && entities.some((e) => e.type === ty),
    );
    const typeLabel = (ty: string) => ENTITY_LABELS[ty as EntityType] ?? ty;
    const graph = cytoscape({
      container: element,
      elements: [
        ...(large
          ? []
          : [
              { data: { id: 'g:search', label: `${t.searchesTitle} · ${items.length}`, kind: 'group' } },
              ...types.map((ty) => ({
                data: {
                  id: `g:${ty}`,
                  label: `${typeLabel(ty)} · ${entities.filter((e) => e.type === ty).length}`,
                  kind: 'group',
                  type: ty,
                },
              })),
            ]),
        ...items.map((item) => ({
          data: {
            id: `s:${item.lookup_id}`,
            label: `${kindLabel(item.kind)}\n${clip(item.query_typed, 30)}`,
            kind: 'search',
            ...(large ? {} : { parent: 'g:search' }),
          },
        })),
        ...entities.map((entity) => ({
          data: {
            id: `e:${entity.type}:${entity.value}`,
            label: large ? `${typeLabel(entity.type)}\n${entity.value}` : clip(entity.value, 28),
            kind: entity.corroborated ? 'corroborated' : 'entity',
            type: entity.type,
            ...(large ? {} : { parent: `g:${entity.type}` }),
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
          style: large
            ? {
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
                'min-zoomed-font-size': 12,
              }
            : {
                label: 'data(label)',
                'text-wrap': 'wrap',
                'text-max-width': '260px',
                'text-justification': 'left',
                'font-size': FONT,
                color: text,
                'text-valign': 'center',
                'text-halign': 'right',
                'text-margin-x': 7,
                'background-color': muted,
                width: 12,
                height: 12,
                'min-zoomed-font-size': 6,
              },
        },
        {
          selector: 'node[kind = "search"]',
          style: { 'background-color': accent, shape: 'round-rectangle', width: NODE, height: NODE },
        },
        {
          selector: 'node[kind = "corroborated"]',
          style: large
            ? { 'background-color': good, width: 18, height: 18 }
            : { 'background-color': good, width: NODE, height: NODE, color: good, 'font-weight': 'bold' },
        },
        {
          selector: 'node[kind = "group"]',
          style: {
            shape: 'round-rectangle',
            'background-color': box,
            'background-opacity': 0.6,
            'border-width': 1,
            'border-color': line,
            padding: `${PAD}px`,
            'text-valign': 'top',
            'text-halign': 'center',
            'text-margin-x': 0,
            'text-margin-y': -3,
            'font-weight': 'bold',
            color: muted,
            'compound-sizing-wrt-labels': 'include',
          },
        },
        {
          selector: 'edge',
          style: large
            ? { width: 1, 'line-color': muted, opacity: 0.5, 'curve-style': 'haystack' }
            : { width: 1, 'line-color': muted, opacity: 0.18, 'curve-style': 'haystack' },
        },
        { selector: 'edge.lit', style: { width: 2, 'line-color': accent, opacity: 0.9, 'z-index': 9 } },
        { selector: 'node.lit', style: { 'border-width': 2, 'border-color': text } },
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
        : { name: 'preset', fit: false },
      hideEdgesOnViewport: large,
      textureOnViewport: large,
      // A large graph is panned and zoomed, not rearranged: a drag anywhere moves the view.
      autoungrabify: large,
      boxSelectionEnabled: false,
      selectionType: 'single',
      autounselectify: true,
      minZoom: 0.1,
      maxZoom: 4,
      pixelRatio: large ? 1 : 'auto',
      wheelSensitivity: 0.3,
    });

    // Lays the boxes out for the container's width, grows the container to hold them (within reason)
    // and shows them from the top at a legible zoom.
    let laidFor = -1;
    const lay = () => {
      const width = element.clientWidth;
      if (large || width === laidFor || width === 0) return;
      laidFor = width;
      arrange(
        { nodes: graph.nodes('[kind = "search"]'), rowHeight: SEARCH_ROW },
        types.map((ty) => ({ nodes: graph.getElementById(`g:${ty}`).children(), rowHeight: ROW })),
        width,
      );
      const bounds = graph.elements().boundingBox({ includeLabels: true, includeOverlays: false });
      const zoom = Math.min(1, Math.max(LEGIBLE_ZOOM, (width - 2 * MARGIN) / bounds.w));
      const wanted = Math.ceil(bounds.h * zoom + 2 * MARGIN);
      const most = Math.max(MIN_HEIGHT, Math.floor(window.innerHeight * MAX_SHARE));
      element.style.height = `${Math.min(most, Math.max(MIN_HEIGHT, wanted))}px`;
      graph.resize();
      graph.zoom(zoom);
      const spare = width - bounds.w * zoom;
      graph.pan({
        x: (spare > 2 * MARGIN ? spare / 2 : MARGIN) - bounds.x1 * zoom,
        y: MARGIN - bounds.y1 * zoom,
      });
    };
    lay();
    const resized = new ResizeObserver(() => requestAnimationFrame(lay));
    resized.observe(element);

    // A node's links light up while it is pointed at, and stay lit once it is tapped (until a tap
    // elsewhere).
    let pinned: cytoscape.NodeSingular | null = null;
    const light = (node: cytoscape.NodeSingular | null) => {
      graph.elements('.lit').removeClass('lit');
      if (node) node.connectedEdges().union(node.neighborhood('node')).union(node).addClass('lit');
    };
    graph.on('mouseover', 'node:childless', (event) => light(event.target));
    graph.on('mouseout', 'node:childless', () => light(pinned));
    graph.on('tap', 'node:childless', (event) => {
      pinned = event.target;
      light(pinned);
    });
    graph.on('tap', (event) => {
      if (event.target !== graph) return;
      pinned = null;
      light(null);
    });

    // Marks the drawing done (after its layout and first frame): the case bench times it.
    graph.ready(() => {
      requestAnimationFrame(() => {
        if (container.current) container.current.dataset.ready = 'true';
      });
    });
    return () => {
      resized.disconnect();
      graph.destroy();
    };
  }, [detail, type]);

  const shown = shownOf(detail, type);
  const boxed = shown.items.length + shown.entities.length <= LARGE;
  return (
    <div className="mt-3">
      <div
        ref={container}
        role="img"
        aria-label={t.graphLabel(detail.items.length, detail.entities.length)}
        className="relative h-[28rem] w-full rounded-md border border-line/70 bg-surface"
      />
      <ul aria-label={t.graphLegend} className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        <li className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-accent" />
          {t.graphLegendSearch}
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full bg-muted" />
          {boxed ? t.graphLegendEntityBoxed : t.graphLegendEntity}
        </li>
        <li className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3.5 w-3.5 rounded-full bg-emerald-400" />
          {t.graphLegendCorroborated}
        </li>
      </ul>
      <p className="mt-1 text-xs text-muted">{t.graphHint}</p>
    </div>
  );
}
