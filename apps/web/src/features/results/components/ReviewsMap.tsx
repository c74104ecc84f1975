import 'leaflet/dist/leaflet.css';
import { type MapConfig, messages } from '@footprint/domain';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { fetchMedia } from '../../../lib/media.ts';
import { loadMapConfig } from '../api/mapConfig.ts';
import { formatCoordinates, type LocatedReview } from './reviews.ts';

/**
 * The map of 'Locations' (spec §2.5), loaded on demand: this module and Leaflet are their own chunk.
 * Markers are drawn by the app (numbered pins, no marker images). The base map's tiles come only from
 * the operator's tile server (MAP_TILE_URL), and only through the product's server (GET /api/map/tiles),
 * so no outside host learns where the investigator is looking. With none configured, the pins stand on
 * a plain background and nothing is fetched; the list beside the map has every place either way.
 * Popups are built as DOM text nodes: review text never becomes HTML.
 */

/** Tiles fetched through the server with the session's token, shown through blob: URLs. */
const ProxiedTiles = L.GridLayer.extend({
  createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const tile = document.createElement('img');
    tile.alt = '';
    tile.setAttribute('role', 'presentation');
    fetchMedia(`/api/map/tiles/${coords.z}/${coords.x}/${coords.y}`).then(
      (url) => {
        tile.onload = () => {
          URL.revokeObjectURL(url);
          done(undefined, tile);
        };
        tile.onerror = () => {
          URL.revokeObjectURL(url);
          done(new Error('tile'), tile);
        };
        tile.src = url;
      },
      // A missing tile leaves its square plain: the pins and the list still say everything.
      (error: unknown) => done(error instanceof Error ? error : new Error('tile'), tile),
    );
    return tile;
  },
}) as unknown as new (
  options: L.GridLayerOptions,
) => L.GridLayer;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function popupContent(review: LocatedReview): HTMLElement {
  const root = document.createElement('div');
  root.className = 'review-popup';
  const title = document.createElement('strong');
  title.textContent = `${review.number}. ${review.name}`;
  root.append(title);
  for (const line of [
    review.address,
    review.rating !== undefined ? `★ ${review.rating}` : undefined,
    formatCoordinates(review),
  ]) {
    if (!line) continue;
    const p = document.createElement('div');
    p.textContent = line;
    root.append(p);
  }
  return root;
}

function pin(review: LocatedReview): L.DivIcon {
  const element = document.createElement('span');
  element.textContent = String(review.number);
  return L.divIcon({
    className: 'review-pin',
    html: element,
    iconSize: [28, 28],
    iconAnchor: [14, 14],
    popupAnchor: [0, -14],
  });
}

export default function ReviewsMap({ reviews }: { reviews: LocatedReview[] }) {
  const container = useRef<HTMLElement>(null);
  const [config, setConfig] = useState<MapConfig | null>(null);

  useEffect(() => {
    let live = true;
    loadMapConfig().then(
      (answer) => live && setConfig(answer),
      () => live && setConfig({ tiles: false, attribution: null, max_zoom: 19 }),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!container.current || !config) return;
    const map = L.map(container.current, {
      attributionControl: true,
      scrollWheelZoom: false,
      worldCopyJump: true,
    });
    map.attributionControl.setPrefix(false);
    if (config.tiles) {
      new ProxiedTiles({
        maxZoom: config.max_zoom,
        // Leaflet writes attributions as HTML; the operator's credit line is text.
        attribution: config.attribution ? escapeHtml(config.attribution) : undefined,
      }).addTo(map);
    } else {
      map.attributionControl.addAttribution(messages.results.mapNoTiles);
    }
    const markers = reviews.map((review) =>
      L.marker([review.lat, review.lng], {
        icon: pin(review),
        title: `${review.number}. ${review.name}`,
        alt: `${review.number}. ${review.name}`,
        keyboard: true,
      })
        .bindPopup(popupContent(review))
        .addTo(map),
    );
    if (markers.length === 1) map.setView([reviews[0]!.lat, reviews[0]!.lng], 13);
    else if (markers.length > 1)
      map.fitBounds(L.latLngBounds(reviews.map((r) => [r.lat, r.lng])), { padding: [32, 32], maxZoom: 14 });
    else map.setView([20, 0], 2);
    return () => {
      map.remove();
    };
  }, [reviews, config]);

  return (
    <section
      ref={container}
      aria-label={messages.results.mapLabel(reviews.length)}
      className={`reviews-map ${config && !config.tiles ? 'reviews-map-plain' : ''}`}
    />
  );
}
