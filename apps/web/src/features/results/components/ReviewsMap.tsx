import 'leaflet/dist/leaflet.css';
import { messages } from '@footprint/domain';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { formatCoordinates, type LocatedReview } from './reviews.ts';

/**
 * The map of 'Locations' (spec §2.5), loaded on demand: this module and Leaflet are their own chunk.
 * Markers are drawn by the app (numbered pins, no marker images); only the base map tiles come from a
 * tile server (VITE_MAP_TILE_URL, OpenStreetMap by default; set it empty to draw no tiles). Without a
 * network the pins still stand on the plain background, and the list beside the map has every place.
 * Popups are built as DOM text nodes: review text never becomes HTML.
 */

const DEFAULT_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const configuredTiles = import.meta.env.VITE_MAP_TILE_URL as string | undefined;
const tileUrl = configuredTiles === undefined ? DEFAULT_TILES : configuredTiles.trim();

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

  useEffect(() => {
    if (!container.current) return;
    const map = L.map(container.current, {
      attributionControl: true,
      scrollWheelZoom: false,
      worldCopyJump: true,
    });
    map.attributionControl.setPrefix(false);
    if (tileUrl) {
      L.tileLayer(tileUrl, {
        maxZoom: 19,
        attribution: '© OpenStreetMap contributors',
        referrerPolicy: 'no-referrer',
      } as L.TileLayerOptions).addTo(map);
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
  }, [reviews]);

  return (
    <section ref={container} aria-label={messages.results.mapLabel(reviews.length)} className="reviews-map" />
  );
}
